"""Engine, sessions and the migration entry point."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, create_engine
from sqlmodel.sql.expression import Select

if TYPE_CHECKING:
    from alembic.config import Config

from app.kernel import sqlite_writes
from app.kernel.config import REPO_ROOT, Settings, get_settings


@lru_cache
def get_engine() -> Engine:
    return build_engine(get_settings())


def build_engine(settings: Settings) -> Engine:
    """The engine for `settings`' database (get_engine keeps the process's one)."""
    url = settings.sqlalchemy_url
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **_pool_settings(settings))
        sqlite_writes.install(engine, queue=settings.db_write_queue, wait_s=settings.db_write_wait_s)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "savepoint")
        def _transaction_before_savepoint(connection: Any, _name: str) -> None:
            # Python's sqlite3 (before 3.12's autocommit setting) opens its transaction only at the first
            # INSERT, UPDATE or DELETE. A SAVEPOINT before any write then starts the transaction itself, and its
            # RELEASE commits it: a bulk edit's first row was saved on its own (tests/test_transactions.py).
            # Open the outer transaction first. IMMEDIATE takes the write lock now, as a savepoint means writes
            # are coming; a deferred one that read first could not upgrade once another writer had committed.
            dbapi_connection = connection.connection.dbapi_connection
            if not dbapi_connection.in_transaction:
                sqlite_writes.gate_of(engine).enter(dbapi_connection)
                dbapi_connection.execute("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True, **_pool_settings(settings))


def _pool_settings(settings: Settings) -> dict[str, Any]:
    # Sized from the settings on both databases (SQLite's default pool, 5 and 10 more, ran dry under a burst of
    # writes), and never waited on for long: a call that cannot get a connection in time answers 503, not a hang.
    return {"pool_size": settings.db_pool_size, "max_overflow": settings.db_max_overflow,
            "pool_timeout": settings.db_pool_timeout_s}


@contextlib.contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work: committed on success, rolled back on any error."""
    with Session(get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


T = TypeVar("T")
_kept = threading.local()  # .connection: this thread's kept connection (read_on_kept_connection)


def read_on_kept_connection(read: Callable[[Connection], T]) -> T:
    """`read(connection)` on this thread's own connection, kept between calls, in autocommit: for a small read made
    on every page event (the websocket guard's session check, on threads that live as long as the process). A pooled
    connection per call cost the checkout, and on PostgreSQL the pool's pre-ping, BEGIN and ROLLBACK, round trips
    each: 0.9 ms against 5.9 ms p50 on a loaded machine (bench/README.md). A connection the database dropped is
    replaced, and the read tried once more, as the pre-ping would have."""
    for attempt in (1, 2):
        connection = _kept_connection()
        try:
            answer = read(connection)
            connection.rollback()  # ends SQLAlchemy's own transaction: in autocommit, nothing is sent
            return answer
        except DBAPIError as error:
            _drop_kept_connection()
            if attempt == 2 or not error.connection_invalidated:
                raise
        except BaseException:
            _drop_kept_connection()
            raise
    raise AssertionError("the loop returns or raises")


def _kept_connection() -> Connection:
    engine = get_engine()
    kept: Connection | None = getattr(_kept, "connection", None)
    if kept is None or kept.engine is not engine or kept.closed or kept.invalidated:
        _drop_kept_connection()
        kept = _kept.connection = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    return kept


def _drop_kept_connection() -> None:
    kept: Connection | None = getattr(_kept, "connection", None)
    _kept.connection = None
    if kept is not None:
        with contextlib.suppress(Exception):  # a connection the database dropped may fail to close
            kept.close()


def alembic_config() -> Config:
    """Alembic's configuration for this code's migrations and the configured database."""
    from alembic.config import Config

    config = Config(str(REPO_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(REPO_ROOT / "app" / "migrations"))
    config.set_main_option("sqlalchemy.url", get_settings().sqlalchemy_url.replace("%", "%%"))
    return config


# The migrations' advisory lock on PostgreSQL (taken in app/migrations/env.py). Servers of a fleet started
# together on one fresh database each migrate at start-up: without a lock both would read "no revision" and create
# the same tables, and the second would fail. The first holds this lock for its whole migration (one transaction:
# PostgreSQL's DDL is transactional); the others wait, then read the revision it committed and have nothing to do. SQLite is the one-process rung (a second process on the same data
# directory is refused), so it takes none.
MIGRATION_LOCK = 0x6473705F6D696772  # "dsp_migr": any constant the app uses for nothing else


def migrate(revision: str = "head") -> None:
    """Bring the schema to the newest Alembic revision (or to `revision`: the upgrade tests start older)."""
    from alembic import command

    command.upgrade(alembic_config(), revision)


def head_revision() -> str:
    """The newest schema revision this code knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "the migrations have one head"
    return head


def database_revision() -> str | None:
    """The schema revision the configured database is at (None: never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with get_engine().connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def schema_revisions() -> tuple[set[str], set[str]]:
    """(the revisions the database is at, this release's newest): as sets, the first empty when never migrated."""
    applied = database_revision()
    return ({applied} if applied else set()), {head_revision()}


SchemaState = Literal["new", "current", "behind", "newer", "unmanaged"]


def schema_state() -> SchemaState:
    """Where the database stands against this release's migrations: `new` (no tables at all: never migrated),
    `current` (at the newest revision), `behind` (at an older one: an upgrade to run), `newer` (at a revision this
    release does not know: a newer release migrated it) or `unmanaged` (tables, but no record of any migration)."""
    from alembic.script import ScriptDirectory
    from sqlalchemy import inspect

    applied, newest = schema_revisions()
    with get_engine().connect() as connection:
        has_tables = bool(inspect(connection).get_table_names())
    if not applied:
        return "unmanaged" if has_tables else "new"
    if applied == newest:
        return "current"
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    return "behind" if applied <= known else "newer"


def run(fn: Any, /, **kwargs: Any) -> Any:
    """Call a service function `fn(db, **kwargs)` in its own unit of work."""
    with session_scope() as db:
        return fn(db, **kwargs)


# CPU-bound service calls (argon2 password hashes, about 0.2 s of CPU each) get threads of their own, at
# most one per core but one, so a burst of sign-ins queues here instead of taking every worker thread and
# database connection that quick reads need, and leaves a core to the event loop.
_CPU_HEAVY_WORKERS = max(1, (os.cpu_count() or 2) - 1)
CPU_HEAVY_NICENESS = 10


def _lower_priority() -> None:
    """Run this worker thread (and the threads it starts, argon2's lanes) at a lower scheduling priority,
    so clicks preempt password hashing instead of waiting for a time slice behind it. Linux sets niceness
    per thread; elsewhere this is a no-op."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CPU_HEAVY_NICENESS)


_cpu_heavy_pool = ThreadPoolExecutor(max_workers=_CPU_HEAVY_WORKERS, thread_name_prefix="cpu-heavy",
                                     initializer=_lower_priority)

F = TypeVar("F", bound=Callable[..., Any])


def cpu_heavy(fn: F) -> F:
    """Mark a service function whose work is mostly CPU (it hashes a password): run_off_loop gives it
    the CPU-heavy pool."""
    fn.__dict__["cpu_heavy"] = True
    return fn


async def on_threads(pool: Executor, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` on one of `pool`'s threads, in the caller's context as asyncio.to_thread does it (log
    fields bound in the call reach its log lines): for work kept off the default executor every page shares."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(pool, partial(context.run, fn, *args, **kwargs))


async def run_off_loop(fn: Any, /, **kwargs: Any) -> Any:
    """`run` on a worker thread: the door pages use, so a slow service call (a password hash, a write
    waiting on a lock) never stalls the event loop that serves every other tab."""
    if getattr(fn, "cpu_heavy", False):
        return await on_threads(_cpu_heavy_pool, run, fn, **kwargs)
    return await asyncio.to_thread(run, fn, **kwargs)


def select_columns(*columns: Any) -> Select[*tuple[Any, ...]]:
    """sqlmodel's select() of several columns, for more than the four its type hints cover (the same
    statement: a row of the columns' values)."""
    return Select(*columns)
