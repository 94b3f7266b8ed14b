"""API credentials of users with api_access: the secret is shown once and stored only as a hash."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from app.models.base import created_at_field


class ApiCredential(SQLModel, table=True):
    __tablename__ = "api_credentials"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    label: str = Field(default="", max_length=60)
    key_id: str = Field(max_length=24, unique=True, index=True)  # public half, shown in lists
    secret_hash: str = Field(max_length=64)  # sha256 of the secret half
    created_by: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = created_at_field()
    last_used_at: datetime | None = None
    last_used_address: str = Field(default="", max_length=64)
    revoked_at: datetime | None = None
