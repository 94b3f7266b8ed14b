"""Device-id files into an audience, streamed: a million ids go in without the file, or a list of its ids, ever
being in memory. The upload is read in fixed chunks and split into lines (iter_lines), each line checked and
made canonical on its own (parse_line), and the valid ids written in batches of BATCH_SIZE with one bulk
insert each that skips ids the audience already has (store_devices). Memory is bounded by one chunk plus one
batch, whatever the file's size.

Mobile advertising ids (Apple's IDFA, Google's GAID) are UUIDs: 32 hex digits, as 8-4-4-4-12 or run together,
in any case, optionally in braces or quotes, with whitespace around. The all-zero id is what a device sends
when the user limited ad tracking: it names no device, so it is refused like a malformed line. A first line
that is a column name ("device_id", "idfa", ...) is skipped.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from sqlalchemy import func
from sqlmodel import Session, select

from app.kernel import csv_uploads
from app.kernel.csv_uploads import refused_lines
from app.kernel.errors import Invalid
from app.supply.models import AudienceDevice
from app.supply.schemas import DeviceUploadRead, RefusedLine

BATCH_SIZE = 10_000  # ids per bulk insert: ~160 KB of keys, a few thousand rows' worth of round trips saved
CHUNK_BYTES = 1 << 16  # how much of the file is read at a time
MAX_LINE_BYTES = 256  # a longer line is no device id: its rest is skipped unread-into-memory, and it counts invalid
MAX_FILE_BYTES = 256 * 1024 * 1024  # ~6.5 million ids a file; append more files for more
SAMPLES = 10  # invalid lines shown back (with their line numbers)
# Column names a first line may hold (compared lower-case, spaces and dashes read as underscores).
HEADERS = frozenset({"device_id", "deviceid", "device_ids", "idfa", "gaid", "aaid", "adid", "ifa", "maid",
                     "advertising_id", "advertisingid", "mobile_ad_id", "id", "ids", "uuid"})
ZERO = bytes(16)
OVERLONG = "\0overlong"  # what iter_lines yields for a line past MAX_LINE_BYTES (no text line contains \0)

_ID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
_WRAPPERS = " \t\r\n\ufeff\"'{}"


def iter_lines(stream: IO[bytes], *, chunk_bytes: int = CHUNK_BYTES, max_line: int = MAX_LINE_BYTES,
               max_bytes: int = MAX_FILE_BYTES) -> Iterator[str]:
    """The lines of a binary stream, read `chunk_bytes` at a time (\\n, \\r\\n and a last line without an end
    all count). A line longer than `max_line` bytes yields OVERLONG and is dropped as it is read; a stream past
    `max_bytes` raises Invalid on `file`. Bytes that are not UTF-8 become U+FFFD (and so an invalid line)."""
    rest = b""
    overlong = False
    total = 0
    while chunk := stream.read(chunk_bytes):
        total += len(chunk)
        if total > max_bytes:
            raise Invalid({"file": f"The file is larger than {max_bytes // (1024 * 1024)} MB. Split it and append "
                                   "the parts one after another."})
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        for part in parts:
            if overlong:
                overlong = False
                yield OVERLONG
            else:
                yield part.decode("utf-8", "replace") if len(part) <= max_line else OVERLONG
        if len(rest) > max_line:
            overlong, rest = True, b""
    if overlong:
        yield OVERLONG
    elif rest:
        yield rest.decode("utf-8", "replace") if len(rest) <= max_line else OVERLONG


def first_cells(stream: IO[bytes]) -> Iterator[str]:
    """iter_lines of a file whose id is its rows' first cell, separated as its start shows (comma, semicolon or tab,
    app/kernel/csv_uploads.py: a spreadsheet's export of ids with a second column). The stream is peeked, not read:
    it must be seekable (an upload spooled by the multipart parser is)."""
    start = stream.read(csv_uploads.SAMPLE_CHARS)
    stream.seek(0)
    separator = csv_uploads.separator_of(start.decode("utf-8", "replace"))
    for line in iter_lines(stream):
        yield line if line == OVERLONG else csv_uploads.first_cell(line, separator)


NO_IDS = "The file holds no device ids (IDFA or GAID, one a line)."


def no_ids(summary: UploadSummary) -> Invalid:
    """The refusal of a file without one id, on `file` (the catalog's words), its message naming the lines refused."""
    return Invalid({"file": NO_IDS}, refused_lines(NO_IDS, [(s.line, s.text, s.reason) for s in summary.samples]))


def parse_line(text: str) -> bytes | str | None:
    """The id's 16 bytes; None for a blank line; or why the line is no device id ("invalid", "zero")."""
    cleaned = text.strip(_WRAPPERS).lower()
    if not cleaned:
        return None
    if not _ID.fullmatch(cleaned):
        return "invalid"
    value = bytes.fromhex(cleaned.replace("-", ""))  # the UUID's bytes; a fifth of uuid.UUID's time a line
    return "zero" if value == ZERO else value


def canonical(device: bytes) -> str:
    """The id as people write it: lower-case 8-4-4-4-12."""
    return str(uuid.UUID(bytes=device))


@dataclass
class UploadSummary:
    lines: int = 0  # lines read, blank ones and the header included
    valid: int = 0  # lines holding a device id (duplicates included)
    invalid: int = 0
    added: int = 0  # ids new to the audience
    duplicates: int = 0  # valid lines whose id was in the file before or in the audience already
    batches: int = 0  # bulk inserts made
    samples: list[RefusedLine] = field(default_factory=list)  # the first invalid lines

    def read(self, *, file: str, at: str) -> DeviceUploadRead:
        """What the file did, as an audience's last upload shows it."""
        return DeviceUploadRead(file=file, lines=self.lines, valid=self.valid, invalid=self.invalid, added=self.added,
                                duplicates=self.duplicates, samples=list(self.samples), at=at)


def _insert_sql(db: Session) -> str:
    """INSERT ... ON CONFLICT DO NOTHING in this database's driver's parameter style: a duplicate id is skipped by
    the database, in the same statement, instead of being looked up first. Sent as driver SQL with a list of
    tuples: SQLAlchemy's per-row parameter processing took two thirds of an upload's time (profiled)."""
    table = AudienceDevice.__tablename__
    marks = "%s, %s" if db.get_bind().dialect.paramstyle in ("format", "pyformat") else "?, ?"
    return f"INSERT INTO {table} (audience_id, device_id) VALUES ({marks}) ON CONFLICT DO NOTHING"


def count_devices(db: Session, audience_id: int) -> int:
    return int(db.exec(select(func.count()).select_from(AudienceDevice)
                       .where(AudienceDevice.audience_id == audience_id)).one())


def store_devices(db: Session, *, audience_id: int, lines: Iterable[str], batch_size: int = BATCH_SIZE,
                  on_batch: Callable[[int], None] | None = None) -> UploadSummary:
    """Check each line, write the valid ids in batches of `batch_size`, and count what happened. `lines` is
    consumed once, lazily (a generator over a file is never materialised). `on_batch(size)` is told of each
    insert. The caller holds the transaction: an error leaves the audience as it was."""
    summary = UploadSummary()
    statement = _insert_sql(db)
    before = count_devices(db, audience_id)
    batch: set[bytes] = set()

    def flush() -> None:
        # In key order: neighbouring inserts land on the same B-tree pages (a fifth faster at a million).
        db.connection().exec_driver_sql(statement, [(audience_id, d) for d in sorted(batch)])
        summary.batches += 1
        if on_batch:
            on_batch(len(batch))
        batch.clear()

    first = True
    for number, text in enumerate(lines, start=1):
        summary.lines = number
        if first and text.strip(_WRAPPERS).lower().replace("-", "_").replace(" ", "_") in HEADERS:
            first = False
            continue
        parsed = parse_line(text) if text != OVERLONG else "invalid"
        if parsed is None:
            continue
        first = False
        if isinstance(parsed, str):
            summary.invalid += 1
            if len(summary.samples) < SAMPLES:
                shown = "…" if text == OVERLONG else text.strip()[:80]
                summary.samples.append(RefusedLine(line=number, text=shown, reason=parsed))
            continue
        summary.valid += 1
        batch.add(parsed)
        if len(batch) >= batch_size:
            flush()
    if batch:
        flush()
    summary.added = count_devices(db, audience_id) - before
    summary.duplicates = summary.valid - summary.added
    return summary
