"""The account lists' grids a page at a time (/admin/users, /agency/advertiser, /admin/agencies and co-admin's):
the row scope, the role and status filters, the search and the sort are SQL, the total is a COUNT, and only the
page's accounts are read and made into rows (their balances, margins and agencies looked up for the page alone),
as the campaign list's grid does (campaigns.list_campaigns_page). Pages count from 1 (LIMIT/OFFSET: the grid's
pager jumps to a page; the API's lists page by keyset, directory.accounts_page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import case
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, func, select

from app.access.models import User, UserSettings
from app.access.policy import Actor, require
from app.access.roles import ALL_ROLES, Role
from app.accounts import directory
from app.accounts.schemas import AccountRow, AgencyRow, RowT
from app.funds.models import LedgerEntry
from app.kernel.grid_search import every_word
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered

_Agency = aliased(User)  # an advertiser's agency: the agency column, its search and its sort
_Owned = aliased(User)  # an agency's advertisers: the agencies list's count and balance
_OWNS = (_Owned.agency_id == User.id, _Owned.role == Role.ADVERTISER)  # which accounts are an agency's advertisers
_LEDGER_SUM = select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0))


def _advertisers_only(value: Any) -> Any:
    """A figure only advertisers have (the others show none): NULL elsewhere, so it sorts last either way."""
    return case((col(User.role) == Role.ADVERTISER, value), else_=None)


# The sortable columns: column key -> the SQL value its order follows (ties by id, the same way).
_SORT_KEYS: dict[str, Any] = {
    "id": None,
    # Names in the order people read them ("User 2" before "User 10"), as the grid's collator had them: the stored
    # natural-order keys (app/kernel/natural_order.py) of the Name column (person_key) and of the company (name_key).
    "name": User.person_key,
    "email": User.email,
    # name_key is the company's, else the person's name: an account without a company sorts last.
    "company": case((col(User.company_name) == "", None), else_=User.name_key),
    "role": case({role.value: index for index, role in enumerate(ALL_ROLES)}, value=User.role),
    "agency": _Agency.name_key,  # an agency shows its company (directory._company), which is its name_key
    "status": User.status,
    "balance": _advertisers_only(_LEDGER_SUM.where(LedgerEntry.advertiser_id == User.id).scalar_subquery()),
    "margin": _advertisers_only(select(UserSettings.margin_bps).where(UserSettings.user_id == User.id)
                                .scalar_subquery()),
    "created": User.created_at,
}
# On the agencies list the balance is its advertisers' combined one, and it counts them.
_AGENCY_SORT_KEYS: dict[str, Any] = {
    **_SORT_KEYS,
    # A join, not IN (subquery): a subquery two levels down would not correlate with the listed agency.
    "balance": _LEDGER_SUM.join(_Owned, col(_Owned.id) == LedgerEntry.advertiser_id).where(*_OWNS).scalar_subquery(),
    "advertisers": select(func.count()).select_from(_Owned).where(*_OWNS).scalar_subquery(),
}
SORT_COLUMNS, AGENCY_SORT_COLUMNS = tuple(_SORT_KEYS), tuple(_AGENCY_SORT_KEYS)
# What the search box looks in: every word must occur in one of these (as the campaign list's search reads).
_SEARCHED = (User.first_name + " " + User.last_name, User.email, User.company_name, _Agency.company_name,
             _Agency.email)


def accounts_list_page(db: Session, *, actor: Actor, role: str = "", status: str = "", search: str = "",
                       sort: str = "", page: int = 1, page_size: int = 50, agency_id: int | None = None,
                       without_agency: bool = False) -> NumberedPage[AccountRow]:
    """One page of the user list (an agency: its advertisers) and how many accounts its filters match; `agency_id`:
    one agency's accounts only, `without_agency`: only those of no agency (the assignment page's source filter)."""
    return _page(db, actor, role=role, status=status, search=search, sort=sort, page=page, page_size=page_size,
                 sort_keys=_SORT_KEYS, rows=directory.account_rows, agency_id=agency_id,
                 without_agency=without_agency)


def agencies_list_page(db: Session, *, actor: Actor, status: str = "", search: str = "", sort: str = "",
                       page: int = 1, page_size: int = 50) -> NumberedPage[AgencyRow]:
    """One page of the agencies list, each with its advertisers' count and combined balance."""
    require(actor, "agency", "view")
    return _page(db, actor, role=Role.AGENCY, status=status, search=search, sort=sort, page=page,
                 page_size=page_size, sort_keys=_AGENCY_SORT_KEYS, rows=directory.agency_rows)


def _page(db: Session, actor: Actor, *, role: str, status: str, search: str, sort: str, page: int, page_size: int,
          sort_keys: dict[str, Any], rows: Callable[[Session, Actor, list[User]], list[RowT]],
          agency_id: int | None = None, without_agency: bool = False) -> NumberedPage[RowT]:
    check_page(page, page_size, things="accounts")
    order = column_order(sort, sort_keys, col(User.id), default="id")  # by id: the order accounts were made in
    # The scope, the role, status and agency filters (each checked there) as the whole list applies them.
    query = directory.visible_users_query(actor, role=role, status=status, agency_id=agency_id)
    if without_agency:
        query = query.where(col(User.agency_id).is_(None))
    query = query.outerjoin(_Agency, _Agency.id == User.agency_id)
    query = query.where(*every_word(search, *_SEARCHED))
    users, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[RowT](rows=rows(db, actor, list(users)), total=total, page=page, page_size=page_size)
