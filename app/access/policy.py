"""can / require / scoped: the only place that turns roles into decisions.

Row scope: admin sees all; co-admin all but admin accounts' private rows; agency its own account and
its advertisers; advertiser only itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, or_, true
from sqlmodel import Session, col, select

from app.access.models import User
from app.access.permissions import CREDENTIALS_MANAGED, allowed_roles
from app.access.roles import IMPERSONATION_TARGETS, STAFF_ROLES, Role
from app.kernel.errors import Forbidden, Invalid, NotAuthenticated


@dataclass(frozen=True)
class Actor:
    """Who is acting (`user`) and the chain of real users under an impersonation (`stack`, real first)."""

    user: User
    stack: tuple[int, ...]
    session_id: str | None = None
    # Set when the caller is an API key: the key's scope (app/access/key_scopes.py). None: a person signed in
    # (browser session or login token), or the system acting for a user (jobs).
    key_scope: str | None = None

    @property
    def id(self) -> int:
        assert self.user.id is not None
        return self.user.id

    @property
    def role(self) -> Role:
        return Role(self.user.role)

    @property
    def real_user_id(self) -> int:
        return self.stack[0] if self.stack else self.id

    @property
    def impersonating(self) -> bool:
        return len(self.stack) > 1

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF_ROLES

    @property
    def by_key(self) -> bool:
        return self.key_scope is not None


def can(actor: Actor | None, entity: str, action: str) -> bool:
    return actor is not None and actor.role in allowed_roles(entity, action)


def require(actor: Actor | None, entity: str, action: str) -> Actor:
    if actor is None:
        raise NotAuthenticated("Please log in.")
    if not can(actor, entity, action):
        raise Forbidden("You do not have permission to do that.")
    return actor


KEY_CANNOT = ("An API key cannot change sign-in credentials or API keys (e-mail, password, second factor, sign-in "
              "policy). Log in with your password to do this.")
NOT_YOUR_CREDENTIALS = "You cannot manage the sign-in of this account."


def require_signed_in(actor: Actor) -> Actor:
    """Credentials belong to the person, not to a key: refuse an API key (a leaked key must not take the account
    over). Services call it themselves: pages always hold a session, yet a service trusts no caller to check."""
    if actor.by_key:
        raise Forbidden(KEY_CANNOT)
    return actor


def can_manage_credentials(actor: Actor, user: User) -> bool:
    """Whether the actor may change another account's sign-in (its e-mail, a password-reset code, its second factor,
    enabling or disabling it): CREDENTIALS_MANAGED's roles, inside row scope."""
    return Role(user.role) in CREDENTIALS_MANAGED[actor.role] and can_see_user(actor, user)


def require_credentials_of(actor: Actor, user: User) -> User:
    """require_signed_in, then can_manage_credentials (403 naming why; the account was already found in scope)."""
    require_signed_in(actor)
    if not can_manage_credentials(actor, user):
        raise Forbidden(NOT_YOUR_CREDENTIALS)
    return user


def can_see_user(actor: Actor, user: User) -> bool:
    """Row scope over accounts."""
    if actor.role == Role.ADMIN:
        return True
    if actor.role == Role.CO_ADMIN:
        return user.role != Role.ADMIN or user.id == actor.id
    if actor.role == Role.AGENCY:
        return user.id == actor.id or (user.role == Role.ADVERTISER and user.agency_id == actor.id)
    return user.id == actor.id


def user_rows(actor: Actor) -> Any:
    """The SQL condition for the accounts the actor may see: can_see_user's row scope, for a query (a page of the
    user list is cut in SQL)."""
    if actor.role == Role.ADMIN:
        return true()
    if actor.role == Role.CO_ADMIN:
        return or_(col(User.role) != Role.ADMIN, col(User.id) == actor.id)
    if actor.role == Role.AGENCY:
        return or_(col(User.id) == actor.id, and_(col(User.role) == Role.ADVERTISER, col(User.agency_id) == actor.id))
    return col(User.id) == actor.id


def advertiser_rows(actor: Actor, advertiser_column: Any) -> Any:
    """The SQL condition for rows owned by an advertiser (campaigns, creatives) that the actor may see: the
    same row scope as can_see_user, for a query."""
    if actor.role in (Role.ADMIN, Role.CO_ADMIN):
        return True
    if actor.role == Role.AGENCY:
        return col(advertiser_column).in_(select(User.id).where(User.agency_id == actor.id))
    return advertiser_column == actor.id


def require_user_in_scope(actor: Actor, user: User | None) -> User:
    from app.kernel.errors import NotFound

    # Out-of-scope rows answer exactly like missing ones, so ids cannot be probed.
    if user is None or not can_see_user(actor, user):
        raise NotFound("User not found.")
    return user


def advertiser_for_new(db: Session, actor: Actor, advertiser_id: int | None) -> User:
    """The advertiser a new record (a campaign, a creative, a list, an audience) belongs to: an advertiser's own
    account; for staff and agencies the advertiser they name, if in their scope (else Invalid naming the field)."""
    if actor.role == Role.ADVERTISER:
        advertiser_id = actor.id
    advertiser = db.get(User, advertiser_id) if advertiser_id is not None else None
    if advertiser is None or advertiser.role != Role.ADVERTISER or not can_see_user(actor, advertiser):
        raise Invalid({"advertiser_id": "Choose one of your advertisers."})
    return advertiser


def can_impersonate(actor: Actor, target: User) -> bool:
    return Role(target.role) in IMPERSONATION_TARGETS[actor.role] and can_see_user(actor, target)
