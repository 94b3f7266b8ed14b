"""Restore from history: on a record's change log, set the fields one entry touched back to the values they had
before it ("before", the default: what a buyer means by "restore" is undoing that change) or to the values it set
("after": re-applying it, when a later edit overwrote it). A restore is a NEW change made through the record's own
update service, so today's rules judge it (a refusal names the field and saves nothing), it is permission- and
scope-checked exactly like an edit, and its log entry says which entry it restored (action "restore:<id>" or
"reapply:<id>", read back by change_log.restored_entry). Only the fields that entry touched are set; those a
restore cannot set (files, ids, computed values, the status with its own rules) are listed, with why.

Each domain registers a Restorer for its change-log kind (app/campaigns/restore.py, app/creatives/restore.py),
and the logs that show many of its records (every campaign of an advertiser) as restoring through it; the API
routes (app/web/kinds_api.py) and the change-log page's button (components/ui/restore_dialog.py) follow the
registry. `preview` answers what a restore would do, judged by today's rules, without saving it.

A plan says the record's version it was judged against; a restore naming that version (the dialog's, the API's
If-Match) is refused with who changed what (409, app/history/versions.py) when the record was saved since, so
nobody restores over a change they never saw."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlmodel import Session, col, func, select

from app.access.policy import Actor, can, require
from app.history import change_log
from app.history.models import AuditEntry
from app.history.schemas import Restored, RestorePlan, RestoreValues
from app.kernel.errors import Invalid, NotFound

ENTRY_NOT_FOUND = "This change is not in the record's change log."
NOTHING_BEFORE = "A new record had no values before: re-apply the values it was created with instead."
NOTHING_RESTORABLE = "Nothing this change touched can be restored."
# What a restore's log entry is called, by the values it set back.
ACTIONS: dict[str, str] = {"before": "restore", "after": "reapply"}
# Entries that made the record: they have no values before them, only values to re-apply.
CREATED_ACTIONS = frozenset({"create", "clone"})


@dataclass(frozen=True)
class Planned:
    """A domain's reading of one entry: the update service's input that restores it, and the plan people see."""

    input: dict[str, Any]
    plan: RestorePlan


@dataclass(frozen=True)
class Restorer:
    """A domain's part of restoring its records. `plan` reads an entry's stored changes {column: [before, after]}
    against the record now (the record is in scope: checked before); `apply` saves the input through the domain's
    update service under the given log action and answers the record as saved (as `read`); `restorable` says
    whether a field as the change log shows it can be restored (the page offers the button on such entries)."""

    permission: tuple[str, str]  # what an edit of the record needs: the update permission
    read: type[BaseModel]  # the record as the API answers it
    plan: Callable[[Session, Actor, int, dict[str, Any], RestoreValues, int], Planned]
    apply: Callable[[Session, Actor, int, dict[str, Any], str], BaseModel]
    restorable: Callable[[str], bool]


_RESTORERS: dict[str, Restorer] = {}
# Logs of many records (every campaign of an advertiser) -> the log of one record their entries restore through,
# by the entry's record id.
_THROUGH: dict[str, str] = {}
Input = TypeVar("Input", bound=BaseModel)
NOT_ALLOWED_NOW = "Not an allowed value."


def same(old: Any, new: Any) -> bool:
    """Whether a field already has the value to restore (an empty value of any kind is the same as another)."""
    blank: tuple[object, ...] = (None, "", [], {})
    return bool(old == new or (old in blank and new in blank))


def as_input(model: type[Input], values: dict[str, Any]) -> Input:
    """Restored values as the update service's input model. A value the model no longer takes (a choice since
    removed) is refused naming its field, as the service's own rules would, instead of failing."""
    try:
        return model.model_validate(values)
    except ValidationError as refused:
        raise Invalid({str(error["loc"][0]): NOT_ALLOWED_NOW for error in refused.errors()}) from None


def register(kind: str, restorer: Restorer) -> None:
    """A domain's restorer for one declared change log (registering again replaces it)."""
    if kind not in change_log.CHANGE_LOGS:
        raise KeyError(f"no change log {kind!r} is declared (app/history/change_log.py CHANGE_LOGS)")
    _RESTORERS[kind] = restorer


def register_through(kind: str, record_kind: str) -> None:
    """The entries of log `kind` are restored as entries of `record_kind`'s log (their record's own)."""
    if kind not in change_log.CHANGE_LOGS or record_kind not in _RESTORERS:
        raise KeyError(f"{kind!r} or a restorer for {record_kind!r} is not declared")
    _THROUGH[kind] = record_kind


def record_kind(kind: str) -> str | None:
    """The log whose restorer restores entries shown in log `kind`: itself, the one it restores through, or None."""
    return kind if kind in _RESTORERS else _THROUGH.get(kind)


def restorers() -> dict[str, Restorer]:
    """The change-log kinds whose entries can be restored, and how."""
    return dict(_RESTORERS)


def can_restore(actor: Actor | None, kind: str) -> bool:
    """Whether the actor's role may restore entries of this kind's log (the page shows its buttons then; the
    services check again, with the row scope)."""
    found = _RESTORERS.get(record_kind(kind) or "")
    return found is not None and can(actor, *found.permission)


def offered(kind: str, fields: list[str]) -> bool:
    """Whether an entry touching these fields (as the change log shows them) has one a restore can set."""
    found = _RESTORERS.get(record_kind(kind) or "")
    return found is not None and any(found.restorable(field) for field in fields)


def _entry(db: Session, kind: str, subject: change_log.Subject, entry_id: int) -> AuditEntry:
    entry = db.get(AuditEntry, entry_id)
    if entry is None or entry.entity != change_log.CHANGE_LOGS[kind].entity \
            or entry.entity_id not in {str(i) for i in subject.ids}:
        raise NotFound(ENTRY_NOT_FOUND)
    return entry


def _planned(db: Session, actor: Actor | None, kind: str, record_id: int, entry_id: int,
             values: RestoreValues) -> tuple[Actor, Restorer, Planned]:
    """The checks every restore makes, in the order an edit makes them (permission, then the record's scope: another
    tenant's record or entry answers 404 as if missing), and the domain's plan."""
    restorer = _RESTORERS.get(kind)
    if restorer is None:
        raise NotFound(ENTRY_NOT_FOUND)
    actor = change_log.require_reader(actor, kind)
    require(actor, *restorer.permission)
    subject = change_log.source(kind).find(db, actor, record_id)
    entry = _entry(db, kind, subject, entry_id)
    if values == "before" and entry.action in CREATED_ACTIONS:
        raise Invalid({"values": NOTHING_BEFORE})
    return actor, restorer, restorer.plan(db, actor, record_id, entry.changes, values, entry_id)


def plan(db: Session, *, actor: Actor | None, kind: str, record_id: int, entry_id: int,
         values: RestoreValues = "before") -> RestorePlan:
    """What restoring the entry would set, field by field (the value now, the value restored), without saving:
    the confirmation dialog shows it."""
    return _planned(db, actor, kind, record_id, entry_id, values)[2].plan


def restore(db: Session, *, actor: Actor | None, kind: str, record_id: int, entry_id: int,
            values: RestoreValues = "before", version: int | None = None) -> Restored[Any]:
    """Restore the entry as a new change. Refused with the field's message (and nothing saved) when today's rules
    refuse a value; when every field already has its value, nothing is saved and `change_id` is null (so a
    replayed click restores once). `version`: the record's, as the plan the person confirmed had it (None: not
    checked); the record saved since, it is refused (Conflict) by the record's own update service."""
    actor, restorer, planned = _planned(db, actor, kind, record_id, entry_id, values)
    if not planned.plan.changes and not planned.plan.unchanged:
        raise Invalid({"entry_id": NOTHING_RESTORABLE})
    entity = change_log.CHANGE_LOGS[kind].entity
    last = db.exec(select(func.max(AuditEntry.id))).one() or 0
    action = f"{ACTIONS[values]}:{entry_id}"
    sent = planned.input if version is None else {**planned.input, "version": version}
    record = restorer.apply(db, actor, record_id, sent, action)
    db.flush()
    change_id = db.exec(select(AuditEntry.id).where(  # the row the update service wrote, if it wrote one
        AuditEntry.entity == entity, AuditEntry.entity_id == str(record_id), col(AuditEntry.id) > last,
        AuditEntry.action == action).order_by(col(AuditEntry.id))).first()
    return Restored[restorer.read].model_validate(  # type: ignore[name-defined]  # the kind's record model
        {**planned.plan.model_dump(), "change_id": change_id, "record": record})


def preview(db: Session, *, actor: Actor | None, kind: str, record_id: int, entry_id: int,
            values: RestoreValues = "before", version: int | None = None) -> Restored[Any]:
    """What `restore` would do, checked and judged exactly as it is (the same refusals, naming the field), without
    saving anything: the restore runs inside a savepoint that is then rolled back. `record` is the record as the
    restore would leave it; `change_id` is null."""
    savepoint = db.begin_nested()
    try:
        done = restore(db, actor=actor, kind=kind, record_id=record_id, entry_id=entry_id, values=values,
                       version=version)
    finally:
        savepoint.rollback()
    return done.model_copy(update={"change_id": None})
