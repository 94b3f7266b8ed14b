"""Alembic environment: the URL comes from app.kernel.config, the metadata from app.tables."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlmodel import SQLModel

import app.tables  # noqa: F401  (registers every table)
from app.kernel.config import get_settings
from app.kernel.db import MIGRATION_LOCK, get_engine

target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    url = context.config.get_main_option("sqlalchemy.url") or get_settings().sqlalchemy_url
    engine = get_engine() if url == get_settings().sqlalchemy_url else None
    if engine is None:
        from sqlalchemy import create_engine

        engine = create_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            context.run_migrations()
        connection.commit()


run_migrations_online()
