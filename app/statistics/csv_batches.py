"""Statistics batches as CSV: up to a million lines in one batch, read and checked a chunk at a time.

The rules are ingestion's (a bad line refuses the whole batch naming "line <n>.<field>", the header being line 1, as
a spreadsheet numbers them). Only the speed is this module's: a chunk of lines is first checked column by column —
each column's distinct values once (a batch repeats its hours, countries, exchanges and ids on most of its lines),
the counts by whole-column string tests in C — and its rows are built from the checked columns. A chunk where that
finds anything wrong is checked again line by line by ingestion's RowChecker, which names each problem exactly as
it always has: the fast path changes no answer, only the time (bench/ingest_batch.py: a million lines through the
API). Hand-written because no CSV library checks cells against the console's own rules (ids owned by the
advertiser, ISO countries, whole counts) and names the line and field of each problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from typing import Any, TypeVar

from sqlmodel import Session

from app.access.policy import Actor, require
from app.kernel import csv_uploads
from app.kernel.errors import Invalid
from app.kernel.gc_pause import gc_paused
from app.statistics import ingestion
from app.statistics.ingestion import EXTRA_CELLS, NO_EVENTS, RowChecker, count_of
from app.statistics.schemas import BatchStored, RowValue
from app.warehouse.base import FactRow
from app.warehouse.schema import DEVICE_COLUMN, DEVICE_TYPES, EVENT_PREFIX, MEASURES, PLACEMENT_COLUMNS

CSV_COLUMNS = ("hour", *PLACEMENT_COLUMNS, *MEASURES)
MAX_CSV_ROWS = 1_000_000
MAX_CSV_BYTES = 256 * 2**20  # ~110 bytes a line at a million lines, with room for long app names and events
CHUNK = 50_000  # lines read, checked and turned into rows together: what is held besides the rows built
_COUNT_DIGITS = len(str(ingestion.MAX_COUNT)) - 1  # 12 digits are always within MAX_COUNT (10**12)
_DEVICES = frozenset(DEVICE_TYPES)
_IDS = ("advertiser_id", "campaign_id", "creative_id")
T = TypeVar("T")


@dataclass(frozen=True)
class _Header:
    width: int
    names: list[str]
    columns: dict[str, int]  # CSV_COLUMNS -> position
    events: list[tuple[str, int]]  # event name -> position
    device: int | None  # the optional hashed device id's position


def _header(reader: Any) -> _Header:
    names = [name.strip() for name in next(reader, [])]
    missing = [c for c in CSV_COLUMNS if c not in names]
    unknown = [c for c in names if c not in (*CSV_COLUMNS, DEVICE_COLUMN) and not c.startswith(EVENT_PREFIX)]
    if missing or unknown or len(set(names)) != len(names):
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(unknown)}"] if unknown else []) + (
            ["a column named twice"] if len(set(names)) != len(names) else [])
        raise Invalid({"line 1": f"Header: {'; '.join(problems)}."})
    return _Header(len(names), names, {key: names.index(key) for key in CSV_COLUMNS},
                   [(name.removeprefix(EVENT_PREFIX), index) for index, name in enumerate(names)
                    if name.startswith(EVENT_PREFIX)], names.index(DEVICE_COLUMN) if DEVICE_COLUMN in names else None)


def _as_row(header: _Header, record: list[str]) -> dict[str, RowValue]:
    """A line as ingestion's row: its cells by column name, event_<name> cells as its events."""
    if len(record) > header.width:
        return {**dict(zip(header.names, record, strict=False)), EXTRA_CELLS: ""}
    record = record + [""] * (header.width - len(record))  # missing cells read as empty, as a spreadsheet shows
    row: dict[str, RowValue] = {key: record[index] for key, index in header.columns.items()}
    if header.device is not None and record[header.device]:
        row[DEVICE_COLUMN] = record[header.device]
    if header.events:
        row["events"] = {name: (record[index] or "0").strip() for name, index in header.events}
    return row


class _NotPlain(Exception):
    """A cell the column check does not pass: its chunk is checked line by line instead."""


def _counts(column: Sequence[str], *, empty_is_zero: bool = False) -> list[int]:
    """A column of whole counts as ints, unless a cell is not plain ASCII digits of at most 12 (the line by line
    check then names it, also accepting the spaces around a number that this test does not)."""
    joined = "".join(column)
    if (joined and not (joined.isascii() and joined.isdigit())) or max(map(len, column)) > _COUNT_DIGITS:
        raise _NotPlain
    if empty_is_zero:
        return [int(cell) if cell else 0 for cell in column]
    if min(map(len, column)) == 0:
        raise _NotPlain
    return list(map(int, column))


class _ColumnChecker:
    """A chunk checked column by column with the row checker's own checks and caches (distinct values once)."""

    def __init__(self, rows: RowChecker, header: _Header) -> None:
        self.rows = rows
        self.header = header
        self.ids: dict[str, int | None] = {}

    @staticmethod
    def _mapped(column: Sequence[str], check: Callable[[str], T | None]) -> list[T]:
        """The column's cells mapped through check(each distinct value), unless it gives None for one."""
        checked: dict[str, T] = {}
        for value in set(column):
            clean = check(value)
            if clean is None:
                raise _NotPlain
            checked[value] = clean
        return list(map(checked.__getitem__, column))

    def _hour(self, value: str) -> datetime | None:
        hour, problem = self.rows.hour(value)
        return None if problem else hour

    def _id(self, value: str) -> int | None:
        if value not in self.ids:
            self.ids[value] = count_of(value)
        return self.ids[value]

    def facts(self, records: list[list[str]]) -> list[FactRow] | None:
        """The chunk's rows, or None if any line is not plainly right (then it is checked line by line)."""
        try:
            return self._facts(records)
        except _NotPlain:
            return None

    def _facts(self, records: list[list[str]]) -> list[FactRow]:
        header, rows = self.header, self.rows
        if any(len(record) != header.width for record in records):
            raise _NotPlain
        cells = list(zip(*records, strict=True))
        column = {key: cells[index] for key, index in header.columns.items()}
        hours = self._mapped(column["hour"], self._hour)
        advertisers, campaigns, creatives = (self._mapped(column[key], self._id) for key in _IDS)
        exchanges, systems, apps = (self._mapped(column[key], rows.text) for key in ("exchange", "os", "app"))
        countries = self._mapped(column["country"], rows.country)
        if not set(column["device_type"]) <= _DEVICES:
            raise _NotPlain
        impressions, clicks, spend, conversions = (_counts(column[key]) for key in MEASURES)
        # Device ids are mostly distinct: checked each, as the row checker does.
        devices = (self._mapped(cells[self.header.device], rows.device_id) if self.header.device is not None
                   else [""] * len(records))
        owners = rows.owners
        owners.learn({"advertiser_id": set(advertisers), "campaign_id": set(campaigns),
                      "creative_id": set(creatives) - {0}})
        allowed = rows.allowed
        if (any(a not in owners.advertisers or (allowed is not None and a not in allowed) for a in set(advertisers))
                or any(owners.campaigns.get(c) != a for a, c in set(zip(advertisers, campaigns, strict=True)))
                or any(c and owners.creatives.get(c) != a for a, c in set(zip(advertisers, creatives, strict=True)))):
            raise _NotPlain
        return list(map(FactRow, hours, advertisers, campaigns, creatives, exchanges, systems, countries, apps,
                        column["device_type"], impressions, clicks, spend, conversions,
                        self._events(cells, len(records)), devices))

    def _events(self, cells: list[tuple[str, ...]], count: int) -> list[Mapping[str, int]]:
        """Each line's events (the shared empty mapping where it has none)."""
        if not self.header.events:
            return [NO_EVENTS] * count
        named = [(name, _counts(cells[index], empty_is_zero=True)) for name, index in self.header.events]
        return [{name: counts[line] for name, counts in named if counts[line]} or NO_EVENTS
                for line in range(count)]


def _chunks(text: str) -> Iterator[tuple[_Header, list[list[str]], list[int]]]:
    """The CSV's data lines a chunk at a time, with the line number each starts on (blank lines skipped)."""
    _separator, reader = csv_uploads.rows(text, field="body")  # comma, semicolon or tab, as the spreadsheet saved it
    header = _header(reader)
    while True:
        records: list[list[str]] = []
        lines: list[int] = []
        for record in islice(reader, CHUNK):
            if record:
                records.append(record)
                lines.append(reader.line_num)
        if not records:
            return
        yield header, records, lines


def check_csv(db: Session, text: str, allowed_advertisers: set[int] | None = None) -> list[FactRow]:
    """FactRows of a statistics CSV, or Invalid naming "line <n>.<field>" for each problem (the first 20) or
    `body` for a CSV without lines or with more than MAX_CSV_ROWS."""
    rows = RowChecker(ingestion.Owners(db), allowed_advertisers)
    facts: list[FactRow] = []
    columns: _ColumnChecker | None = None
    read = 0
    for header, records, lines in _chunks(text):
        columns = columns or _ColumnChecker(rows, header)
        read += len(records)
        ingestion.too_many(read, "body", MAX_CSV_ROWS)
        fast = columns.facts(records) if not rows.problems.total else None
        if fast is not None:
            facts.extend(fast)
            continue
        labelled = [(f"line {line}", _as_row(header, record)) for line, record in zip(lines, records, strict=True)]
        rows.owners.read(labelled)
        facts.extend(fact for label, row in labelled if (fact := rows.check(label, row)) is not None)
    rows.problems.raise_if_any()
    ingestion.too_many(len(facts), "body", MAX_CSV_ROWS)
    return facts


def ingest_csv(db: Session, *, actor: Actor, batch_id: str, text: str, source: str = "csv") -> BatchStored:
    """ingestion.ingest_batch for a CSV with a header row (CSV_COLUMNS, then optionally `device` and any
    event_<name> columns) of up to MAX_CSV_ROWS lines."""
    require(actor, "statistics", "ingest")
    ingestion.check_batch_id(batch_id)
    with gc_paused():  # a million rows are millions of objects that no cycle joins (app/kernel/gc_pause.py)
        facts = check_csv(db, text)
        return ingestion.store_and_charge(db, batch_id=batch_id, facts=facts, source=source, actor=actor)

