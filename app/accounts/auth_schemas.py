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

    email: str | None = Field(None, description="The address you sign in with: changing it needs currentPassword "
                                                "(and code, when two-factor sign-in is on)")
    firstName: str | None = None
    lastName: str | None = None
    companyName: str | None = None
    currentPassword: str | None = Field(None, description="Your password: needed to change the e-mail only")
    code: str | None = Field(None, description="A code from your authenticator app (or a recovery code): needed to "
                                               "change the e-mail when two-factor sign-in is on")


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


# ---- two-factor sign-in (app/accounts/second_factor.py) ----

CHALLENGE_EXAMPLE = "m3Qx7L0b0N1zq3bU4fTqf6b1tq0x8rN0Jt7Yy2uQe5c"


class SecondFactorBody(BaseModel):
    """The second step of a sign-in: the `challenge` from the 401 of POST /auth/login/ and a code from the
    authenticator app (or one of the recovery codes)."""

    model_config = example({"challenge": CHALLENGE_EXAMPLE, "code": "492039"})

    challenge: str
    code: str


class ChallengeBody(BaseModel):
    model_config = example({"challenge": CHALLENGE_EXAMPLE})

    challenge: str


class CodeBody(BaseModel):
    model_config = example({"code": "492039"})

    code: str = Field(description="The current 6-digit code of the authenticator app (or, to turn it off, a "
                                  "recovery code)")


class RenewCodesBody(BaseModel):
    model_config = example({"code": "492039"}, extra="forbid")

    code: str = Field("", description="The current 6-digit code of the authenticator app")
    password: str = Field("", description="Or your password, when the app is not at hand (a recovery code is not "
                                          "accepted: those are what is replaced)")


class SecondFactorTokenRead(TokenRead):
    recovery_codes: list[str] = Field(default=[], description="Set only when this sign-in finished a required "
                                      "enrolment: the ten recovery codes, shown this once")


class EnrolmentRead(BaseModel):
    model_config = example({"secret": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
                            "uri": "otpauth://totp/DSP%20Console:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
                                   "&issuer=DSP%20Console",
                            "qr_svg": '<svg viewBox="0 0 180 180" class="segno"><path d="M2 2.5h7"/></svg>'})

    secret: str = Field(description="The shared secret (base32), for typing into an app that cannot scan")
    uri: str = Field(description="The otpauth:// link the QR code holds")
    qr_svg: str = Field(description="The QR code as an SVG document")


class RecoveryCodesRead(BaseModel):
    model_config = example({"recovery_codes": ["k2m4q-7xz3a", "p9w2e-4rt6y"]})

    recovery_codes: list[str] = Field(description="Ten one-use codes for when the phone is lost: shown only now")


class SecondFactorStatusRead(BaseModel):
    model_config = example({"enabled": True, "recovery_codes_left": 9, "required": False})

    enabled: bool
    recovery_codes_left: int
    required: bool = Field(description="Your role must use it (the admin's sign-in policy): it cannot be turned off")


class SignInPolicyBody(BaseModel):
    model_config = example({"staff_second_factor": True})

    staff_second_factor: bool = Field(description="Admins and co-admins must sign in with a second factor")


class SignInPolicyRead(SignInPolicyBody):
    pass
