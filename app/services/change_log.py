"""Change logs: the audit rows of one record, with who made each change (and who was really
behind it when acting as another user). Every entity's change-log page reads through here."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.auth.policy import Actor, can_see_user, require, require_user_in_scope
from app.models.audit import AuditEntry
from app.models.user import User
from app.services import audit


def entries(db: Session, *, entity: str, entity_id: Any, limit: int = 500) -> list[dict[str, Any]]:
    """Newest first. Callers check permission and scope before calling."""
    return shown(db, audit.history(db, entity=entity, entity_id=entity_id, limit=limit))


def shown(db: Session, rows: list[AuditEntry]) -> list[dict[str, Any]]:
    """Audit rows as change-log entries: when, what, who (and who was really behind it), field changes."""
    people = {u.id: u for u in db.exec(select(User).where(
        col(User.id).in_({r.actor_id for r in rows} | {r.real_user_id for r in rows})))}

    def who(user_id: int | None) -> str:
        user = people.get(user_id) if user_id else None
        return f"{user.display_name} ({user.email})" if user else ""

    return [{"id": r.id, "date": r.created_at.isoformat(), "action": r.action, "actor": who(r.actor_id) or "—",
             "entity_id": r.entity_id, "actor_id": r.actor_id,
             "on_behalf": who(r.real_user_id) if r.real_user_id and r.real_user_id != r.actor_id else "",
             "changes": [{"field": field, "old": old, "new": new} for field, (old, new) in r.changes.items()]}
            for r in rows]


def user_change_log(db: Session, *, actor: Actor, user_id: int) -> list[dict[str, Any]]:
    """/admin/user/change-log/{id} and /agency/changeLog/{id}."""
    require(actor, "user", "view")
    require_user_in_scope(actor, db.get(User, user_id))
    return _name_agencies(db, actor, entries(db, entity="user", entity_id=user_id))


def _name_agencies(db: Session, actor: Actor, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """agency_id values as the agency's name, for the agencies the actor may see; others keep their bare id,
    so an agency reading a moved advertiser's log learns no other agency's name."""
    ids = {v for r in rows for c in r["changes"] if c["field"] == "agency_id" for v in (c["old"], c["new"]) if v}
    if not ids:
        return rows
    names = {u.id: u.company_name or u.display_name
             for u in db.exec(select(User).where(col(User.id).in_(ids))) if can_see_user(actor, u)}
    for row in rows:
        for change in row["changes"]:
            if change["field"] == "agency_id":
                change["old"], change["new"] = (names.get(v, f"#{v}") if v else v for v in (change["old"], change["new"]))
    return rows
