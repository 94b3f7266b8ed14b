"""What the auth/* calls take and answer (spec section 7): the spec's camelCase names, kept as the API sends
them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.access.roles import Role
from app.kernel.schema_examples import example


class LoginBody(BaseModel):
    model_config = example({"email": "advertiser@example.com", "password": "s3cret-Pass"})

    email: str
    password: str


class RegisterBody(BaseModel):
    model_config = example({
        "email": "new@example.com", "password": "s3cret-Pass", "firstName": "Ada", "lastName": "Lovelace",
        "companyName": "Acme Apps"})

    email: str
    password: str
    firstName: str
    lastName: str
    companyName: str


class EmailBody(BaseModel):
    model_config = example({"email": "new@example.com"})

    email: str
    purpose: str = "verify"


class VerifyBody(BaseModel):
    model_config = example({"email": "new@example.com", "otp": "123456"})

    email: str
    otp: str


class ResetBody(BaseModel):
    model_config = example({"email": "new@example.com", "otp": "123456", "newPassword": "n3w-Secret-Pass"})

    email: str
    otp: str
    newPassword: str


class ChangePasswordBody(BaseModel):
    model_config = example({"currentPassword": "s3cret-Pass", "newPassword": "n3w-Secret-Pass"})

    currentPassword: str
    newPassword: str


class ProfileUpdate(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    model_config = example({"firstName": "Ada", "companyName": "Acme Apps Ltd"})

    email: str | None = None
    firstName: str | None = None
    lastName: str | None = None
    companyName: str | None = None


class TicketBody(BaseModel):
    ticket: str


class SessionTimesRead(BaseModel):
    issuedAt: int = Field(description="When the session began (or was last renewed), ms since the epoch")
    expiresAt: int = Field(description="When it ends unless renewed, ms since the epoch")


class TokenUser(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id_: int = Field(alias="_id", description="The user's id (also as user_primary_id)")
    user_primary_id: int
    role: Role
    email: str
    firstName: str
    lastName: str
    companyName: str


class TokenRead(BaseModel):
    """A bearer token and who it belongs to (the session's times last, as the spec's reply has them)."""

    token: str
    expires_in: int = Field(description="Seconds until the token expires")
    user: TokenUser
    issuedAt: int = Field(description="When the session began (or was last renewed), ms since the epoch")
    expiresAt: int = Field(description="When it ends unless renewed, ms since the epoch")


class RegisteredRead(BaseModel):
    email: str


class AgencyMeta(BaseModel):
    title: str


class AgencyCompany(BaseModel):
    name: str
    logoSrc: str
    favicon: str
    agency_primary_id: int | None
    help_and_support: bool
    help_and_support_link: str


class AgencyTheme(BaseModel):
    primaryColor: str
    hoverColor: str
    textAgencyColor: str
    cardBackgroundColor: str
    navbarColor: str


class AgencyFooter(BaseModel):
    startYear: int
    text: str


class AgencyConfigRead(BaseModel):
    """The public white-label configuration of a host."""

    meta: AgencyMeta
    company: AgencyCompany
    theme: AgencyTheme
    footer: AgencyFooter


class ProfileRead(BaseModel):
    id: int
    role: Role
    email: str
    first_name: str
    last_name: str
    company_name: str


class UserSettingsRead(BaseModel):
    api_access: bool
    insight_dashboard: bool
    postback_enabled: bool
