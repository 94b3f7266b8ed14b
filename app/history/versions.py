"""Record versions: a save made from an older copy of a record is refused, never silently laid over what someone
else saved meanwhile (ARCHITECTURE.md: saves are versioned and partial).

A versioned record (campaigns, creatives: app/kernel/model_base.version_field) counts its saves in `version`. A
save names the version it read (the API's If-Match, the form's hidden copy); `check` refuses an older one with a
409 that says who changed what since, read from the change log (each audit row of a versioned record keeps the
version it made); `bump` counts the save. Whether or not a version was named, the row's UPDATE is conditional on
the version the save read (version_id_col), and `flush` turns a lost race into the same kind of 409, so two saves
(or two bulk edits) racing on one row cannot lose either's change."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, col, select

from app.access.models import User
from app.history.models import AuditEntry
from app.kernel.errors import Conflict
from app.kernel.i18n.catalog import DEFAULT_LANGUAGE, Message, Term, catalog

STALE = "Changed by {who} at {when}: {fields}. Reload to see the changes."
CHANGED_MEANWHILE = "Someone else changed this while you saved. Reload to see the changes."
SYSTEM = "the system"  # who made a change no person made (a campaign paused when its balance ran out)
# A stored change ({field: [old, new]} of an audit row) as the names of the fields people know (a campaign's money
# without "_micros", its targeting by kind): the domain's own reading.
FieldNames = Callable[[dict[str, Any]], list[str]]


class Versioned(Protocol):
    @property
    def id(self) -> int | None: ...

    version: int


def bump(row: Versioned) -> int:
    """Count a save of `row` (once per save); the new version, for its audit row."""
    row.version = row.version + 1
    return row.version


def check(db: Session, *, entity: str, row: Versioned, expected: int | None, fields: FieldNames) -> None:
    """Refuse a save made from version `expected` of `row` when the row has moved on since (Conflict naming who
    changed which fields, and when); None: the caller named no version (the change is still conditional, see
    `flush`)."""
    if expected is not None and expected != row.version:
        raise stale(db, entity=entity, record_id=row.id, read=expected, current=row.version, fields=fields)


def flush(db: Session) -> None:
    """Write this unit of work's changes; a versioned row someone else saved since it was read (the conditional
    UPDATE matched nothing) is a Conflict, and nothing of this save is kept."""
    try:
        db.flush()
    except StaleDataError:
        raise Conflict(CHANGED_MEANWHILE) from None


def stale(db: Session, *, entity: str, record_id: Any, read: int, current: int, fields: FieldNames) -> Conflict:
    """The refusal of a save made from version `read`: who changed the record since (each person once, in order),
    the time of the latest change and the fields changed, from the audit rows that made the later versions.
    `data` has the current version and each change: {version, changes: [{version, by, at, fields}]}."""
    entries = list(db.exec(select(AuditEntry).where(AuditEntry.entity == entity,
                                                    AuditEntry.entity_id == str(record_id),
                                                    col(AuditEntry.version) > read)
                           .order_by(col(AuditEntry.id))))
    people = {u.id: u.display_name for u in db.exec(select(User).where(
        col(User.id).in_({e.actor_id for e in entries if e.actor_id is not None})))}
    by = [people.get(e.actor_id, SYSTEM) if e.actor_id else SYSTEM for e in entries]
    named_by_entry = [fields(e.changes) for e in entries]
    data = {"version": current, "changes": [{"version": e.version, "by": who, "at": e.created_at.isoformat(),
                                             "fields": named} for e, who, named in zip(entries, by, named_by_entry,
                                                                                       strict=True)]}
    if not entries:  # a version from elsewhere, or changes older than this log: still refused
        return Conflict(CHANGED_MEANWHILE, data=data)
    who = list(dict.fromkeys(by))
    named = list(dict.fromkeys(field for names in named_by_entry for field in names))
    message = Message(STALE, who=_joined([Term(name, key="versions.system") if name == SYSTEM else name
                                          for name in who]),
                      when=_when(entries[-1].created_at), fields=_joined([_label(entity, f) for f in named]))
    return Conflict(message, data=data)


def _joined(words: list[str]) -> Message:
    """Words joined by commas, each translated on its own (a Term takes its language's label): the template is
    made of placeholders only, so it needs no catalog entry."""
    return Message(", ".join(f"{{w{i}}}" for i in range(len(words))), **{f"w{i}": w for i, w in enumerate(words)})


def _when(moment: datetime) -> str:
    """"14:02 UTC" today, else "2026-11-30 14:02 UTC"."""
    moment = moment.replace(tzinfo=UTC) if moment.utcoffset() is None else moment.astimezone(UTC)
    today = datetime.now(UTC).date() == moment.date()
    return moment.strftime("%H:%M UTC" if today else "%Y-%m-%d %H:%M UTC")


def _label(entity: str, field: str) -> Term:
    """A changed field inside a sentence: in English the change log's label in lower case and without its unit
    ("Daily budget ($)": "daily budget"), in a translation that language's change-log label."""
    english_labels = catalog(DEFAULT_LANGUAGE)
    key = next((key for key in (f"changelog.{entity}.field.{field}", f"changelog.field.{field}")
                if key in english_labels), f"changelog.{entity}.field.{field}")
    english = english_labels.get(key) or field.removeprefix("targeting.").replace("_", " ")
    english = english.split(" (")[0]
    if len(english) > 1 and not english[1].isupper():  # "OS versions", "HTML markup" keep their capitals
        english = english[0].lower() + english[1:]
    return Term(english, key=key)
