"""Appends to the change history in the caller's transaction."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlmodel import Session

from app.access.policy import Actor
from app.history.models import AuditEntry

# Never copied into the change history.
_SECRET_FIELDS = frozenset({"password_hash", "token_hash", "ticket_hash", "code_hash",
                            "credentials"})  # a DSP's API key (app/dsps/service.py): only that it changed


# Columns the system keeps for itself, which no person sets: never recorded in a change, nor shown from one recorded
# before this rule (change_log.shown), whatever a domain's snapshot dumps. A person reading "name_key: wave\x01002..."
# on a new campaign learns nothing (issue 38 item 10). Sort keys end in "_key" (app/kernel/natural_order.py: name_key,
# person_key; an alert's open_key); the rest are named. Secrets above are not among them: that one changed is news.
SYSTEM_FIELDS = frozenset({"id", "created_at", "updated_at", "version", "sha256", "stored_name", "secret_hash"})
SYSTEM_SUFFIXES = ("_key",)


def is_system_field(field: str) -> bool:
    """A column the system keeps (a sort key, a content hash, a timestamp it sets), never a setting a person set."""
    return field in SYSTEM_FIELDS or field.endswith(SYSTEM_SUFFIXES)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def diff(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """{field: [old, new]} for the fields that changed (secrets reported as changed, never shown)."""
    before, after = before or {}, after or {}
    changes: dict[str, Any] = {}
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if is_system_field(key) or old == new or (_blank(old) and _blank(new)):  # nothing to "nothing" (a new record's empty field)
            continue
        if key in _SECRET_FIELDS:  # a secret shows as set (***) or not set, never its value
            changes[key] = [None if _blank(old) else "***", None if _blank(new) else "***"]
        else:
            changes[key] = [_plain(old), _plain(new)]
    return changes


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def record(
    session: Session,
    *,
    actor: Actor | None,
    entity: str,
    entity_id: Any,
    action: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    version: int | None = None,
) -> AuditEntry:
    """`version`: the version of the record this change made, for a versioned record (app/history/versions.py)."""
    entry = AuditEntry(
        entity=entity,
        entity_id=str(entity_id),
        action=action,
        actor_id=actor.id if actor else None,
        real_user_id=actor.real_user_id if actor else None,
        changes=diff(before, after),
        version=version,
    )
    session.add(entry)
    return entry

