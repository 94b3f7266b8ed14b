"""Users of all four roles. An advertiser may belong to an agency (agency_id is that agency's user id).

Server-side sessions: browser (HttpOnly cookie) and API (bearer JWT carrying the session id).

`stack` holds the impersonation chain as user ids, real user first, acting user last.

API credentials of users with api_access: the secret is shown once and stored only as a hash."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Index, func
from sqlmodel import Field, SQLModel

from app.access.roles import STAFF_ROLES
from app.kernel.model_base import created_at_field, json_field, utcnow
from app.kernel.natural_order import keep_sort_key, sort_key_field


class UserStatus:
    ACTIVE = "active"
    PENDING = "pending"  # registered, e-mail not verified yet
    DISABLED = "disabled"
    ALL = (ACTIVE, PENDING, DISABLED)


def shown_name(value: Callable[[str], Any]) -> str:
    """An account's name as the lists show it (the campaign list's advertiser column): its company, else its
    person's name."""
    return str(value("company_name")) or f"{value('first_name')} {value('last_name')}".strip()


def person_name(value: Callable[[str], Any]) -> str:
    """An account's person as the user lists' Name column shows it (User.display_name): the full name, else the
    e-mail."""
    return f"{value('first_name') or ''} {value('last_name') or ''}".strip() or str(value("email"))


class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (Index("ix_users_name_key_id", "name_key", "id"), Index("ix_users_person_key_id", "person_key", "id"))

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)
    password_hash: str = Field(max_length=255)
    first_name: str = Field(default="", max_length=80)
    last_name: str = Field(default="", max_length=80)
    company_name: str = Field(default="", max_length=120)
    role: str = Field(max_length=16, index=True)
    status: str = Field(default=UserStatus.ACTIVE, max_length=16, index=True)
    agency_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow)
    # shown_name's natural-order key (app/kernel/natural_order.py): the campaign list sorts by advertiser on it.
    name_key: str | None = sort_key_field(shown_name)
    # person_name's key: the user lists sort their Name column on it.
    person_key: str | None = sort_key_field(person_name)

    @property
    def display_name(self) -> str:
        return person_name(lambda name: getattr(self, name))

    @property
    def account_name(self) -> str:
        """The account as lists, breakdowns, report filters and change logs name it (one rule, so they agree): its
        company, else its person (shown_name), else its e-mail."""
        return shown_name(lambda name: getattr(self, name)) or self.email

    @property
    def account_and_person(self) -> str:
        """account_name with the person beneath it where that says more: "Acme Outdoor · Arlo Advertiser"."""
        person = self.display_name
        return self.account_name if person in (self.account_name, self.email) else f"{self.account_name} · {person}"

    @property
    def actor_name(self) -> str:
        """Who made a change, as change logs say it: a client account by its company with the person beneath
        (account_and_person); staff by their own name (their company is the console's, the same for all of them)."""
        return self.display_name if self.role in STAFF_ROLES else self.account_and_person


keep_sort_key(User, "name_key", shown_name)
keep_sort_key(User, "person_key", person_name)
# shown_name in SQL, for the lists that search an advertiser as they show it (campaigns, creatives, audiences).
def shown_name_sql(user: Any = User) -> Any:
    """shown_name in SQL over `user` (the User table, or an alias of it joined under another name)."""
    return func.coalesce(func.nullif(user.company_name, ""), user.first_name + " " + user.last_name)


SHOWN_NAME_SQL = shown_name_sql()


class UserSettings(SQLModel, table=True):
    """Per-user configuration an admin sets (spec section 3: insight_dashboard, postback_enabled, api_access)."""

    __tablename__ = "user_settings"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    insight_dashboard: bool = False
    postback_enabled: str = Field(default="DISABLED", max_length=16)  # "ENABLED" turns postbacks on
    api_access: bool = False
    # Agency margin on this advertiser's spend, in basis points (1500 = 15.00 %).
    margin_bps: int = 0
    # Reference value ids of the exchanges the user may buy on; empty means every active exchange.
    allowed_exchanges: list[int] = json_field(list)
    postback_url: str = Field(default="", max_length=500)
    postback_events: list[str] = json_field(list)
    # The secret in the user's conversion postback endpoint (/api/postback/{token}): made on first need.
    postback_token: str | None = Field(default=None, max_length=64, unique=True, index=True)


class UserPreferences(SQLModel, table=True):
    """What a user chooses for themself: dashboard view and the theme settings panel."""

    __tablename__ = "user_preferences"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    dashboard_view: str = Field(default="old", max_length=8)
    layout: str = Field(default="vertical", max_length=16)
    width: str = Field(default="fluid", max_length=16)
    topbar: str = Field(default="light", max_length=16)
    sidebar: str = Field(default="default", max_length=16)
    sidebar_color: str = Field(default="dark", max_length=16)
    preloader: bool = True


class AuthSession(SQLModel, table=True):
    __tablename__ = "auth_sessions"

    id: str = Field(primary_key=True, max_length=32)
    kind: str = Field(default="browser", max_length=8)  # browser | api
    user_id: int = Field(foreign_key="users.id", index=True)  # the real user who logged in
    stack: list[int] = json_field(list)
    token_hash: str | None = Field(default=None, max_length=64, unique=True, index=True)
    ticket_hash: str | None = Field(default=None, max_length=64, unique=True, index=True)
    ticket_expires_at: datetime | None = None
    issued_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    address: str = Field(default="", max_length=64)
    user_agent: str = Field(default="", max_length=255)
    created_at: datetime = created_at_field()
    # A message for the session's next page (a translation key): why an impersonation in it ended without a click
    # (the advertiser it acted as was moved away from its agency). Shown once, then cleared (sessions.take_notice).
    notice: str = Field(default="", max_length=64)


class RateCount(SQLModel, table=True):
    """Calls counted in one bucket (a credential's digest or a client address) in one minute
    (app/access/write_limits.py)."""

    __tablename__ = "rate_counts"

    bucket: str = Field(primary_key=True, max_length=80)
    window_start: datetime = Field(primary_key=True)
    count: int = 0


class LoginAttempt(SQLModel, table=True):
    """One attempt at a throttled signed-out call (app/access/throttle.py): a sign-in, or a request for a mailed code."""

    __tablename__ = "login_attempts"

    id: int | None = Field(default=None, primary_key=True)
    action: str = Field(default="sign_in", max_length=16)  # sign_in | second_factor | mail
    email: str = Field(max_length=254, index=True)
    address: str = Field(max_length=64, index=True)
    succeeded: bool = False
    created_at: datetime = created_at_field()


class OneTimeCode(SQLModel, table=True):
    """Codes mailed for e-mail verification (purpose=verify) and password reset (purpose=reset)."""

    __tablename__ = "one_time_codes"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    purpose: str = Field(max_length=16)
    code_hash: str = Field(max_length=64)
    expires_at: datetime
    used_at: datetime | None = None
    attempts: int = 0
    created_at: datetime = created_at_field()


class ApiCredential(SQLModel, table=True):
    __tablename__ = "api_credentials"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    label: str = Field(default="", max_length=60)
    key_id: str = Field(max_length=24, unique=True, index=True)  # public half, shown in lists
    secret_hash: str = Field(max_length=64)  # sha256 of the secret half
    # What the key may call (app/access/key_scopes.py), chosen when it is made; keys older than scopes: read_write.
    scope: str = Field(default="read_write", max_length=16)
    created_by: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = created_at_field()
    last_used_at: datetime | None = None
    last_used_address: str = Field(default="", max_length=64)
    revoked_at: datetime | None = None
    # Why it was revoked when nobody revoked it by hand: "moved" (the advertiser left the agency that made it).
    revoked_reason: str = Field(default="", max_length=16)


class SecondFactor(SQLModel, table=True):
    """A user's authenticator app (TOTP, app/accounts/second_factor.py). The shared secret is encrypted at rest
    (app/kernel/sealed.py); the row is pending until the user confirms it with a code (confirmed_at set).
    `last_step` is the 30-second step of the last code accepted: a code is good once, never replayed."""

    __tablename__ = "second_factors"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    secret_encrypted: str = Field(max_length=255)
    confirmed_at: datetime | None = None
    last_step: int = 0
    created_at: datetime = created_at_field()


class RecoveryCode(SQLModel, table=True):
    """One of the ten codes shown once at enrolment, in place of the app when the phone is lost: only its hash is
    kept, and each works once (used_at)."""

    __tablename__ = "recovery_codes"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    code_hash: str = Field(max_length=64)
    used_at: datetime | None = None
    created_at: datetime = created_at_field()


class SignInPolicy(SQLModel, table=True):
    """The install's sign-in rules an admin sets (one row, id 1): whether admins and co-admins must use a second
    factor. Install-wide, not per brand host: staff sign in on any host."""

    __tablename__ = "sign_in_policy"

    id: int = Field(default=1, primary_key=True)
    staff_second_factor: bool = False
    updated_at: datetime = Field(default_factory=utcnow)
