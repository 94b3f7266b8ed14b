"""The migrations make the schema the models declare: an empty database migrated to the newest revision differs
from SQLModel's metadata in nothing alembic can see (tables, columns, types, nullability, indexes, unique and foreign
keys). A model changed without its migration (or the reverse) fails here instead of in a customer's upgrade: the
approvals' requested_at index lived in the model only until 0028."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import app.tables  # noqa: F401  # every table model, registered on SQLModel.metadata
from tests.helpers import run_alembic


def _ours(item: Any, name: str | None, kind: str, reflected: bool, compare_to: Any) -> bool:
    """Only the console's tables: on PostgreSQL the migrations also apply procrastinate's, which no model declares."""
    table = name if kind == "table" else getattr(getattr(item, "table", None), "name", None)
    return table in SQLModel.metadata.tables


def test_the_migrated_schema_is_the_models_schema(empty_database: str) -> None:
    run_alembic(empty_database, "upgrade", "head")
    engine = sa.create_engine(empty_database)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"include_object": _ours})
            differences = compare_metadata(context, SQLModel.metadata)
    finally:
        engine.dispose()
    assert differences == []
