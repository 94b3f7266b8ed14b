"""Copying the entity database out and back: SQLite through its online backup API, PostgreSQL through
pg_dump / pg_restore. Both give a consistent copy while the server keeps serving (SQLite's backup reads one
snapshot; pg_dump one transaction)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import inspect, select
from sqlalchemy.engine import URL, make_url
from sqlmodel import SQLModel

from app.kernel.config import get_settings
from app.kernel.db import get_engine
from app.operations.archive import ArchiveRefused

SQLITE_MEMBER = "database/dsp.sqlite3"
POSTGRESQL_MEMBER = "database/dsp.pgdump"  # pg_dump's custom format: compressed, restored by pg_restore
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"  # where Debian's postgresql-client-N puts each major version


def kind() -> str:
    return "sqlite" if get_settings().is_sqlite else "postgresql"


def _url() -> URL:
    return make_url(get_settings().sqlalchemy_url)


def _sqlite_path() -> Path:
    database = _url().database
    assert database, "a SQLite URL names its file"
    return Path(database)


def is_empty() -> bool:
    """Whether the database holds no row of the console's tables (a freshly migrated one is empty)."""
    engine = get_engine()
    present = set(inspect(engine).get_table_names())
    with engine.connect() as connection:
        return not any(connection.execute(select(1).select_from(table).limit(1)).first()
                       for table in SQLModel.metadata.sorted_tables if table.name in present)


# --- PostgreSQL's own tools ---------------------------------------------------------------------------------

def _server_major() -> int:
    with get_engine().connect() as connection:
        number = connection.exec_driver_sql("SHOW server_version_num").scalar_one()
    return int(number) // 10000


def pg_tool(name: str) -> str:
    """pg_dump or pg_restore of the server's major version (a newer one works too; an older one refuses a newer
    server's dump), from Debian's /usr/lib/postgresql/N/bin, else the one on PATH."""
    major = _server_major()
    found = {}
    for folder in Path("/").glob(PG_BIN_GLOB.lstrip("/")):
        version = re.fullmatch(r"\d+", folder.parent.name)
        if version and (folder / name).exists() and int(version.group()) >= major:
            found[int(version.group())] = str(folder / name)
    if found:
        return found[min(found)]
    on_path = shutil.which(name)
    if on_path is None:
        raise ArchiveRefused(f"{name} is needed for a PostgreSQL database: install Debian's postgresql-client-{major} "
                             f"(apt-get install postgresql-client-{major})")
    return on_path


def _pg_environment() -> dict[str, str]:
    """libpq's variables for the configured database: the password goes in the environment, not on a command
    line every user of the machine can read."""
    url = _url()
    given = {"PGHOST": url.host, "PGPORT": str(url.port) if url.port else None, "PGUSER": url.username,
             "PGPASSWORD": url.password, "PGDATABASE": url.database}
    return {**os.environ, **{name: value for name, value in given.items() if value}}


def _run(command: list[str]) -> None:
    done = subprocess.run(command, env=_pg_environment(), capture_output=True, text=True)
    if done.returncode != 0:
        raise ArchiveRefused(f"{Path(command[0]).name} failed: {done.stderr.strip() or done.returncode}")


# --- the two directions -------------------------------------------------------------------------------------

def dump(staged: Path) -> None:
    """The database into `staged` (as SQLITE_MEMBER or POSTGRESQL_MEMBER)."""
    if kind() == "sqlite":
        target = staged / SQLITE_MEMBER
        target.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(_sqlite_path()) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
        copy.close()
        source.close()
        return
    target = staged / POSTGRESQL_MEMBER
    target.parent.mkdir(parents=True, exist_ok=True)
    _run([pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={target}"])


def load(unpacked: Path) -> None:
    """The archive's database copied into the configured one (of the same kind), replacing what it held."""
    if kind() == "sqlite":
        get_engine().dispose()  # no pooled connection keeps the old pages
        target = _sqlite_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        # The backup API writes page by page into the live file (its WAL included), never a half-copied file.
        with sqlite3.connect(unpacked / SQLITE_MEMBER) as source, sqlite3.connect(target) as into:
            source.backup(into)
        into.close()
        source.close()
        return
    get_engine().dispose()
    _run([pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
          f"--dbname={_url().database}", str(unpacked / POSTGRESQL_MEMBER)])
