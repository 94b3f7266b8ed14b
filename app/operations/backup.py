"""`python -m app backup` and `restore`: the entity database, the statistics store and the files in one archive
(archive.py), and back.

A restore refuses an archive whose schema revision differs from this code's unless told (`other_revision`: it
then migrates the restored database to this code's), and refuses to overwrite a console that holds data unless
told (`force`). Every check runs before anything is changed.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from app.kernel.config import get_settings
from app.kernel.db import alembic_config, database_revision, head_revision, migrate
from app.kernel.storage import FOLDERS, get_storage
from app.operations import entity_database, statistics_copy
from app.operations.archive import ArchiveRefused, Manifest, unpack, write_archive

FILES_MEMBER = "files"  # files/<key>: every file of the file store's folders (storage.FOLDERS)


@dataclass(frozen=True)
class Outcome:
    archive: Path
    manifest: Manifest
    files: int
    notes: tuple[str, ...] = ()  # what the operator should know (statistics left on a ClickHouse server)


def default_name(now: datetime | None = None) -> str:
    return f"dsp-backup-{(now or datetime.now(UTC)):%Y%m%dT%H%M%SZ}.tar.gz"


def _all_files() -> list[str]:
    storage = get_storage()
    return [found.key for folder in FOLDERS for found in storage.list(folder + "/")]


def backup(to: Path) -> Outcome:
    """Write an archive at `to` (a folder gets a dated name inside it)."""
    target = to / default_name() if to.is_dir() else to
    target.parent.mkdir(parents=True, exist_ok=True)
    revision = database_revision()
    if revision is None:
        raise ArchiveRefused("the database was never migrated: there is nothing to back up (python -m app migrate)")
    where = statistics_copy.location()
    storage = get_storage()
    # Staged beside the archive: the same disk, so the space needed is visible where the operator chose.
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".dsp-backup-") as folder:
        staged = Path(folder)
        # The statistics first: an embedded store held by a running server refuses before the slower steps.
        statistics_copy.dump(where, staged)
        entity_database.dump(staged)
        # After the database, so every file its rows name is here (one uploaded since is an unused extra).
        kept = 0
        for key in _all_files():
            path = staged / FILES_MEMBER / key
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                with storage.open(key) as source, path.open("wb") as out:
                    shutil.copyfileobj(source, out)
                kept += 1
            except FileNotFoundError:  # removed since it was listed (an expired export, swept meanwhile)
                path.unlink(missing_ok=True)
        manifest = Manifest(app_version=version("dsp-console"), alembic_revision=revision,
                            database=entity_database.kind(), statistics=where.kind,
                            statistics_included=statistics_copy.included(where),
                            created=datetime.now(UTC).isoformat(timespec="seconds"))
        write_archive(target, staged, manifest)
    notes = () if manifest.statistics_included else (statistics_copy.CLICKHOUSE_ADVICE,)
    return Outcome(target, manifest, kept, notes)


def _refuse_other_revision(manifest: Manifest, archive: Path, other_revision: bool) -> None:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError


    head = head_revision()
    if manifest.alembic_revision == head:
        return
    if not other_revision:
        raise ArchiveRefused(
            f"{archive} holds a database at schema revision {manifest.alembic_revision} (DSP Console "
            f"{manifest.app_version}); this code's is {head}. Restore it with the version that made it, or pass "
            f"--other-revision to restore it here and migrate it to {head}")
    try:
        ScriptDirectory.from_config(alembic_config()).get_revision(manifest.alembic_revision)
    except CommandError:
        raise ArchiveRefused(
            f"{archive} holds a database at schema revision {manifest.alembic_revision}, which this code does not "
            f"know (a newer version made it): restore it with DSP Console {manifest.app_version} or later") from None


def restore(archive: Path, *, force: bool = False, other_revision: bool = False) -> Outcome:
    """Put the archive's database, statistics and files in place of the configured ones, then migrate."""
    where = statistics_copy.location()
    # Unpacked in the data directory: the disk the restored data goes to, not a /tmp that may be small.
    with tempfile.TemporaryDirectory(dir=get_settings().data_dir, prefix=".dsp-restore-") as folder:
        unpacked = Path(folder)
        manifest = unpack(archive, unpacked)  # every checksum checked before anything changes
        _refuse_other_revision(manifest, archive, other_revision)
        if manifest.database != entity_database.kind() or (
                manifest.statistics_included and manifest.statistics != where.kind):
            raise ArchiveRefused(
                f"{archive} holds a {manifest.database} database and a {manifest.statistics} statistics store; this "
                f"console is configured for {entity_database.kind()} and {where.kind} (DATABASE_URL, "
                "DSP_STATISTICS_URL): configure the same kinds to restore it")
        if not force:
            held = [name for name, empty in (
                ("the database", entity_database.is_empty()),
                ("the statistics store", not manifest.statistics_included or statistics_copy.is_empty(where)),
                ("the file store", not _all_files())) if not empty]
            if held:
                raise ArchiveRefused(f"{' and '.join(held)} of this console already hold data: pass --force to "
                                     "replace it with the archive's (what is there now is lost)")
        if manifest.statistics_included:
            statistics_copy.load(where, unpacked)
        entity_database.load(unpacked)
        storage = get_storage()
        for key in _all_files():
            storage.delete(key)
        restored = sorted(name.removeprefix(FILES_MEMBER + "/") for name in manifest.checksums
                          if name.startswith(FILES_MEMBER + "/"))
        for key in restored:
            with (unpacked / FILES_MEMBER / key).open("rb") as source, storage.writing(key) as out:
                shutil.copyfileobj(source, out)
    migrate()
    notes = () if manifest.statistics_included else (statistics_copy.CLICKHOUSE_ADVICE,)
    return Outcome(archive, manifest, len(restored), notes)
