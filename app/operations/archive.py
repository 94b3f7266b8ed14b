"""A backup archive: one gzipped tar with a manifest (what made it, when, which schema, and a SHA-256 of every
other member) written first. A reader checks every checksum before anything is restored, so a damaged or
tampered archive is refused whole instead of restoring half of it.

tar over zip: the standard library streams it member by member (a big statistics export never sits in memory),
keeps file modes, and `tar tzf` lists it on any server.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import tarfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "manifest.json"
FORMAT = 1  # bumped when the layout changes, so an older reader refuses a newer archive by name
CHUNK_BYTES = 1 << 20
# gzip's fastest level: the big members come compressed already (Parquet, ClickHouse parts, pg_dump's custom
# format, images), and level 9 (tarfile's default) spent 3 s of a 5 s backup squeezing them into 4 % less (measured:
# bench/backup_restore.py); the SQLite file still shrinks several times at level 1.
COMPRESS_LEVEL = 1


class ArchiveRefused(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


@dataclass
class Manifest:
    app_version: str
    alembic_revision: str  # the entity database's schema revision when it was copied
    database: str  # "sqlite" | "postgresql"
    statistics: str  # the store's kind: "duckdb" | "chdb" | "clickhouse"
    statistics_included: bool  # False for a ClickHouse server: its own BACKUP keeps those (README)
    created: str  # UTC, ISO 8601
    format: int = FORMAT
    checksums: dict[str, str] = field(default_factory=dict)  # member name -> SHA-256 (hex)


def _checksum(path: Path) -> str:
    """SHA-256 of a file's bytes, or of a symbolic link's target (chDB's directory links tables into store/)."""
    digest = hashlib.sha256()
    if path.is_symlink():
        digest.update(b"symlink:" + os.readlink(path).encode())
        return digest.hexdigest()
    with path.open("rb") as source:
        while chunk := source.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def _members(staged: Path) -> list[Path]:
    # rglob does not descend through symbolic links (before Python 3.13): each is one member, kept as a link.
    return sorted(path for path in staged.rglob("*") if path.is_symlink() or path.is_file())


def write_archive(target: Path, staged: Path, manifest: Manifest) -> None:
    """Every file under `staged` into `target` (names relative to `staged`), after the manifest with their
    checksums. Written beside `target` and renamed: an interrupted backup leaves no archive that looks whole."""
    files = _members(staged)
    manifest.checksums = {path.relative_to(staged).as_posix(): _checksum(path) for path in files}
    partial = target.with_name(f".{target.name}.part")
    try:
        # Readable by its owner only: it holds password hashes, sessions and encrypted DSP credentials.
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out, \
                tarfile.open(fileobj=out, mode="w:gz", compresslevel=COMPRESS_LEVEL) as tar:
            data = json.dumps(dataclasses.asdict(manifest), indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(data), int(os.path.getmtime(staged))
            tar.addfile(info, io.BytesIO(data))
            for path in files:
                tar.add(path, arcname=path.relative_to(staged).as_posix(), recursive=False)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def read_manifest(archive: Path) -> Manifest:
    """The archive's manifest (read from its first member, without unpacking the rest)."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            first = tar.next()
            if first is None or first.name != MANIFEST:
                raise ArchiveRefused(f"{archive} is not a DSP Console backup: it has no {MANIFEST} first")
            source = tar.extractfile(first)
            assert source is not None
            fields = json.loads(source.read())
    except FileNotFoundError:
        raise ArchiveRefused(f"{archive}: no such file") from None
    except (tarfile.TarError, EOFError, OSError, zlib.error, ValueError) as error:
        raise ArchiveRefused(f"{archive} is damaged or not a backup archive ({error}); nothing was restored") from None
    if not isinstance(fields, dict) or fields.get("format") != FORMAT:
        raise ArchiveRefused(f"{archive} has backup format {fields.get('format') if isinstance(fields, dict) else '?'}"
                             f"; this version reads format {FORMAT}")
    try:
        return Manifest(**fields)
    except TypeError as error:
        raise ArchiveRefused(f"{archive} has a manifest this version cannot read ({error})") from None


def unpack(archive: Path, into: Path) -> Manifest:
    """Unpack the archive into the empty folder `into` and check every member against the manifest: the same
    names, the same SHA-256. ArchiveRefused (naming the first difference) when anything differs."""
    manifest = read_manifest(archive)
    try:
        with tarfile.open(archive, "r:gz") as tar:
            # The "data" filter refuses absolute names, "..", links out of the folder and device files.
            tar.extractall(into, filter="data")
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise ArchiveRefused(f"{archive} is damaged ({error}); nothing was restored") from None
    found = {path.relative_to(into).as_posix() for path in _members(into)} - {MANIFEST}
    missing, extra = sorted(set(manifest.checksums) - found), sorted(found - set(manifest.checksums))
    if missing:  # tar reads a damaged header as the end of the archive: the members after it are "missing"
        raise ArchiveRefused(f"{archive} is damaged: {len(missing)} of the files its manifest lists are missing or "
                             f"unreadable (the first: {missing[0]}); nothing was restored")
    if extra:
        raise ArchiveRefused(f"{archive} does not match its manifest: it holds files the manifest does not list "
                             f"(the first: {extra[0]}); nothing was restored")
    for name, expected in manifest.checksums.items():
        if _checksum(into / name) != expected:
            raise ArchiveRefused(f"{archive} is damaged: {name} does not match its checksum; nothing was restored")
    return manifest
