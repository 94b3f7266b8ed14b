"""Alert rows and each user's alert subscription (the checks' clock is app/jobs/clock.py's)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.alerts.kinds import DEFAULT_LOW_BALANCE_DAYS
from app.kernel.model_base import json_field, utcnow


class Alert(SQLModel, table=True):
    """One alert: raised when a check first finds its cause, cleared (cleared_at) when a check no longer does.
    `open_key` is "kind:subject" while open and NULL once cleared: unique, so a kind and subject have at most one
    open alert even when two checks race (NULLs never collide on SQLite or PostgreSQL)."""

    __tablename__ = "alerts"

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=24, index=True)
    subject: str = Field(max_length=80)  # what it is about: "advertiser:12", "campaign:7", "report:3", ...
    open_key: str | None = Field(default=None, max_length=110, unique=True)
    owner_id: int | None = Field(default=None, foreign_key="users.id", index=True)  # whose it is; NULL: staff's
    title: str = Field(max_length=160)
    detail: str = Field(default="", max_length=500)
    raised_at: datetime = Field(default_factory=utcnow, nullable=False)
    cleared_at: datetime | None = Field(default=None, index=True)


class AlertSubscription(SQLModel, table=True):
    """What a user chose: which alert kinds also come by e-mail, and their low-balance threshold in days. No row:
    the defaults (no e-mail, DEFAULT_LOW_BALANCE_DAYS)."""

    __tablename__ = "alert_subscriptions"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    email_kinds: list[str] = json_field(list)
    low_balance_days: int = DEFAULT_LOW_BALANCE_DAYS

