"""Forwarded conversion postbacks: each call made to a client's postback URL, so its settings page can show
whether its tracker answered."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models.base import created_at_field


class PostbackDelivery(SQLModel, table=True):
    __tablename__ = "postback_deliveries"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)  # whose postback URL was called
    advertiser_id: int = Field(foreign_key="users.id", index=True)  # whose conversion it was
    event: str = Field(max_length=40)
    url: str = Field(max_length=2048)  # as sent, macros replaced
    status_code: int | None = None  # the last attempt's HTTP status; None when no answer came
    error: str = Field(default="", max_length=255)  # why the last attempt failed, "" on success
    attempts: int = 1
    created_at: datetime = created_at_field()
