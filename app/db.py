"""Engine, sessions and the migration entry point."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from app.settings import REPO_ROOT, get_settings


@lru_cache
def get_engine() -> Engine:
    settings = get_settings()
    url = settings.sqlalchemy_url
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


@contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work: committed on success, rolled back on any error."""
    with Session(get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def migrate() -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(REPO_ROOT / "app" / "migrations"))
    config.set_main_option("sqlalchemy.url", get_settings().sqlalchemy_url.replace("%", "%%"))
    command.upgrade(config, "head")


def run(fn: Any, /, **kwargs: Any) -> Any:
    """Call a service function `fn(db, **kwargs)` in its own unit of work."""
    with session_scope() as db:
        return fn(db, **kwargs)


async def run_off_loop(fn: Any, /, **kwargs: Any) -> Any:
    """`run` on a worker thread: the door pages use, so a slow service call (a password hash, a write
    waiting on a lock) never stalls the event loop that serves every other tab."""
    return await asyncio.to_thread(run, fn, **kwargs)
