"""Account administration over the API: the same service calls as the user pages, so the same
permission and row-scope checks (an agency reaches its own advertisers only)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Response
from sqlmodel import Session

from app.access.policy import Actor
from app.accounts import directory, user_config, users
from app.accounts.schemas import (
    AccountRow,
    AgencyAssign,
    AgencyAssigned,
    AgencyRow,
    MarginRead,
    MarginUpdate,
    PasswordResetSent,
    UserConfigRead,
    UserConfigUpdate,
    UserCreate,
    UserRead,
    UserUpdate,
)
from app.funds import ledger
from app.funds.schemas import LedgerEntryRead
from app.kernel.paging import Page
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["users"])


@router.get("/users")
def list_users(role: str = Query("", description="ADMIN, CO-ADMIN, AGENCY or ADVERTISER; empty: every role"),
               status: str = Query("", description="active, pending or disabled; empty: every status"),
               paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[Page[AccountRow]]:
    """Accounts you manage (an agency: its advertisers), a page at a time by id, optionally filtered by role and
    status, with the row flags (can_enter, can_edit, ...) the user list shows. `total` is null."""
    return reply(directory.accounts_page(db, actor=actor, role=role, status=status, limit=paging.limit,
                                         cursor=paging.cursor))


@router.post("/users", status_code=201, responses=LOCATION_HEADER)
def add_user(body: UserCreate, response: Response, actor: Actor = Depends(get_actor),
             db: Session = DB) -> Envelope[UserRead]:
    """Create an account (/admin/addUser, /agency/addAdvertiser)."""
    user = users.create_user(db, actor=actor, role=body.role, email=body.email, password=body.password,
                             first_name=body.firstName, last_name=body.lastName, company_name=body.companyName,
                             agency_id=body.agencyId)
    assert user.id is not None
    return created(response, users.get_user(db, actor=actor, user_id=user.id), "User created", f"/users/{user.id}")


@router.get("/users/{user_id}")
def single_user(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[UserRead]:
    """One account you manage: its role, status, agency and details."""
    return reply(users.get_user(db, actor=actor, user_id=user_id))


@router.patch("/users/{user_id}")
@router.put("/users/{user_id}", summary="Update User (fields left out keep their values)")
def update_user(user_id: int, body: UserUpdate, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[UserRead]:
    """Change an account's e-mail, names or company: the fields given; the others keep their values (PUT works
    the same as PATCH)."""
    users.update_user(db, actor=actor, user_id=user_id, email=body.email, first_name=body.firstName,
                      last_name=body.lastName, company_name=body.companyName)
    return reply(users.get_user(db, actor=actor, user_id=user_id), "User updated")


@router.post("/users/{user_id}/password-reset")
def password_reset(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[PasswordResetSent]:
    """E-mail the account a one-time code to choose a new password."""
    return reply(PasswordResetSent(email=users.send_password_reset(db, actor=actor, user_id=user_id)),
                 "Reset code sent")


@router.get("/users/{user_id}/config")
def get_config(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[UserConfigRead]:
    """Admin and co-admin: a user's switches (insight_dashboard, postback_enabled, api_access), margin and
    allowed exchanges."""
    return reply(user_config.get_config(db, actor=actor, user_id=user_id))


@router.patch("/users/{user_id}/config")
@router.put("/users/{user_id}/config", summary="Update Config (fields left out keep their values)")
def update_config(user_id: int, body: UserConfigUpdate, actor: Actor = Depends(get_actor),
                  db: Session = DB) -> Envelope[UserConfigRead]:
    """Admin and co-admin: change the switches, margin and exchanges given; a field left out keeps its value
    (PUT works the same as PATCH). Switching api_access off revokes the user's API keys."""
    user_config.update_config(db, actor=actor, user_id=user_id, **body.model_dump(exclude_unset=True))
    return reply(user_config.get_config(db, actor=actor, user_id=user_id), "Configuration saved")


@router.put("/users/{user_id}/margin")
def set_margin(user_id: int, body: MarginUpdate, actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[MarginRead]:
    """An agency's margin on one of its advertisers."""
    user_config.set_margin(db, actor=actor, user_id=user_id, margin=body.margin)
    return reply(MarginRead(margin=user_config.margin_of(db, actor=actor, user_id=user_id)), "Margin saved")


@router.get("/users/{user_id}/payments")
def payments(user_id: int, paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
             db: Session = DB) -> Envelope[Page[LedgerEntryRead]]:
    """An advertiser's ledger, a page at a time, newest first, with the balance after each entry; `total` counts
    the entries."""
    return reply(ledger.payment_history_page(db, actor=actor, advertiser_id=user_id, limit=paging.limit,
                                             cursor=paging.cursor))


@router.get("/agencies")
def agencies(status: str = Query("", description="active, pending or disabled; empty: every status"),
             paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
             db: Session = DB) -> Envelope[Page[AgencyRow]]:
    """Admin and co-admin: the agencies a page at a time by id, each with its number of advertisers and their
    combined balance. `total` is null."""
    return reply(directory.agencies_page(db, actor=actor, status=status, limit=paging.limit, cursor=paging.cursor))


@router.post("/agencies/assign")
def assign(body: AgencyAssign, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[AgencyAssigned]:
    """Move advertisers to another agency; their data goes with them."""
    moved = users.assign_advertisers(db, actor=actor, advertiser_ids=body.advertiserIds, agency_id=body.agencyId)
    return reply(AgencyAssigned(moved=moved), "Advertisers assigned")
