"""Shared column helpers. Times are aware UTC datetimes (SQLModel's UTCDateTime column type)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Table
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def json_field(default_factory: Any = dict) -> Any:
    return Field(default_factory=default_factory, sa_column=Column(JSON, nullable=False))


def created_at_field() -> Any:
    return Field(default_factory=utcnow, nullable=False, index=True)


def table_of(model: type[SQLModel]) -> Table:
    """A table model's Core table (for an executemany or a conditional UPDATE without the ORM's bookkeeping)."""
    table: Table = model.__table__  # type: ignore[attr-defined]  # SQLModel sets it on table classes; its stubs omit it
    return table
