"""Account administration over the API: the same service calls as the user pages, so the same
permission and row-scope checks (an agency reaches its own advertisers only)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.accounts import directory, user_config, users
from app.funds import ledger
from app.web.deps import DB, get_actor
from app.web.envelope import ok

router = APIRouter(tags=["users"])


class NewUserBody(BaseModel):
    role: str = Field(description="ADMIN, CO-ADMIN, AGENCY or ADVERTISER (agencies may create ADVERTISER only)")
    email: str
    password: str
    firstName: str
    lastName: str
    companyName: str = ""
    agencyId: int | None = Field(None, description="For advertisers created by staff; null: a direct advertiser")


class UserDetailsBody(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    email: str | None = None
    firstName: str | None = None
    lastName: str | None = None
    companyName: str | None = None


class ConfigBody(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    insight_dashboard: bool | None = None
    postback_enabled: bool | Literal["ENABLED", "DISABLED"] | None = Field(
        None, description="A boolean (ENABLED and DISABLED are understood too)")
    api_access: bool | None = None
    margin: str | None = Field(None, description="Agency margin in percent, 0 to 90, at most two decimals")
    allowed_exchanges: list[int] | None = Field(None, description="Exchange ids; empty: every exchange")


class MarginBody(BaseModel):
    margin: str


class AssignBody(BaseModel):
    advertiserIds: list[int]
    agencyId: int | None = Field(None, description="The agency to move them to; null: direct advertisers")


@router.get("/users")
def list_users(role: str = "", status: str = "", actor: Actor = Depends(get_actor),
               db: Session = DB) -> dict[str, Any]:
    """Accounts you manage (an agency: its advertisers), optionally filtered by role and status."""
    return ok(directory.accounts_overview(db, actor=actor, role=role, status=status))


@router.post("/users")
def add_user(body: NewUserBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Create an account (/admin/addUser, /agency/addAdvertiser)."""
    user = users.create_user(db, actor=actor, role=body.role, email=body.email, password=body.password,
                             first_name=body.firstName, last_name=body.lastName, company_name=body.companyName,
                             agency_id=body.agencyId)
    assert user.id is not None
    return ok(users.get_user(db, actor=actor, user_id=user.id), "User created")


@router.get("/users/{user_id}")
def single_user(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """One account you manage, with the row flags (can_enter, can_edit, ...) the user list shows."""
    return ok(users.get_user(db, actor=actor, user_id=user_id))


@router.patch("/users/{user_id}")
@router.put("/users/{user_id}", summary="Update User (fields left out keep their values)")
def update_user(user_id: int, body: UserDetailsBody, actor: Actor = Depends(get_actor),
                db: Session = DB) -> dict[str, Any]:
    """Change an account's e-mail, names or company: the fields given; the others keep their values (PUT works
    the same as PATCH)."""
    users.update_user(db, actor=actor, user_id=user_id, email=body.email, first_name=body.firstName,
                      last_name=body.lastName, company_name=body.companyName)
    return ok(users.get_user(db, actor=actor, user_id=user_id), "User updated")


@router.post("/users/{user_id}/password-reset")
def password_reset(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """E-mail the account a one-time code to choose a new password."""
    return ok({"email": users.send_password_reset(db, actor=actor, user_id=user_id)}, "Reset code sent")


@router.get("/users/{user_id}/config")
def get_config(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Admin and co-admin: a user's switches (insight_dashboard, postback_enabled, api_access), margin and
    allowed exchanges."""
    return ok(user_config.get_config(db, actor=actor, user_id=user_id))


@router.patch("/users/{user_id}/config")
@router.put("/users/{user_id}/config", summary="Update Config (fields left out keep their values)")
def update_config(user_id: int, body: ConfigBody, actor: Actor = Depends(get_actor),
                  db: Session = DB) -> dict[str, Any]:
    """Admin and co-admin: change the switches, margin and exchanges given; a field left out keeps its value
    (PUT works the same as PATCH). Switching api_access off revokes the user's API keys."""
    user_config.update_config(db, actor=actor, user_id=user_id, **body.model_dump(exclude_unset=True))
    return ok(user_config.get_config(db, actor=actor, user_id=user_id), "Configuration saved")


@router.put("/users/{user_id}/margin")
def set_margin(user_id: int, body: MarginBody, actor: Actor = Depends(get_actor),
               db: Session = DB) -> dict[str, Any]:
    """An agency's margin on one of its advertisers."""
    user_config.set_margin(db, actor=actor, user_id=user_id, margin=body.margin)
    return ok({"margin": user_config.margin_of(db, actor=actor, user_id=user_id)}, "Margin saved")


@router.get("/users/{user_id}/payments")
def payments(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """An advertiser's ledger, newest first, with the balance after each entry."""
    return ok(ledger.payment_history(db, actor=actor, advertiser_id=user_id))


@router.get("/agencies")
def agencies(status: str = "", actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Admin and co-admin: every agency with its number of advertisers and their combined balance."""
    return ok(directory.agencies_overview(db, actor=actor, status=status))


@router.post("/agencies/assign")
def assign(body: AssignBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Move advertisers to another agency; their data goes with them."""
    moved = users.assign_advertisers(db, actor=actor, advertiser_ids=body.advertiserIds, agency_id=body.agencyId)
    return ok({"moved": moved}, "Advertisers assigned")
