"""Accounts as a signed-in user may list them (row scope applied): the user lists, the agencies list
and the dashboards' account tables. Each row says which row actions the actor may take on it."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, func, select

from app.access.models import SecondFactor, User, UserSettings, UserStatus
from app.access.policy import (
    Actor,
    can,
    can_impersonate,
    can_manage_credentials,
    can_see_user,
    require,
    user_rows,
)
from app.access.roles import Role
from app.accounts.schemas import AccountRow, AgencyRow
from app.accounts.user_config import margin_text
from app.accounts.users import can_change_status
from app.funds.models import LedgerEntry
from app.kernel.choices import filter_choice
from app.kernel.money import dollars
from app.kernel.paging import DEFAULT_LIMIT, Page, check_limit, decode_cursor, next_cursor


def _balances(db: Session, advertiser_ids: list[int]) -> dict[int | None, int]:
    """Each advertiser's balance in micros."""
    rows = db.exec(select(LedgerEntry.advertiser_id, func.sum(LedgerEntry.amount_micros))
                   .where(col(LedgerEntry.advertiser_id).in_(advertiser_ids)).group_by(col(LedgerEntry.advertiser_id)))
    return {advertiser_id: int(total) for advertiser_id, total in rows}


def _company(user: User | None) -> str:
    return (user.account_name) if user else ""


def visible_users_query(actor: Actor, *, role: str, status: str, agency_id: int | None) -> Any:
    """The users the actor may see (an agency: its advertisers), filtered, by id, as a query: the scope is applied
    in SQL (user_rows), so a page reads only its own rows."""
    require(actor, "user", "view")
    filter_choice("role", role, tuple(Role))
    filter_choice("status", status, UserStatus.ALL)
    statement = select(User).where(user_rows(actor), col(User.id) != actor.id).order_by(col(User.id))
    if actor.role == Role.AGENCY:
        statement = statement.where(User.agency_id == actor.id, User.role == Role.ADVERTISER)
    if role:
        statement = statement.where(User.role == role)
    if status:
        statement = statement.where(User.status == status)
    if agency_id is not None:
        statement = statement.where(User.agency_id == agency_id)
    return statement


def _visible_users(db: Session, actor: Actor, *, role: str, status: str, agency_id: int | None,
                   after_id: int | None = None, limit: int | None = None) -> list[User]:
    """visible_users_query's users from `after_id` on, at most `limit`; can_see_user checks each row again."""
    statement = visible_users_query(actor, role=role, status=status, agency_id=agency_id)
    if after_id is not None:
        statement = statement.where(col(User.id) > after_id)
    if limit is not None:
        statement = statement.limit(limit)
    return [u for u in db.exec(statement) if can_see_user(actor, u)]


def accounts_overview(db: Session, *, actor: Actor, role: str = "", status: str = "",
                      agency_id: int | None = None) -> list[AccountRow]:
    """Users the actor may see (an agency: its advertisers), optionally filtered, with advertisers' balances."""
    return account_rows(db, actor, _visible_users(db, actor, role=role, status=status, agency_id=agency_id))


def accounts_page(db: Session, *, actor: Actor, role: str = "", status: str = "", limit: int = DEFAULT_LIMIT,
                  cursor: str | None = None) -> Page[AccountRow]:
    """The API's user list a page at a time, by id (keyset, app/kernel/paging.py); `total` is left out."""
    check_limit(limit)
    scope = {"list": "users", "role": role, "status": status}
    after = decode_cursor(cursor, scope)
    users = _visible_users(db, actor, role=role, status=status, agency_id=None,
                           after_id=after.id if after else None, limit=limit + 1)
    return Page[AccountRow](items=account_rows(db, actor, users[:limit]), total=None, limit=limit,
                            next_cursor=next_cursor(users, limit, scope, lambda u: (None, u.id)))


def account_rows(db: Session, actor: Actor, users: list[User]) -> list[AccountRow]:
    """The users as the lists show them, with the row actions the actor may take: the advertisers' balances,
    margins and agencies are read for these users only."""
    advertiser_ids = [u.id for u in users if u.role == Role.ADVERTISER and u.id is not None]
    balances = _balances(db, advertiser_ids)
    margins: dict[int | None, int] = {s.user_id: s.margin_bps for s in db.exec(select(UserSettings).where(
        col(UserSettings.user_id).in_(advertiser_ids)))}
    agency_ids = {u.agency_id for u in users if u.agency_id}
    agencies = {a.id: a for a in db.exec(select(User).where(col(User.id).in_(agency_ids)))} if agency_ids else {}
    may_update, may_configure = can(actor, "user", "update"), can(actor, "user", "config")
    may_reset = can(actor, "user", "reset_password")
    may_reset_factor = can(actor, "user", "reset_second_factor")
    with_factor = set(db.exec(select(SecondFactor.user_id).where(
        col(SecondFactor.user_id).in_([u.id for u in users])))) if may_reset_factor else set()
    rows = []
    for u in users:
        assert u.id is not None
        advertiser = u.role == Role.ADVERTISER
        changeable = may_update and can_change_status(actor, u)
        sign_in = u.id not in actor.stack and can_manage_credentials(actor, u)
        rows.append(AccountRow(
            id=u.id, name=u.display_name, email=u.email, company=u.company_name, role=Role(u.role),
            agency=_company(agencies.get(u.agency_id)) if u.agency_id else "", agency_id=u.agency_id,
            status=u.status, balance=dollars(balances.get(u.id, 0)) if advertiser else None,
            margin=f"{margin_text(margins.get(u.id, 0))} %" if advertiser else "",
            created=u.created_at.isoformat(),
            can_enter=u.status == UserStatus.ACTIVE and can_impersonate(actor, u),
            can_edit=may_update and u.id not in actor.stack,
            can_configure=may_configure,
            can_reset=may_reset and u.status == UserStatus.ACTIVE and sign_in,
            can_disable=changeable and u.status == UserStatus.ACTIVE,
            can_enable=changeable and u.status == UserStatus.DISABLED,
            can_reset_second_factor=u.id in with_factor and sign_in,
            has_payments=advertiser,
        ))
    return rows


def agencies_overview(db: Session, *, actor: Actor, status: str = "") -> list[AgencyRow]:
    """/admin/agencies: every agency with its advertisers' count and combined balance."""
    require(actor, "agency", "view")
    return agency_rows(db, actor, _visible_users(db, actor, role=Role.AGENCY, status=status, agency_id=None))


def agencies_page(db: Session, *, actor: Actor, status: str = "", limit: int = DEFAULT_LIMIT,
                  cursor: str | None = None) -> Page[AgencyRow]:
    """The API's agency list a page at a time, by id, as accounts_page (`total` left out for the same reason);
    the advertisers' counts and balances are summed for the page's agencies only."""
    require(actor, "agency", "view")
    check_limit(limit)
    scope = {"list": "agencies", "status": status}
    after = decode_cursor(cursor, scope)
    agencies = _visible_users(db, actor, role=Role.AGENCY, status=status, agency_id=None,
                              after_id=after.id if after else None)[:limit + 1]
    return Page[AgencyRow](items=agency_rows(db, actor, agencies[:limit]), total=None, limit=limit,
                           next_cursor=next_cursor(agencies, limit, scope, lambda u: (None, u.id)))


def agency_rows(db: Session, actor: Actor, users: list[User]) -> list[AgencyRow]:
    """Agencies as the agency list shows them: with their advertisers' count and combined balance."""
    agencies = account_rows(db, actor, users)
    ids = [a.id for a in agencies]
    advertisers = db.exec(select(col(User.id), User.agency_id).where(col(User.agency_id).in_(ids),
                                                                     User.role == Role.ADVERTISER)).all()
    balances = _balances(db, [advertiser_id for advertiser_id, _ in advertisers if advertiser_id])
    counts: dict[int | None, int] = {}
    totals: dict[int | None, int] = {}
    for advertiser_id, owner in advertisers:
        counts[owner] = counts.get(owner, 0) + 1
        totals[owner] = totals.get(owner, 0) + balances.get(advertiser_id, 0)
    return [AgencyRow(**a.model_dump(exclude={"balance"}), advertisers=counts.get(a.id, 0),
                      balance=dollars(totals.get(a.id, 0))) for a in agencies]
