"""The file store's contract (app/kernel/storage.py), the same on both backends: a local directory and an
S3-compatible bucket (moto's S3 server, tests/fake_s3.py)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from app.kernel.config import Settings, get_settings
from app.kernel.model_base import utcnow
from app.kernel.storage import LocalStorage, Storage, check_key, get_storage
from tests.fake_s3 import Bucket
from tests.fake_s3 import files_in_bucket as files_in_bucket  # noqa: F401  (fixture)
from tests.fake_s3 import s3_endpoint as s3_endpoint  # noqa: F401  (fixture)


@pytest.fixture(params=["local", "s3"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    if request.param == "local":
        return LocalStorage(tmp_path / "files")
    bucket: Bucket = request.getfixturevalue("files_in_bucket")
    return bucket.storage


def test_a_file_put_reads_back_whole_and_replaces_what_was_there(storage: Storage) -> None:
    assert storage.stat("uploads/a.png") is None and not storage.exists("uploads/a.png")
    storage.put("uploads/a.png", b"first")
    storage.put("uploads/a.png", b"second version")
    assert storage.read("uploads/a.png") == b"second version"
    found = storage.stat("uploads/a.png")
    assert found is not None and found.size == len(b"second version")
    assert abs(found.modified - utcnow()) < timedelta(minutes=5) and found.etag


def test_a_written_file_appears_only_once_whole_and_a_failed_write_leaves_nothing(storage: Storage) -> None:
    with storage.writing("reports/r.csv") as out:
        out.write(b"a,b\n")
        assert storage.stat("reports/r.csv") is None, "a reader saw a file being written"
        assert storage.list("reports/") == []
        out.write(b"1,2\n")
    assert storage.read("reports/r.csv") == b"a,b\n1,2\n"

    with pytest.raises(RuntimeError), storage.writing("reports/broken.csv") as out:
        out.write(b"half")
        raise RuntimeError("the query failed")
    assert storage.stat("reports/broken.csv") is None
    assert [f.key for f in storage.list("reports/")] == ["reports/r.csv"], "a half-written file was left behind"


def test_a_big_file_streams_in_and_out(storage: Storage) -> None:
    # Past the size kept in memory and the bucket's multipart threshold (8 MB): spooled, uploaded in parts.
    block = bytes(range(256)) * 4096  # 1 MB
    with storage.writing("exports/big.csv") as out:
        for _ in range(9):
            out.write(block)
    assert storage.size("exports/big.csv") == 9 * len(block)
    with storage.open("exports/big.csv") as source:
        assert source.read(len(block)) == block
        assert sum(len(chunk) for chunk in iter(lambda: source.read(65536), b"")) == 8 * len(block)


def test_a_byte_range_is_read_alone(storage: Storage) -> None:
    storage.put("uploads/creatives/v.mp4", b"0123456789")
    with storage.open("uploads/creatives/v.mp4", 2, 5) as source:
        assert source.read() == b"2345"
    with storage.open("uploads/creatives/v.mp4", 7) as source:
        assert source.read() == b"789"


def test_missing_files_are_told_apart(storage: Storage) -> None:
    with pytest.raises(FileNotFoundError):
        storage.read("exports/none.csv")
    with pytest.raises(FileNotFoundError), storage.open("exports/none.csv"):
        pass
    with pytest.raises(FileNotFoundError):
        storage.copy("exports/none.csv", "exports/other.csv")
    with pytest.raises(FileNotFoundError):
        storage.size("exports/none.csv")
    assert not storage.exists("exports/none.csv")
    storage.delete("exports/none.csv")  # no error: deleting is idempotent


def test_delete_copy_and_list_by_prefix(storage: Storage) -> None:
    storage.put("exports/one.csv", b"1")
    storage.put("exports/two.csv", b"22")
    storage.put("reports/run.csv", b"333")
    storage.copy("reports/run.csv", "exports/three.csv")
    assert sorted((f.key, f.size) for f in storage.list("exports/")) == [
        ("exports/one.csv", 1), ("exports/three.csv", 3), ("exports/two.csv", 2)]
    storage.delete("reports/run.csv")
    assert storage.read("exports/three.csv") == b"333", "a copy outlives its source"
    storage.delete("exports/one.csv")
    assert [f.key for f in storage.list("exports/")] == ["exports/three.csv", "exports/two.csv"]
    assert storage.list("nothing/") == []


def test_keys_never_reach_outside_the_files_root(storage: Storage) -> None:
    for bad in ("../etc/passwd", "/etc/passwd", "uploads/../../x", "a\\b", "", "uploads//x", "uploads/./x", "exports/"):
        with pytest.raises(ValueError):
            check_key(bad)
        with pytest.raises(ValueError):
            storage.put(bad, b"x")


def test_the_bucket_keeps_files_under_its_prefix(files_in_bucket: Bucket) -> None:  # noqa: F811
    files_in_bucket.storage.put("uploads/branding/logo.png", b"png")
    assert files_in_bucket.object_names() == ["console/uploads/branding/logo.png"]
    assert [f.key for f in files_in_bucket.storage.list("uploads/")] == ["uploads/branding/logo.png"]


def test_the_local_backend_keeps_the_data_directorys_paths(tmp_path: Path) -> None:
    """Existing data directories keep working: a key is the path under the data directory, as always."""
    (tmp_path / "uploads" / "creatives").mkdir(parents=True)
    (tmp_path / "uploads" / "creatives" / "old.png").write_bytes(b"from before")
    local = LocalStorage(tmp_path)
    assert local.read("uploads/creatives/old.png") == b"from before"
    local.put("exports/new.csv", b"x")
    assert (tmp_path / "exports" / "new.csv").read_bytes() == b"x"


@pytest.mark.parametrize("url", ["ftp://host/x", "s3://", "bucket/prefix", "file://"])
def test_a_files_url_that_names_no_store_is_refused_naming_the_setting(url: str) -> None:
    with pytest.raises(ValueError, match="DSP_FILES_URL"):
        Settings(files_url=url)


def test_a_file_url_keeps_files_under_that_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "files_url", f"file://{tmp_path / 'shared'}")
    get_storage().put("uploads/branding/logo.png", b"png")
    assert (tmp_path / "shared" / "uploads" / "branding" / "logo.png").read_bytes() == b"png"


def test_a_copy_is_as_new_as_the_moment_it_was_made(storage: Storage, tmp_path: Path) -> None:
    """A report generated an hour ago and downloaded now gets an export that the expiry sweep keeps."""
    storage.put("reports/old.csv", b"a")
    path = storage.local_path("reports/old.csv")
    if path is not None:
        an_hour_ago = (utcnow() - timedelta(hours=1)).timestamp()
        os.utime(path, (an_hour_ago, an_hour_ago))
    storage.copy("reports/old.csv", "exports/new.csv")
    copied = storage.stat("exports/new.csv")
    assert copied is not None and utcnow() - copied.modified < timedelta(minutes=5)
