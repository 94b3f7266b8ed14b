"""Account administration: enabling and disabling users (more of it comes with the user pages)."""

from __future__ import annotations

from sqlmodel import Session

from app.auth.policy import Actor, require, require_user_in_scope
from app.errors import Forbidden, Invalid
from app.models.base import utcnow
from app.models.user import User, UserStatus
from app.services import audit, sessions

SETTABLE_STATUSES = (UserStatus.ACTIVE, UserStatus.DISABLED)


def can_change_status(actor: Actor, user: User) -> bool:
    """Staff and agencies may switch accounts in their scope on or off, never their own or a chain member's."""
    return user.id not in actor.stack and user.status in SETTABLE_STATUSES


def set_status(db: Session, *, actor: Actor, user_id: int, status: str) -> User:
    """Enable or disable an account. Disabling ends its sessions at once. Repeating it changes nothing."""
    require(actor, "user", "update")
    user = require_user_in_scope(actor, db.get(User, user_id))
    if status not in SETTABLE_STATUSES:
        raise Invalid({"status": "Not an allowed value."})
    if not can_change_status(actor, user):
        raise Forbidden("You cannot change the status of this account.")
    if user.status == status:
        return user
    before = {"status": user.status}
    user.status = status
    user.updated_at = utcnow()
    db.add(user)
    if status == UserStatus.DISABLED:
        assert user.id is not None
        sessions.revoke_all_for_user(db, user_id=user.id)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action=f"set_status_{status}",
                 before=before, after={"status": status})
    return user
