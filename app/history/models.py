"""The change history every write appends to, in the same transaction as the write."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field


class AuditEntry(SQLModel, table=True):
    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    entity: str = Field(max_length=40, index=True)
    entity_id: str = Field(max_length=128, index=True)  # a statistics batch id is up to 100 characters
    action: str = Field(max_length=40)
    actor_id: int | None = Field(default=None, foreign_key="users.id")
    real_user_id: int | None = Field(default=None, foreign_key="users.id")
    changes: dict[str, Any] = json_field(dict)
    version: int | None = None  # the record's version this change made, for versioned records (history/versions.py)
    created_at: datetime = created_at_field()
