"""Copying the statistics store out and back.

- DuckDB: EXPORT DATABASE as Parquet (readable by any later DuckDB, unlike the file format of one version), and
  IMPORT DATABASE into a new file.
- chDB: its directory, copied while no process has it open (chDB allows one process per directory).
- A ClickHouse server: not copied. Its data outlives this machine; ClickHouse's own BACKUP keeps it (README,
  "Backups and upgrades"). The manifest says it was left out, and restore says so.

Both embedded stores are opened by one process: a running server holds them, so their backup refuses (naming
what to do) while it runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb

from app.kernel.config import get_settings
from app.operations.archive import ArchiveRefused
from app.warehouse import StoreLocation, store_location
from app.warehouse.base import StoreInUse

DUCKDB_MEMBER = "statistics/duckdb"  # EXPORT DATABASE's folder: schema.sql, load.sql, a Parquet file per table
CHDB_MEMBER = "statistics/chdb"
CLICKHOUSE_ADVICE = ("statistics on a ClickHouse server are not in this archive: back them up on the server with "
                     "ClickHouse's BACKUP DATABASE (README, \"Backups and upgrades\")")
HELD = ("The statistics store {path} is held by another process (a running server: the embedded stores allow one "
        "process each). Stop the server for the backup or restore, then start it again; "
        "or move the statistics to a ClickHouse server, which is backed up on its own.")


def location() -> StoreLocation:
    return store_location(get_settings())


def included(where: StoreLocation) -> bool:
    return where.kind != "clickhouse"


def _close_in_process() -> None:
    """This process's own handles on the embedded stores (the next step opens the files itself)."""
    from app.warehouse import clickhouse_store, duckdb_store

    duckdb_store.close_stores()
    clickhouse_store.close_stores()


def _connect_duckdb(path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as error:
        if "lock" in str(error).lower():
            raise ArchiveRefused(HELD.format(path=path)) from None
        raise


@contextlib.contextmanager
def _chdb_closed(path: Path) -> Iterator[None]:
    """While the block runs, no process has the chDB directory `path` open, and none can open it: ClickHouse's
    engine holds an exclusive flock on the directory's `status` file while it runs (it removes the file when it
    closes) and refuses to start when it cannot take that lock, so taking it here is both the check and the
    guard. No engine is started: that takes long on a big directory, and a process can open one chDB directory
    only once."""
    status = path / "status"
    made_here = not status.exists()
    with status.open("ab") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ArchiveRefused(HELD.format(path=path)) from None
        try:
            yield
        finally:
            if made_here:
                status.unlink(missing_ok=True)


def is_empty(where: StoreLocation) -> bool:
    """Whether the store holds no statistics (a missing file or directory is empty)."""
    if where.path is None or not where.path.exists():
        return True
    _close_in_process()
    if where.kind == "duckdb":
        with _connect_duckdb(where.path, read_only=True) as db:
            has_batches = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'batches'"
                                     ).fetchone() == (1,)
            return not has_batches or db.execute("SELECT count(*) FROM batches").fetchone() == (0,)
    from app.warehouse.clickhouse_store import ChDBExecutor

    try:
        executor = ChDBExecutor(where.path)
    except StoreInUse:
        raise ArchiveRefused(HELD.format(path=where.path)) from None
    try:
        _, rows = executor.select("SELECT count() FROM system.tables WHERE database = 'dsp' AND name = 'batches'")
        return bool(rows[0][0] == 0 or executor.select("SELECT count() FROM dsp.batches")[1][0][0] == 0)
    finally:
        executor.close()


def dump(where: StoreLocation, staged: Path) -> None:
    """The store into `staged` (nothing for a ClickHouse server, or a store never written)."""
    if where.path is None or not where.path.exists():
        return
    _close_in_process()
    if where.kind == "duckdb":
        target = staged / DUCKDB_MEMBER
        target.parent.mkdir(parents=True, exist_ok=True)
        with _connect_duckdb(where.path, read_only=True) as db:
            db.execute(f"EXPORT DATABASE '{_quoted(target)}' (FORMAT parquet)")
        return
    with _chdb_closed(where.path):
        # Its links stay links; the engine's lock file is left out (it belongs to a running engine).
        top = str(where.path)
        shutil.copytree(where.path, staged / CHDB_MEMBER, symlinks=True,
                        ignore=lambda folder, _names: ["status"] if folder == top else [])


def load(where: StoreLocation, unpacked: Path) -> None:
    """The archive's statistics (of the same kind) in place of the store's."""
    if where.path is None:
        return
    _close_in_process()
    if where.kind == "duckdb":
        if where.path.exists():
            with _connect_duckdb(where.path, read_only=False):
                pass  # only to learn that no other process holds it before it goes
        for stale in (where.path, where.path.with_name(where.path.name + ".wal")):
            stale.unlink(missing_ok=True)
        exported = unpacked / DUCKDB_MEMBER
        if exported.exists():
            where.path.parent.mkdir(parents=True, exist_ok=True)
            with _connect_duckdb(where.path, read_only=False) as db:
                db.execute(f"IMPORT DATABASE '{_quoted(exported)}'")
        return
    if where.path.exists():
        with _chdb_closed(where.path):
            shutil.rmtree(where.path)
    if (unpacked / CHDB_MEMBER).exists():
        shutil.copytree(unpacked / CHDB_MEMBER, where.path, symlinks=True)


def _quoted(path: Path) -> str:
    """A path inside a SQL string literal (DuckDB's EXPORT and IMPORT take no parameters)."""
    return str(path).replace("'", "''")
