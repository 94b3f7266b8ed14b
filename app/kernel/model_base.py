"""Shared column helpers. Times are aware UTC datetimes (SQLModel's UTCDateTime column type)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field


def utcnow() -> datetime:
    return datetime.now(UTC)


def json_field(default_factory: Any = dict) -> Any:
    return Field(default_factory=default_factory, sa_column=Column(JSON, nullable=False))


def created_at_field() -> Any:
    return Field(default_factory=utcnow, nullable=False, index=True)
