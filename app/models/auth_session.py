"""Server-side sessions: browser (HttpOnly cookie) and API (bearer JWT carrying the session id).

`stack` holds the impersonation chain as user ids, real user first, acting user last.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models.base import created_at_field, json_field


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


class LoginAttempt(SQLModel, table=True):
    """One attempt at a throttled signed-out call (app/auth/throttle.py): a sign-in, or a request for a mailed code."""

    __tablename__ = "login_attempts"

    id: int | None = Field(default=None, primary_key=True)
    action: str = Field(default="sign_in", max_length=16)  # sign_in | mail
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
