"""What account administration takes and answers (app/accounts/users.py, directory.py, user_config.py), and so
what the API's users/* and agencies/* calls send and receive. Request bodies keep the spec's camelCase names;
replies use the services' snake_case, as they always have. Times are ISO-8601 UTC; money is dollars as text
("5000.00")."""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, Field

from app.access.roles import Role
from app.kernel.schema_examples import example


class UserCreate(BaseModel):
    model_config = example({
        "role": "ADVERTISER", "email": "buyer@example.com", "password": "s3cret-Pass", "firstName": "Ada",
        "lastName": "Lovelace", "companyName": "Acme Apps", "agencyId": None})

    role: str = Field(description="ADMIN, CO-ADMIN, AGENCY or ADVERTISER (agencies may create ADVERTISER only)")
    email: str
    password: str
    firstName: str
    lastName: str
    companyName: str = ""
    agencyId: int | None = Field(None, description="For advertisers created by staff; null: a direct advertiser")


class UserUpdate(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    model_config = example({"email": "ada@example.com", "companyName": "Acme Apps Ltd"})

    email: str | None = None
    firstName: str | None = None
    lastName: str | None = None
    companyName: str | None = None


class UserConfigUpdate(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    model_config = example({
        "insight_dashboard": True, "postback_enabled": True, "api_access": True, "margin": "8"})

    insight_dashboard: bool | None = None
    postback_enabled: bool | Literal["ENABLED", "DISABLED"] | None = Field(
        None, description="A boolean (ENABLED and DISABLED are understood too)")
    api_access: bool | None = None
    margin: str | None = Field(None, description="Agency margin in percent, 0 to 90, at most two decimals")
    allowed_exchanges: list[int] | None = Field(None, description="Exchange ids; empty: every exchange")


class MarginUpdate(BaseModel):
    model_config = example({"margin": "8"})

    margin: str = Field(description="Agency margin in percent, 0 to 90, at most two decimals")


class AgencyAssign(BaseModel):
    model_config = example({"advertiserIds": [12, 13], "agencyId": 4})

    advertiserIds: list[int]
    agencyId: int | None = Field(None, description="The agency to move them to; null: direct advertisers")


class UserRead(BaseModel):
    """One account, as its edit pages show it."""

    model_config = example({
        "id": 12, "role": "ADVERTISER", "status": "active", "agency_id": None, "agency": "",
        "created": "2026-11-26T09:30:00+00:00", "name": "Ada Lovelace", "email": "buyer@example.com",
        "first_name": "Ada", "last_name": "Lovelace", "company_name": "Acme Apps", "can_manage_sign_in": True})

    id: int
    role: Role
    status: str = Field(description="active, pending (e-mail not verified yet) or disabled")
    agency_id: int | None = Field(description="An advertiser's agency; null for direct advertisers and other roles")
    agency: str = Field(description="That agency's company name (its e-mail when it has none); empty without one")
    created: str
    name: str = Field(description="First and last name (the e-mail when both are empty)")
    email: str
    first_name: str
    last_name: str
    company_name: str
    can_manage_sign_in: bool = Field(description="The caller may change its e-mail, send it a "
                                     "password-reset code, reset its second factor and disable it (app/access/"
                                     "permissions.py CREDENTIALS_MANAGED: a co-admin not another co-admin's)")


class AccountRow(BaseModel):
    """An account as the user lists show it, with what the caller may do to it (the row's buttons)."""

    id: int
    name: str
    email: str
    company: str
    role: Role
    agency: str = Field(description="The advertiser's agency by name; empty without one")
    agency_id: int | None
    status: str = Field(description="active, pending or disabled")
    balance: str | None = Field(description="An advertiser's balance in dollars (\"5000.00\"); null for other roles")
    margin: str = Field(description="An advertiser's agency margin as shown, \"12.5 %\"; empty for other roles")
    created: str
    can_enter: bool = Field(description="The caller may log in as this account")
    can_edit: bool
    can_configure: bool
    can_reset: bool = Field(description="The caller may send it a password-reset code")
    can_disable: bool
    can_enable: bool
    can_reset_second_factor: bool = Field(default=False, description="The account signs in with a second factor "
                                          "(or is setting one up) and the caller may reset it")
    has_payments: bool = Field(description="An advertiser: it has a payment list")


class AgencyRow(AccountRow):
    """An agency as /admin/agencies lists it: `balance` is its advertisers' combined balance."""

    advertisers: int = Field(description="How many advertisers it has")
    balance: str = Field(description="Its advertisers' combined balance in dollars (\"5000.00\")")


RowT = TypeVar("RowT", bound=AccountRow)


class AgencyChoice(BaseModel):
    """An active agency an advertiser may be placed under."""

    id: int
    name: str


class ExchangeOption(BaseModel):
    id: int
    name: str
    retired: bool = Field(description="No longer offered: it may be unticked, not added")


class UserConfigRead(BaseModel):
    """A user's switches, margin and allowed exchanges (/admin/user-config/{id})."""

    id: int
    name: str
    email: str
    role: Role
    agency_id: int | None
    insight_dashboard: bool
    postback_enabled: bool
    api_access: bool
    margin: str = Field(description="Agency margin in percent, as a person would type it (\"12.5\")")
    allowed_exchanges: list[int] = Field(description="Exchange ids; empty: every exchange")
    exchange_options: list[ExchangeOption] = Field(
        description="Active exchanges, plus retired ones the user still has")


class MarginRead(BaseModel):
    margin: str = Field(description="Agency margin in percent, as a person would type it (\"12.5\")")


class PasswordResetSent(BaseModel):
    email: str = Field(description="Where the code went")


class AgencyAssigned(BaseModel):
    moved: int = Field(description="How many advertisers changed agency (those already there are not counted)")


class TransactionRead(BaseModel):
    """One of an advertiser's latest ledger entries."""

    id: int
    date: str
    kind: str
    note: str
    amount: str = Field(description="Dollars as text, negative for money taken (\"-12.35\")")
