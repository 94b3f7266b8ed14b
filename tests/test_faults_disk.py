"""A full data disk and an unwritable upload folder: a clear answer in the envelope, nothing half-written, what
was saved before intact, and the server working again once space (or the folder) is back.

We run as root, so a chmod would not stop a write: the full disk is a file-size limit put on the running server
(RLIMIT_FSIZE through prlimit; the server ignores SIGXFSZ, so its writes fail with EFBIG as they fail with ENOSPC
on a full disk), lifted again to give the space back."""

from __future__ import annotations

import errno
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import httpx
import pytest
from sqlalchemy.exc import OperationalError

from app.kernel.db import get_engine
from app.kernel.faults import CANNOT_WRITE, DATABASE_DOWN, DISK_FULL, infrastructure_error
from tests.faults import Server
from tests.media_files import image_bytes


@pytest.fixture
def server(demo_ids: dict[str, int], tmp_path: Path) -> Iterator[Server]:
    process = Server(tmp_path / "data")
    yield process.start()
    process.stop()


def _upload(server: Server, headers: dict[str, str], content: bytes) -> httpx.Response:
    return httpx.post(f"{server.url}/api/uploads/creative", headers=headers, timeout=60,
                      files={"file": ("banner.png", content, "image/png")}, data={"purpose": "image"})


def _served(server: Server, reply: httpx.Response) -> bytes:
    answer = httpx.get(f"{server.url}{reply.json()['data']['url']}", timeout=60)
    assert answer.status_code == 200
    return answer.content


def _deposit(server: Server, headers: dict[str, str], advertiser: int) -> httpx.Response:
    return httpx.post(f"{server.url}/api/funds", headers=headers, timeout=60,
                      json={"advertiser_id": advertiser, "amount": "5", "kind": "deposit", "note": "disk test"})


def test_a_full_disk_answers_507_saves_nothing_and_recovers_when_space_is_back(server: Server,
                                                                                demo_ids: dict[str, int]) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    headers, staff = server.login("advertiser@demo.example"), server.login()
    before, refused = image_bytes(300, 250), image_bytes(320, 50)
    saved = _upload(server, headers, before)
    assert saved.status_code == 201, saved.text
    folder = server.data_dir / "uploads" / "creatives"
    files_before = sorted(p.name for p in folder.iterdir())

    _, hard = resource.prlimit(server.pid, resource.RLIMIT_FSIZE)
    resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (1, hard))  # the disk is full
    reply = _upload(server, headers, refused)
    assert reply.status_code == 507, reply.text
    assert reply.json() == {"success": False, "code": 507, "message": DISK_FULL, "data": None}
    assert sorted(p.name for p in folder.iterdir()) == files_before, "a half-written file was left behind"
    if get_engine().dialect.name == "sqlite":  # the database is on this disk too
        deposit = _deposit(server, staff, advertiser)
        assert (deposit.status_code, deposit.json()["message"]) == (507, DISK_FULL)
    assert _served(server, saved) == before  # what was saved before is intact

    resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (hard, hard))  # space is back
    again = _upload(server, headers, refused)
    assert again.status_code == 201, again.text
    assert _served(server, again) == refused
    assert _deposit(server, staff, advertiser).status_code == 201


def test_an_unwritable_upload_folder_answers_503_and_loses_nothing(server: Server) -> None:
    headers = server.login("advertiser@demo.example")
    first = image_bytes(300, 250)
    saved = _upload(server, headers, first)
    assert saved.status_code == 201, saved.text
    uploads = server.data_dir / "uploads"
    uploads.rename(uploads.with_name("uploads.away"))
    uploads.write_text("not a folder")  # the upload folder replaced by a file

    reply = _upload(server, headers, image_bytes(320, 50))
    assert reply.status_code == 503, reply.text
    assert reply.json() == {"success": False, "code": 503, "message": CANNOT_WRITE, "data": None}

    uploads.unlink()
    uploads.with_name("uploads.away").rename(uploads)
    assert _served(server, saved) == first
    assert _upload(server, headers, image_bytes(320, 50)).status_code == 201


@pytest.mark.parametrize(("error", "code", "message"), [
    (OSError(errno.ENOSPC, "No space left on device"), 507, DISK_FULL),
    (OSError(errno.EFBIG, "File too large"), 507, DISK_FULL),
    (OSError(errno.EROFS, "Read-only file system"), 503, CANNOT_WRITE),
    (PermissionError(errno.EACCES, "Permission denied"), 503, CANNOT_WRITE),
])
def test_disk_errors_map_to_one_clear_answer(error: OSError, code: int, message: str) -> None:
    fault = infrastructure_error(error)
    assert fault is not None and (fault.code, fault.message) == (code, message)


def test_sqlite_full_and_postgresql_gone_map_to_their_answers() -> None:
    full = sqlite3.connect(":memory:")
    full.execute("PRAGMA max_page_count = 1")
    with pytest.raises(sqlite3.Error) as raised:
        full.execute("CREATE TABLE t (x)")
        full.execute("INSERT INTO t VALUES (randomblob(100000))")
    wrapped = OperationalError("INSERT ...", {}, raised.value)
    fault = infrastructure_error(wrapped)
    assert fault is not None and (fault.code, fault.message) == (507, DISK_FULL)

    gone = OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
    fault = infrastructure_error(gone)
    assert fault is not None and (fault.code, fault.message) == (503, DATABASE_DOWN)
    assert infrastructure_error(ValueError("a bug")) is None
    assert infrastructure_error(KeyError("x")) is None


_DUCKDB_FULL = """
import duckdb, os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
store = duckdb.connect(sys.argv[1])
store.execute("CREATE TABLE t (a INTEGER, b VARCHAR)")
store.execute("CHECKPOINT")
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(sys.argv[1]), resource.RLIM_INFINITY))
try:
    store.execute("INSERT INTO t SELECT i, repeat('x', 100) FROM range(200000) r(i)")
except duckdb.Error as failed:
    print(type(failed).__name__)
    print(failed)
"""


def test_the_statistics_store_on_a_full_disk_maps_to_the_same_answer(tmp_path: Path) -> None:
    """DuckDB's failed write, as the installed DuckDB words it (made for real in a child process whose file
    size is limited), is a full disk, not a bug."""
    made = subprocess.run([sys.executable, "-c", _DUCKDB_FULL, str(tmp_path / "stats.duckdb")],
                          capture_output=True, text=True, timeout=120, check=True)
    kind, _, message = made.stdout.partition("\n")
    assert kind, f"the write did not fail: {made.stderr}"
    fault = infrastructure_error(getattr(duckdb, kind)(message.strip()))
    assert fault is not None and (fault.code, fault.message) == (507, DISK_FULL)
    fault = infrastructure_error(duckdb.IOException('IO Error: Cannot open file "x.duckdb": Read-only file system'))
    assert fault is not None and (fault.code, fault.message) == (503, CANNOT_WRITE)
    assert infrastructure_error(duckdb.BinderException("Binder Error: column q not found")) is None
