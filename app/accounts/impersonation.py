"""Entering another account and coming back: the impersonation stack of a session (app/access/sessions.py keeps
the stack; this module moves along it, with the policy's can_impersonate and an audit entry for each entry)."""

from __future__ import annotations

from sqlmodel import Session

from app.access.models import User, UserStatus
from app.access.policy import Actor, can_impersonate
from app.access.roles import BACK_DESTINATION, ROLE_HOME, Role
from app.access.sessions import find_by_id
from app.history import audit
from app.kernel.errors import Forbidden, NotAuthenticated, NotFound


def impersonate(db: Session, *, actor: Actor, target_id: int) -> str:
    """Act as `target` inside the actor's session; returns the path to open next."""
    target = db.get(User, target_id)
    if target is None or not can_impersonate(actor, target):
        raise NotFound("User not found.")
    if target.status != UserStatus.ACTIVE:
        raise Forbidden("This account is disabled and cannot be entered.")
    row = find_by_id(db, session_id=actor.session_id)
    if row is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    row.stack = [*row.stack, target_id]
    db.add(row)
    audit.record(db, actor=actor, entity="user", entity_id=target_id, action="impersonate")
    return ROLE_HOME[Role(target.role)]


def back(db: Session, *, actor: Actor, to_role: Role) -> str:
    """Return to the nearest user of `to_role` in the chain, dropping every session above it."""
    row = find_by_id(db, session_id=actor.session_id)
    if row is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    for depth in range(len(row.stack) - 2, -1, -1):
        user = db.get(User, row.stack[depth])
        if user is not None and user.role == to_role:
            row.stack = row.stack[: depth + 1]
            db.add(row)
            return BACK_DESTINATION[to_role]
    raise Forbidden("There is no such account to go back to.")


def back_targets(db: Session, *, actor: Actor) -> list[Role]:
    """Roles the Back buttons offer: each distinct role under the acting user, nearest first."""
    roles: list[Role] = []
    for user_id in reversed(actor.stack[:-1]):
        user = db.get(User, user_id)
        if user is not None and Role(user.role) in BACK_DESTINATION and Role(user.role) not in roles:
            roles.append(Role(user.role))
    return roles
