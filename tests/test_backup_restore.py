"""Backups that restore (issue 25): a console with demo data and simulated statistics is backed up, wiped (its data
directory, and its PostgreSQL database in that pass) and restored from the archive alone, and shows the same
users, campaigns, balances, dashboards (to the cent) and files. A damaged archive is refused whole, naming the
damage; a console that holds data, and an archive of another schema revision, are refused unless told."""

from __future__ import annotations

import fcntl
import io
import json
import tarfile
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from app.kernel.config import get_settings
from app.kernel.db import head_revision
from app.operations import backup, statistics_copy
from app.operations.archive import MANIFEST, ArchiveRefused, read_manifest, unpack
from app.warehouse import StoreLocation
from tests.fake_s3 import KEY_ID, REGION, SECRET, bucket_client
from tests.fake_s3 import s3_endpoint as s3_endpoint  # noqa: F401  (fixture)
from tests.scratch_console import Console, scratch_console

TODAY = datetime.now(UTC).date()
PERIOD = ((TODAY - timedelta(days=2)).isoformat(), TODAY.isoformat())


@pytest.fixture(scope="module")
def backed_up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Console, Path, dict[str, object]]]:
    """(the console, its archive, its figures when backed up): demo data, a day of simulated delivery."""
    folder = tmp_path_factory.mktemp("backup")
    with scratch_console(folder) as console:
        console.ok(["migrate"], ["seed-demo"], ["simulate", "--days", "1"])
        before = console.figures(*PERIOD)
        said = console.ok(["backup", "--to", str(folder / "archive.tar.gz")])
        assert "backup written" in said
        yield console, folder / "archive.tar.gz", before


def test_a_wiped_console_restored_from_its_archive_shows_the_same_data(backed_up) -> None:
    console, archive, before = backed_up
    assert before["dashboards"]["advertiser@demo.example"]["totals"]["spend_micros"] > 0  # there was delivery
    assert before["files"]  # and uploaded creatives

    console.wipe()
    said = console.ok(["restore", str(archive)])

    assert "restored" in said
    assert console.figures(*PERIOD) == before
    # A second restore onto data is refused, naming the way to overwrite; told to, it puts the archive's back.
    console.ok(["create-admin", "later@demo.example", "--password", "Later-Pass-2026"])
    again = console.run(["restore", str(archive)])
    assert again.returncode == 1 and "already hold data: pass --force" in again.stderr
    console.ok(["restore", str(archive), "--force"])
    assert console.figures(*PERIOD) == before  # the admin made after the backup is gone


def test_the_manifest_says_what_made_the_archive(backed_up) -> None:
    _, archive, _ = backed_up
    assert archive.stat().st_mode & 0o777 == 0o600  # password hashes and sessions: its owner's eyes only
    manifest = read_manifest(archive)
    assert manifest.alembic_revision == head_revision()
    assert manifest.database == ("postgresql" if get_settings().sqlalchemy_url.startswith("postgresql") else "sqlite")
    assert manifest.statistics == "duckdb" and manifest.statistics_included
    assert any(name.startswith("files/uploads/") for name in manifest.checksums)


@pytest.mark.parametrize("damage", ["truncated", "bytes changed", "a member changed"])
def test_a_damaged_archive_is_refused_before_anything_is_restored(backed_up, tmp_path: Path, damage: str) -> None:
    _, archive, _ = backed_up
    damaged = tmp_path / "damaged.tar.gz"
    data = archive.read_bytes()
    if damage == "truncated":
        damaged.write_bytes(data[: len(data) * 2 // 3])
    elif damage == "bytes changed":
        middle = len(data) // 2
        damaged.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 16]) + data[middle + 16:])
    else:  # a well-formed archive whose database differs from the manifest's checksum
        _rewrite(archive, damaged, change_member="database/")
    with pytest.raises(ArchiveRefused, match="damaged|does not match") as refusal:
        unpack(damaged, tmp_path / "unpacked")
    assert "nothing was restored" in str(refusal.value)


def test_the_command_names_a_damaged_archive(backed_up, tmp_path: Path) -> None:
    console, archive, _ = backed_up
    damaged = tmp_path / "damaged.tar.gz"
    damaged.write_bytes(archive.read_bytes()[:-4000])
    done = console.run(["restore", str(damaged), "--force"])
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"{damaged} is damaged (Compressed file ended before the end-of-stream marker was reached); "
        "nothing was restored")


def test_an_archive_of_another_schema_revision_is_refused_unless_told(backed_up, tmp_path: Path) -> None:
    _, archive, _ = backed_up
    older = tmp_path / "older.tar.gz"
    _rewrite(archive, older, revision="0016")
    # Refused before anything is looked at or changed (so safe to ask of the suite's own console).
    with pytest.raises(ArchiveRefused, match="--other-revision to restore it here and migrate it to") as refusal:
        backup.restore(older)
    assert "schema revision 0016" in str(refusal.value)
    unknown = tmp_path / "newer.tar.gz"
    _rewrite(archive, unknown, revision="9999_from_the_future")
    with pytest.raises(ArchiveRefused, match="which this code does not know"):
        backup.restore(unknown, other_revision=True)


def test_a_backup_refuses_while_another_process_holds_the_statistics_file(backed_up, tmp_path: Path) -> None:
    console, _, _ = backed_up
    with duckdb.connect(str(console.data_dir / "analytics.duckdb")):  # as the running server holds it
        done = console.run(["backup", "--to", str(tmp_path)])
    assert done.returncode == 1
    assert "held by another process" in done.stderr and "Stop the server for the backup" in done.stderr
    assert not list(tmp_path.iterdir())  # no archive that looks whole, no staging left behind


def test_a_backup_refuses_while_another_process_has_the_chdb_directory_open(tmp_path: Path) -> None:
    directory = tmp_path / "statistics.chdb"
    directory.mkdir()
    with (directory / "status").open("wb") as status:
        fcntl.flock(status, fcntl.LOCK_EX)  # what ClickHouse's engine holds while it has the directory open
        with pytest.raises(ArchiveRefused, match="held by another process"):
            statistics_copy.dump(StoreLocation("chdb", directory), tmp_path / "staged")
    assert not (tmp_path / "staged").exists()


def test_chdb_statistics_and_files_in_a_bucket_come_back_too(tmp_path: Path, s3_endpoint: str) -> None:  # noqa: F811
    bucket = f"dsp-backup-{uuid.uuid4().hex[:8]}"
    client = bucket_client(s3_endpoint)
    client.create_bucket(Bucket=bucket)
    with scratch_console(tmp_path, DSP_STATISTICS_URL="chdb:///statistics.chdb", DSP_FILES_URL=f"s3://{bucket}/console",
                         DSP_FILES_S3_ENDPOINT_URL=s3_endpoint, DSP_FILES_S3_REGION=REGION,
                         DSP_FILES_S3_ACCESS_KEY_ID=KEY_ID, DSP_FILES_S3_SECRET_ACCESS_KEY=SECRET) as console:
        console.ok(["migrate"], ["seed-demo"], ["simulate", "--days", "1"])
        before = console.figures(*PERIOD)
        assert before["files"] and before["dashboards"]["admin@demo.example"]["totals"]["spend_micros"] > 0
        archive = tmp_path / "fleet.tar.gz"
        console.ok(["backup", "--to", str(archive)])

        console.wipe()
        for name in [item["Key"] for item in client.list_objects_v2(Bucket=bucket).get("Contents", [])]:
            client.delete_object(Bucket=bucket, Key=name)
        console.ok(["restore", str(archive)])

        assert console.figures(*PERIOD) == before
        assert read_manifest(archive).statistics == "chdb"


def test_statistics_on_a_clickhouse_server_are_left_to_its_own_backup_and_the_operator_is_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No server at this address: a backup must not even connect to it (the suite's own database and files go in).
    monkeypatch.setattr(get_settings(), "statistics_url", "clickhouse://dsp:secret@127.0.0.1:9/dsp")
    done = backup.backup(tmp_path)
    manifest = read_manifest(done.archive)
    assert manifest.statistics == "clickhouse" and not manifest.statistics_included
    assert not any(name.startswith("statistics/") for name in manifest.checksums)
    assert done.notes == (statistics_copy.CLICKHOUSE_ADVICE,) and "BACKUP DATABASE" in done.notes[0]


def _rewrite(archive: Path, to: Path, *, revision: str | None = None, change_member: str | None = None) -> None:
    """A copy of `archive` with its manifest's revision changed, or one member's bytes changed (checksums kept)."""
    with tarfile.open(archive, "r:gz") as source, tarfile.open(to, "w:gz") as out:
        for member in source.getmembers():
            data = source.extractfile(member).read()  # type: ignore[union-attr]
            if member.name == MANIFEST and revision:
                fields = json.loads(data)
                fields["alembic_revision"] = revision
                data = json.dumps(fields).encode()
            elif change_member and member.name.startswith(change_member):
                data = data[:-1] + bytes([data[-1] ^ 1])
                change_member = None
            member.size = len(data)
            out.addfile(member, io.BytesIO(data))


