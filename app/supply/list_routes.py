"""The API routes every declared list kind gets (app/supply/list_lifecycle.py LIST_LIFECYCLES, each with its
ListRoutes): one list, its deletion, its entries read and typed, and the multipart upload of entries, at the
paths declared, with the spec's aliases. Built when the API is (app/main.py), as app/web/kinds_api.py builds each
kind's status and change-log routes, so a list kind declared with its routes needs no API module of its own.

Annotations are evaluated here (no `from __future__ import annotations`): each route names its kind's id
parameter (`applist_id`, `list_id`) and its Read schema, which FastAPI must see as they are in the closure."""

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Query, UploadFile
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.paging import Page
from app.kernel.uploads import shown_file_name
from app.supply import app_entries
from app.supply.list_lifecycle import LIST_LIFECYCLES, ListLifecycle, ListRoutes
from app.supply.schemas import (
    EntriesChange,
    EntriesChanged,
    EntriesUploaded,
    EntryMode,
    ListDeleted,
    ListEntry,
)
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply
from app.web.paging import PageQuery, page_query

SPEC_TAG = "inventory and smart-app lists (spec call names)"
ENTRY_SEARCH_HELP = "Only the entries whose value contains this text (any case)."
RESULT_HELP = ("`data.result` is the batch's result: lines, added, duplicates_in_batch, already_in_list, "
               "refused_count and refused [{line, text, reason}] (the first 1,000).")


def path_parameter(path: str) -> str:
    """The one {parameter} of a list's path: the list's id."""
    return path.split("{", 1)[1].split("}", 1)[0]


def read_upload(file: UploadFile) -> bytes:
    # A sync handler runs in a worker thread; one byte past the limit is enough to refuse the file.
    return file.file.read(app_entries.MAX_UPLOAD_BYTES + 1)


def spec_operation_id(path: str, method: str) -> str:
    return f"{path.strip('/').replace('/', '_').replace('{', '').replace('}', '')}_{method.lower()}"


def _add_routes(router: APIRouter, lifecycle: ListLifecycle[Any, Any], routes: ListRoutes) -> None:
    key = path_parameter(routes.path)
    name = lifecycle.entity

    def get_one(list_id: Annotated[int, Path(alias=key)], actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[Any]:  # Envelope[lifecycle.read]: its response_model below
        return reply(lifecycle.get(db, actor=actor, list_id=list_id))

    def delete(list_id: Annotated[int, Path(alias=key)], actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ListDeleted]:
        return reply(lifecycle.delete(db, actor=actor, list_id=list_id), f"{routes.noun} deleted")

    def entries(list_id: Annotated[int, Path(alias=key)],
                search: Annotated[str, Query(max_length=255, description=ENTRY_SEARCH_HELP)] = "",
                paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[Page[ListEntry]]:
        return reply(lifecycle.entries_page(db, actor=actor, list_id=list_id, search=search, limit=paging.limit,
                                            cursor=paging.cursor))

    def change_entries(list_id: Annotated[int, Path(alias=key)], body: EntriesChange, actor: Actor = Depends(get_actor),
                       db: Session = DB) -> Envelope[EntriesChanged]:
        return reply(EntriesChanged(result=lifecycle.change_entries(db, actor=actor, list_id=list_id,
                                                                    text=body.entries, mode=body.mode)))

    def upload(file: UploadFile, list_id: Annotated[int, Form(alias=key)], mode: Annotated[EntryMode, Form()] = "add",
               actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[EntriesUploaded]:
        result = lifecycle.upload_entries(db, actor=actor, list_id=list_id, content=read_upload(file), mode=mode)
        return reply(EntriesUploaded(result=result, filename=shown_file_name(file.filename)), "Uploaded")

    handlers: dict[str, tuple[Callable[..., Any], str, str, str]] = {
        "get": (get_one, "GET", routes.path, "One list: its counts by kind and the campaigns using it."),
        "delete": (delete, "DELETE", routes.path,
                   f"{routes.who}Delete an unused list. A list that a campaign which is not archived uses "
                   "answers 409 naming the campaigns: archive it instead."),
        "entries": (entries, "GET", f"{routes.path}/entries",
                    "The list's entries, {value, kind}, a page at a time by value; `total` counts the entries the "
                    "search matches."),
        "change_entries": (change_entries, "POST", f"{routes.path}/entries",
                           f"{routes.who}Add, replace or remove typed entries. " + RESULT_HELP),
        "upload": (upload, "POST", routes.upload,
                   f"{routes.who}Upload entries to a list (multipart: `file`, `{key}`, `mode`). A CSV or "
                   f"text file of at most {app_entries.MAX_UPLOAD_BYTES // (1024 * 1024)} MB, the first cell "
                   "of each row an entry; a header row is skipped. A file that is not UTF-8 CSV text, is "
                   "empty or too big answers 422 and saves nothing. `data.result` as for typed entries.")}
    # The reply of GET is the kind's own Read schema; the others' replies are their annotations.
    read = Envelope[lifecycle.read]  # type: ignore[name-defined]  # a schema known when the kind is declared
    declared: dict[str, dict[str, Any]] = {"get": {"response_model": read}}
    names = dict(routes.names)
    for route, (handler, method, path, description) in handlers.items():
        handler.__name__ = names.get(route, f"{route}_{name}")
        router.add_api_route(path, handler, methods=[method], tags=[routes.tag], description=description,
                             **declared.get(route, {}))
    for route, path, summary in routes.aliases:
        handler, method, _path, _description = handlers[route]
        router.add_api_route(path, handler, methods=[method], tags=[SPEC_TAG], summary=summary, description=summary,
                             operation_id=spec_operation_id(path, method), **declared.get(route, {}))


def router() -> APIRouter:
    """Every declared list kind's routes, as they are declared now."""
    built = APIRouter()
    for lifecycle in LIST_LIFECYCLES.values():
        if lifecycle.routes is not None:
            _add_routes(built, lifecycle, lifecycle.routes)
    return built
