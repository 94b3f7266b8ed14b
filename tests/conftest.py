"""Test set-up: a fresh data directory and a migrated database (SQLite, or PostgreSQL when
DATABASE_URL is set), emptied and re-seeded before each test that asks for `db`."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator

import pytest

_DATA_DIR = tempfile.mkdtemp(prefix="dsp-test-")
os.environ.setdefault("DSP_DATA_DIR", _DATA_DIR)
os.environ["DSP_ENVIRONMENT"] = "test"
# The fake trackers that receive forwarded postbacks listen on 127.0.0.1 (tests/test_postback_ingest.py).
os.environ.setdefault("DSP_POSTBACK_ALLOW_PRIVATE_TARGETS", "1")
# No alert clock: a test's notifications are its own (tests/test_alerts.py runs the checks itself).
os.environ.setdefault("DSP_ALERT_CHECK_MINUTES", "0")
# Nor the charge reconciler: tests store batches without charging them (tests/test_charge_reconciler.py runs it).
os.environ.setdefault("DSP_CHARGE_RECONCILE_MINUTES", "0")

from sqlalchemy import text  # noqa: E402
from sqlmodel import Session, SQLModel  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

import app.tables  # noqa: E402, F401  (every table and every domain's hooks, as the console loads them)
from app.demo.seed import seed_demo  # noqa: E402
from app.kernel.config import get_settings  # noqa: E402
from app.kernel.db import get_engine, migrate, session_scope  # noqa: E402
from app.warehouse import get_store  # noqa: E402
from app.web.write_limits import PROCESS_COUNTS  # noqa: E402


def _drop_everything() -> None:
    engine = get_engine()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))


@pytest.fixture(scope="session", autouse=True)
def migrated_database() -> Iterator[None]:
    _drop_everything()
    migrate()
    yield


def reset_database() -> dict[str, int]:
    engine = get_engine()
    with engine.begin() as connection:
        for table in reversed(SQLModel.metadata.sorted_tables):
            connection.execute(table.delete())
        if engine.dialect.name == "postgresql":  # the job queue's tables (procrastinate's, not our models)
            connection.execute(text("DELETE FROM procrastinate_jobs"))
    get_store().clear()
    PROCESS_COUNTS.clear()  # the write limits' counts on SQLite (in memory, like the table they stand for)
    with session_scope() as db:
        return seed_demo(db)


@pytest.fixture
def demo_ids() -> dict[str, int]:
    """Empties every table and seeds the demo data; returns {email: user id}."""
    return reset_database()


@pytest.fixture
def db(demo_ids: dict[str, int]) -> Iterator[Session]:
    with session_scope() as session:
        yield session


@pytest.fixture
def settings():  # type: ignore[no-untyped-def]
    return get_settings()


STORE_KINDS = ("duckdb", "chdb", "clickhouse")  # the statistics stores the contract runs on (clickhouse: the
# clickhouse:// path, HTTPExecutor and clickhouse-connect, against chDB behind tests/clickhouse_http.py)


@pytest.fixture(scope="session")
def clickhouse_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ClickHouse HTTP interface in its own process (tests/clickhouse_http.py, chDB in its own directory) on
    a free port, for the whole session: its clickhouse:// URL, without a database (add /NAME: the store creates
    it). Several processes can share it (DSP_STATISTICS_URL=URL/NAME). Its zone is New York, not UTC, so a
    client that read a DateTime in the server's zone would be caught."""
    from tests.clickhouse_http import start

    with start(tmp_path_factory.mktemp("clickhouse-http"), user="dsp", password="s3cret@:/",
               time_zone="America/New_York") as url:
        yield url


@pytest.fixture(params=STORE_KINDS)
def store(request: pytest.FixtureRequest, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Each statistics store in turn, opened in a temporary directory (a database of its own on the shared
    ClickHouse front) through DSP_STATISTICS_URL: get_store() (and so every service) answers from it for the
    test."""
    if request.param == "clickhouse":
        url = f"{request.getfixturevalue('clickhouse_server')}/test_{uuid.uuid4().hex}"
    else:
        url = _open_url(request.param, tmp_path)
    monkeypatch.setattr(get_settings(), "statistics_url", url)
    opened = get_store()
    yield opened
    _close_opened(opened)


def _open_url(kind: str, folder) -> str:  # type: ignore[no-untyped-def]
    return f"{kind}:///{folder / f'statistics.{kind}'}"


def _close_opened(opened) -> None:  # type: ignore[no-untyped-def]
    from app.warehouse import clickhouse_store, duckdb_store

    if isinstance(opened, clickhouse_store.ClickHouseStore):
        clickhouse_store.close_store(opened)
    else:
        with duckdb_store._stores_lock:
            duckdb_store._stores.pop(opened.path, None)
        opened.close()


@pytest.fixture
def client(demo_ids: dict[str, int]) -> Iterator[TestClient]:
    """The whole app (pages, /api) in process, over freshly seeded demo data."""
    from app.main import create_app

    with TestClient(create_app(), base_url="http://testserver") as http:
        yield http


@pytest.fixture
def empty_database(tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A URL of an empty database of the suite's kind, for migrations: a SQLite file, or a PostgreSQL schema of its
    own (dropped after)."""
    import sqlalchemy as sa

    url = get_settings().sqlalchemy_url
    if not url.startswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'migration.db'}"
        return
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP SCHEMA IF EXISTS empty_migration CASCADE; CREATE SCHEMA empty_migration"))
    yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3Dempty_migration"
    with engine.begin() as connection:
        connection.execute(sa.text("DROP SCHEMA empty_migration CASCADE"))
    engine.dispose()
