"""The API routes every declared record kind gets: the GET of each change log (app/history/change_log.py
CHANGE_LOGS, with its date and person filters), the POST restoring one of its entries for each log with a restorer
(app/history/restore.py) and one status route per StatusRoute of each status machine
(app/history/status.py), at the paths declared. Built when the API is (app/main.py), after every domain's
package has declared its kinds, so a kind declared anywhere has its routes without an API module. Their response
schemas come from the declarations too: a change log's ChangeLogKind.paged_reply (its aliases': reply), a status machine's `read`."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field, create_model
from sqlmodel import Session

from app.access.policy import Actor
from app.history import change_log, restore
from app.history.change_log import CHANGE_LOGS, ChangeLogKind
from app.history.schemas import RestoreBody, Restored
from app.history.status import STATUS_MACHINES, StatusMachine, StatusRoute
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply
from app.web.paging import PageQuery, page_query
from app.web.record_versions import STALE_REPLY, expected_version, if_match_header


def path_parameter(path: str) -> str:
    """The one {parameter} of a record's path: the record's id."""
    return path.split("{", 1)[1].split("}", 1)[0]


def endpoint(name: str, run: Callable[..., Any], answer: Any, **parameters: tuple[Any, Any]) -> Callable[..., Any]:
    """A route function whose signature FastAPI reads: `parameters` are {name: (annotation, default)} (the
    default inspect.Parameter.empty for a required one), then the actor and the database session; it returns
    `answer` (Envelope[the reply's model], its response schema)."""
    def handler(**values: Any) -> Any:
        return run(**values)

    handler.__name__ = name
    handler.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
         for key, (annotation, default) in parameters.items()]
        + [inspect.Parameter("actor", inspect.Parameter.KEYWORD_ONLY, annotation=Actor, default=Depends(get_actor)),
           inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, annotation=Session, default=DB)],
        return_annotation=answer)
    return handler


def _status_body(machine: StatusMachine[Any]) -> type[BaseModel]:
    states = ", ".join(machine.states)
    return create_model(f"{machine.entity.title().replace('_', '')}StatusBody", __config__=example({"status": machine.states[-1]}),
                        status=(str, Field(description=f"One of: {states}", json_schema_extra={"enum": list(machine.states)})))


def _add_status_route(router: APIRouter, machine: StatusMachine[Any], route: StatusRoute) -> None:
    key = path_parameter(route.path)

    def move(*, body: BaseModel, actor: Actor, db: Session, **ids: int) -> Envelope[Any]:
        loaded = machine.change(db, actor=actor, record_id=ids[key], status=body.model_dump()["status"])
        return reply(machine.show(db, actor, loaded), route.message)

    name = f"set_status_{route.path.strip('/').replace('/', '_').replace('{', '').replace('}', '')}"
    answer = Envelope[machine.read]  # type: ignore[name-defined]  # a type made at run time, from the declaration
    router.add_api_route(route.path, endpoint(name, move, answer, **{
                             key: (int, inspect.Parameter.empty), "body": (_status_body(machine), inspect.Parameter.empty)}),
                         methods=[route.method], summary=route.summary or None,
                         description=route.description or route.summary)


def _add_change_log_route(router: APIRouter, kind: str, log: ChangeLogKind) -> None:
    key = path_parameter(log.api)

    def values_of(values: dict[str, Any]) -> dict[str, Any]:
        record_id = values.pop(key)
        assert record_id is not None
        return {"record_id": record_id, "user_id": values.get("user_id")}

    def read_page(*, since: str, until: str, paging: PageQuery, actor: Actor, db: Session,
                  **values: int | None) -> Envelope[Any]:
        return reply(change_log.read_page(db, actor=actor, kind=kind, since=since, until=until, limit=paging.limit,
                                          cursor=paging.cursor, **values_of(values)))

    def read(*, since: str, until: str, actor: Actor, db: Session, **values: int | None) -> Envelope[Any]:
        return reply(change_log.read(db, actor=actor, kind=kind, since=since, until=until, **values_of(values)))

    parameters: dict[str, tuple[Any, Any]] = {
        key: (int, inspect.Parameter.empty),
        "since": (str, Query("", description="From this day (YYYY-MM-DD, UTC)")),
        "until": (str, Query("", description="To this day, included (YYYY-MM-DD, UTC)"))}
    if key != "user_id":  # a user's own log: its path names the user, so it has no person filter
        parameters["user_id"] = (int | None, Query(None, description="Only changes made by (or on behalf of) "
                                                                      "this user"))
    description = f"Who changed what and when, newest first; readable where {log.scope}."
    paged = endpoint(f"change_log_{kind}", read_page, Envelope[log.paged_reply],  # type: ignore[name-defined]
                     **parameters, paging=(PageQuery, Depends(page_query)))
    router.add_api_route(log.api, paged, methods=["GET"],
                         description=f"{description} A page of entries at a time; `total` counts them all.")
    # The spec's call names answer as its client reads them: the newest entries, unpaged.
    whole = endpoint(f"change_log_{kind}_whole", read, Envelope[log.reply], **parameters)  # type: ignore[name-defined]
    for path, summary in log.aliases:
        router.add_api_route(path, whole, methods=["GET"], summary=summary,
                             description=f"{description} At most {change_log.LIMIT} entries.",
                             operation_id=f"change_log_{kind}_{path.strip('/').split('/')[0]}")


def _add_restore_route(router: APIRouter, kind: str, log: ChangeLogKind, restorer: restore.Restorer) -> None:
    key = path_parameter(log.api)

    def run(*, entry_id: int, body: RestoreBody, dry_run: bool, if_match: str | None, actor: Actor, db: Session,
            **ids: int) -> Envelope[Any]:
        service = restore.preview if dry_run else restore.restore
        done = service(db, actor=actor, kind=kind, record_id=ids[key], entry_id=entry_id, values=body.values,
                       version=expected_version(if_match, body.version))
        if dry_run:
            return reply(done, "Preview: nothing was saved")
        return reply(done, "Values restored" if done.change_id else "Nothing to restore: the fields already have these values")

    answer = Envelope[Restored[restorer.read]]  # type: ignore[name-defined]  # the kind's record model
    # 200, not 201: like an edit (PUT), it changes the record; the log entry it adds is no resource of its own.
    router.add_api_route(f"{log.api}/{{entry_id}}/restore", endpoint(f"restore_{kind}", run, answer, **{
                             key: (int, inspect.Parameter.empty), "entry_id": (int, inspect.Parameter.empty),
                             "body": (RestoreBody, RestoreBody()),
                             "if_match": (str | None, if_match_header()),
                             "dry_run": (bool, Query(False, description=(
                                 "true: only check and show what the restore would change (`changes`, `unchanged`, "
                                 "`not_restorable`, the `record` as it would be), refused as the restore would be; "
                                 "nothing is saved and `change_id` is null")))}),
                         methods=["POST"], summary=f"Restore a {log.entity}'s values from its change log",
                         responses={409: STALE_REPLY[409]},
                         description=(
                             f"Sets the fields one change-log entry touched back to their values before it (`before`, "
                             f"the default) or to the values it set (`after`), as a new change through the {log.entity}'s "
                             "own edit: today's rules judge the values (422 naming the field, nothing saved), the edit "
                             "permission and scope are checked (another tenant's record or entry: 404) and the log "
                             "records it as a restore of that entry. Files, ids and computed values are listed in "
                             "`not_restorable` and left as they are. When every field already has its value nothing is "
                             "saved and `change_id` is null. `dry_run=true` previews it: the same checks and answer, nothing saved. "
                             f"If-Match (or `version`): the {log.entity}'s ETag (or the plan's `version`), so a "
                             f"{log.entity} saved since is refused with 409 naming who changed what."))


def router() -> APIRouter:
    """Every declared kind's routes, as they are declared now."""
    built = APIRouter(tags=["records: change logs and status"])
    for kind, log in CHANGE_LOGS.items():
        _add_change_log_route(built, kind, log)
        if kind in restore.restorers():
            _add_restore_route(built, kind, log, restore.restorers()[kind])
    for machine in STATUS_MACHINES.values():
        for route in machine.routes:
            _add_status_route(built, machine, route)
    return built
