"""Outgoing e-mail (kept in an outbox whatever the transport) and in-app notifications."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field


class EmailOutbox(SQLModel, table=True):
    __tablename__ = "email_outbox"

    id: int | None = Field(default=None, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=200)
    body: str
    transport: str = Field(default="log", max_length=8)  # smtp | log
    sent_at: datetime | None = None
    error: str = Field(default="", max_length=500)
    created_at: datetime = created_at_field()


class Notification(SQLModel, table=True):
    __tablename__ = "notifications"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    title: str = Field(max_length=160)
    body: str = Field(default="", max_length=1000)
    link: str = Field(default="", max_length=255)
    read_at: datetime | None = None
    created_at: datetime = created_at_field()
