"""Shared column helpers. Times are aware UTC datetimes (SQLModel's UTCDateTime column type)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Integer, Table
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def json_field(default_factory: Any = dict) -> Any:
    return Field(default_factory=default_factory, sa_column=Column(JSON, nullable=False))


def created_at_field() -> Any:
    return Field(default_factory=utcnow, nullable=False, index=True)


def version_field() -> tuple[Any, dict[str, Any]]:
    """(the field, the mapper arguments) of a record's edit counter, starting at 1 (app/history/versions.py). The
    class takes both: `__mapper_args__ = args` and `version: int = field`. SQLAlchemy's version_id_col makes every
    ORM UPDATE of the row conditional on the version it read ("... WHERE version = :read"; none matched raises
    StaleDataError), so a writer that read an older row can never overwrite a newer one; the generator is off,
    because a save counts once (versions.bump) however many flushes its unit of work makes."""
    column = Column("version", Integer, nullable=False, server_default="1")
    return Field(default=1, sa_column=column), {"version_id_col": column, "version_id_generator": False}


def table_of(model: type[SQLModel]) -> Table:
    """A table model's Core table (for an executemany or a conditional UPDATE without the ORM's bookkeeping)."""
    table: Table = model.__table__  # type: ignore[attr-defined]  # SQLModel sets it on table classes; its stubs omit it
    return table
