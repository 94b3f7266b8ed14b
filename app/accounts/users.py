"""Account administration: create, edit, enable/disable, password resets and moving advertisers
between agencies. Admin and co-admin work on every account in their scope; an agency on its own
advertisers only (policy.require_user_in_scope answers NotFound for anything else)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.access import sessions
from app.access.models import AuthSession, User, UserSettings, UserStatus
from app.access.passwords import hash_password
from app.access.policy import (
    Actor,
    can_manage_credentials,
    require,
    require_credentials_of,
    require_user_in_scope,
)
from app.access.roles import ALL_ROLES, Role
from app.accounts.schemas import AgencyChoice, UserRead
from app.accounts.service import detail_rules, find_user_by_email, issue_code, normalise_email, set_details
from app.history import audit
from app.history import status as status_machine
from app.kernel import validation as v
from app.kernel.db import cpu_heavy
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.kernel.model_base import utcnow
from app.settings import api_credentials

SETTABLE_STATUSES = (UserStatus.ACTIVE, UserStatus.DISABLED)
# The message a session's next page shows when a move ended its impersonation of the moved advertiser.
IMPERSONATION_ENDED_BY_MOVE = "session.impersonation_ended_by_move"
# The fields the edit forms change; the change log shows them by these names.
DETAIL_FIELDS = ("email", "first_name", "last_name", "company_name")


def can_change_status(actor: Actor, user: User) -> bool:
    """Staff and agencies may switch accounts in their scope on or off, never their own or a chain member's, and
    only accounts whose sign-in they manage (a co-admin not another co-admin)."""
    return user.id not in actor.stack and user.status in SETTABLE_STATUSES and can_manage_credentials(actor, user)


def _details(user: User) -> dict[str, Any]:
    return {f: getattr(user, f) for f in DETAIL_FIELDS}


def _check_details(*, role: Role, password: str | None = None, **details: str | None) -> None:
    """Every failing field at once, so the form can mark them all; a detail given as None is not checked."""
    # Agencies and advertisers are businesses: the company name is how lists show them.
    rules = detail_rules(company_required=role in (Role.AGENCY, Role.ADVERTISER))
    v.check({
        **({"password": (v.password, password)} if password is not None else {}),
        **{name: (rules[name], value) for name, value in details.items() if value is not None},
    })


def _email_is_free(db: Session, email: str, *, own_id: int | None = None) -> None:
    other = find_user_by_email(db, email)
    if other is not None and other.id != own_id:
        raise Invalid({"email": "An account with this email already exists."})


def agency_choices(db: Session, *, actor: Actor) -> list[AgencyChoice]:
    """Active agencies an advertiser may be placed under (staff only)."""
    require(actor, "agency", "view")
    rows = db.exec(select(User).where(User.role == Role.AGENCY, User.status == UserStatus.ACTIVE)
                   .order_by(col(User.company_name)))
    return [AgencyChoice(id=u.id, name=u.account_name) for u in rows if u.id is not None]


def _agency_for_new_advertiser(db: Session, actor: Actor, agency_id: int | None) -> int | None:
    if actor.role == Role.AGENCY:
        return actor.id  # an agency's new advertisers are always its own
    if agency_id is None:
        return None  # a direct advertiser, billed by the platform itself
    agency = db.get(User, agency_id)
    if agency is None or agency.role != Role.AGENCY or agency.status != UserStatus.ACTIVE:
        raise Invalid({"agency_id": "Choose an active agency."})
    return agency_id


@cpu_heavy
def create_user(db: Session, *, actor: Actor, role: str, email: str, password: str, first_name: str,
                last_name: str, company_name: str = "", agency_id: int | None = None) -> User:
    """/admin/addUser creates any role; /agency/addAdvertiser creates advertisers under the agency."""
    # A role that may create no one at all is refused before its input is looked at (create_any's roles are a
    # subset of create_advertiser's): a co-admin or an advertiser gets 403, not a lesson in valid roles.
    require(actor, "user", "create_advertiser")
    if role not in ALL_ROLES:
        raise Invalid({"role": "Not an allowed value."})
    new_role = Role(role)
    require(actor, "user", "create_advertiser" if new_role == Role.ADVERTISER else "create_any")
    _check_details(email=email or "", first_name=first_name or "", last_name=last_name or "",
                   company_name=company_name or "", role=new_role, password=password or "")
    _email_is_free(db, email)
    user = User(email=normalise_email(email), password_hash=hash_password(password), role=new_role,
                first_name=first_name.strip(), last_name=last_name.strip(), company_name=(company_name or "").strip(),
                agency_id=_agency_for_new_advertiser(db, actor, agency_id) if new_role == Role.ADVERTISER else None)
    db.add(user)
    db.flush()
    assert user.id is not None
    db.add(UserSettings(user_id=user.id))
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="create",
                 after={**_details(user), "role": user.role, "agency_id": user.agency_id})
    return user


def get_user(db: Session, *, actor: Actor, user_id: int) -> UserRead:
    """One account for the edit pages."""
    require(actor, "user", "view")
    user = require_user_in_scope(actor, db.get(User, user_id))
    assert user.id is not None
    agency = db.get(User, user.agency_id) if user.agency_id else None
    return UserRead(id=user.id, role=Role(user.role), status=user.status, agency_id=user.agency_id,
                    agency=(agency.account_name) if agency else "",
                    created=user.created_at.isoformat(), name=user.display_name, email=user.email,
                    first_name=user.first_name, last_name=user.last_name, company_name=user.company_name,
                    can_manage_sign_in=can_manage_credentials(actor, user))


def update_user(db: Session, *, actor: Actor, user_id: int, email: str | None = None, first_name: str | None = None,
                last_name: str | None = None, company_name: str | None = None) -> User:
    """/admin/editUser, /admin/editAgency and /agency/editAdvertiser. A detail left out (None) keeps its value;
    only the details given are checked."""
    require(actor, "user", "update")
    user = require_user_in_scope(actor, db.get(User, user_id))
    if user.id == actor.id:
        raise Forbidden("Edit your own details on your profile page.")
    given = {name: value for name, value in (("email", email), ("first_name", first_name), ("last_name", last_name),
                                              ("company_name", company_name)) if value is not None}
    _check_details(role=Role(user.role), **given)
    if "email" in given and normalise_email(given["email"]) != user.email:
        require_credentials_of(actor, user)  # the address it signs in with, where its reset codes go
        _email_is_free(db, given["email"], own_id=user.id)
    before = _details(user)
    set_details(user, given)
    if _details(user) == before:
        return user
    user.updated_at = utcnow()
    db.add(user)
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="update", before=before,
                 after=_details(user))
    return user


def set_status(db: Session, *, actor: Actor, user_id: int, status: str) -> User:
    """Enable or disable an account. Disabling ends its sessions at once. Repeating it changes nothing."""
    return USER_STATUS.change(db, actor=actor, record_id=user_id, status=status)


def _switchable(db: Session, actor: Actor, user_id: int) -> User:
    user = require_user_in_scope(actor, db.get(User, user_id))
    if not can_change_status(actor, user):
        raise Forbidden("You cannot change the status of this account.")
    return require_credentials_of(actor, user)  # disabling shuts its owner out: a matter of its sign-in


def _end_sessions(db: Session, user: User, status: str) -> None:
    if status == UserStatus.DISABLED:
        assert user.id is not None
        sessions.revoke_all_for_user(db, user_id=user.id)


# An account's statuses people set: active ⇄ disabled (pending ones wait for their e-mail to be verified).
USER_STATUS = status_machine.declare(status_machine.StatusMachine(
    "user", User, SETTABLE_STATUSES, ("user", "update"), _switchable,
    lambda db, actor, user: get_user(db, actor=actor, user_id=user.id or 0), then=_end_sessions, read=UserRead,
    routes=(status_machine.StatusRoute("/users/{user_id}/status", message="Status changed",
                                       description="Enable or disable an account; disabling ends its sessions "
                                                   "at once."),)))


def send_password_reset(db: Session, *, actor: Actor, user_id: int) -> str:
    """E-mail the account a one-time code for /forgot-password; returns the address it went to."""
    require(actor, "user", "reset_password")
    user = require_user_in_scope(actor, db.get(User, user_id))
    if user.id in actor.stack:
        raise Forbidden("Change your own password on your profile page.")
    require_credentials_of(actor, user)
    if user.status != UserStatus.ACTIVE:
        raise Forbidden("Only active accounts can reset their password.")
    issue_code(db, user=user, purpose="reset")
    audit.record(db, actor=actor, entity="user", entity_id=user.id, action="send_password_reset")
    return user.email


def _drop_broken_impersonations(db: Session, *, advertiser_id: int, new_agency_id: int | None) -> None:
    """Sessions in which the old agency acts as a moved advertiser fall back to the agency itself."""
    for row in db.exec(select(AuthSession).where(AuthSession.revoked_at == None)):  # noqa: E711
        stack = list(row.stack or [])
        if advertiser_id not in stack[1:]:
            continue
        depth = stack.index(advertiser_id)
        parent = db.get(User, stack[depth - 1])
        if parent is not None and parent.role == Role.AGENCY and parent.id != new_agency_id:
            row.stack = stack[:depth]
            row.notice = IMPERSONATION_ENDED_BY_MOVE  # its open tabs come back as the agency, and say why
            db.add(row)


def assign_advertisers(db: Session, *, actor: Actor, advertiser_ids: list[int], agency_id: int | None) -> int:
    """Move advertisers to another agency (None: direct). Their campaigns, funds and lists are keyed by
    the advertiser, so they go with it; the old agency's margin does not. Returns how many moved."""
    require(actor, "agency", "update")
    if not advertiser_ids:
        raise Invalid({"advertiser_ids": "Choose at least one advertiser."})
    if agency_id is not None:
        agency = db.get(User, agency_id)
        if agency is None or agency.role != Role.AGENCY or agency.status != UserStatus.ACTIVE:
            raise Invalid({"agency_id": "Choose an active agency."})
    moved = 0
    for advertiser_id in dict.fromkeys(advertiser_ids):
        user = db.get(User, advertiser_id)
        if user is None or user.role != Role.ADVERTISER:
            raise NotFound("User not found.")
        require_user_in_scope(actor, user)
        if user.agency_id == agency_id:
            continue
        before = {"agency_id": user.agency_id}
        user.agency_id = agency_id
        user.updated_at = utcnow()
        db.add(user)
        settings = db.get(UserSettings, advertiser_id)
        if settings is not None and settings.margin_bps:
            before["margin_bps"] = settings.margin_bps
            settings.margin_bps = 0
            db.add(settings)
        _drop_broken_impersonations(db, advertiser_id=advertiser_id, new_agency_id=agency_id)
        api_credentials.end_keys_beyond_their_makers(db, actor=actor, user=user)  # the old agency's keys for it
        audit.record(db, actor=actor, entity="user", entity_id=advertiser_id, action="assign_agency",
                     before=before, after={"agency_id": agency_id, **({"margin_bps": 0} if "margin_bps" in before else {})})
        for side, agency_side in (("from", before["agency_id"]), ("to", agency_id)):
            if agency_side is not None:
                audit.record(db, actor=actor, entity="user", entity_id=agency_side, action=f"advertiser_moved_{side}",
                             after={"advertiser_id": advertiser_id})
        moved += 1
    return moved
