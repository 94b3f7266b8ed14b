"""Delivery statistics coming in: batches of hourly rows (JSON or CSV) checked whole, stored, and charged.

A batch is all or nothing: every row is checked before anything is written, and a bad row refuses the batch
naming the row and the field. A batch id names the batch for good: sending it again writes nothing and
answers the first receipt (duplicate), and its spend is charged at most once (the ledger's reference is the
batch id), so a client whose connection broke may always retry.

Four writers share the checks and the write: the ingestion API (admin; its CSV call in csv_batches.py),
conversion postbacks (postback_ingest.py: the token is the credential), counted clicks and the simulator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from itertools import islice
from types import MappingProxyType
from typing import Any, TypeVar

import pycountry
from sqlmodel import Session, col, select

from app.access.models import User
from app.access.policy import Actor, require
from app.access.roles import Role
from app.campaigns.models import Campaign
from app.creatives.models import Creative
from app.funds import service as funds
from app.history import audit
from app.kernel.errors import Invalid
from app.kernel.halt_points import halt_point
from app.kernel.metrics import INGESTED_ROWS
from app.statistics.schemas import BatchStored, RowValue
from app.warehouse import get_store
from app.warehouse.base import FactRow
from app.warehouse.schema import (
    DEVICE_COLUMN,
    DEVICE_ID_PATTERN,
    DEVICE_TYPES,
    EVENT_NAME_PATTERN,
    MEASURES,
    PLACEMENT_COLUMNS,
)

MAX_ROWS = 50_000  # a JSON batch: every row an object, parsed and held whole before it is checked (CSV: csv_batches)
MAX_PROBLEMS = 20  # a batch with thousands of bad rows names the first ones, not all of them
MAX_TEXT = 200  # exchange, os and app names
MAX_COUNT = 10**12  # far above any hour of one placement; keeps sums inside BIGINT
MAX_EVENTS_PER_ROW = 50
BATCH_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
_EVENT_NAME = re.compile(EVENT_NAME_PATTERN)
ROW_FIELDS = ("hour", *PLACEMENT_COLUMNS, *MEASURES, "events", DEVICE_COLUMN)
OPTIONAL_FIELDS = ("events", DEVICE_COLUMN)
_DEVICE_ID = re.compile(DEVICE_ID_PATTERN)
EXTRA_CELLS = "cells"  # the field a CSV line with more cells than the header is refused under

BAD_BATCH_ID = "Use 1 to 100 letters, digits and - _ . : characters."
BAD_HOUR = "Give an ISO 8601 time with its UTC offset, e.g. 2026-11-10T14:00:00Z."
NOT_ON_THE_HOUR = "Give the start of an hour (minutes and seconds 0)."
NOT_A_COUNT = "Give a whole number, 0 or more."
NOT_A_COUNTRY = "Not an ISO country code."
NOT_A_DEVICE = f"Use one of: {', '.join(DEVICE_TYPES)}."
NO_ADVERTISER = "No such advertiser."
NO_CAMPAIGN = "No such campaign of this advertiser."
NO_CREATIVE = "Use 0 or a creative of this advertiser."
REQUIRED = "This field is required."
NOT_A_DEVICE_ID = ("Give the device id hashed (e.g. the SHA-256 of the advertising id) as 16 to 64 hex digits, "
                   "or leave it out.")

T = TypeVar("T")


def parse_hour(value: Any) -> datetime | None:
    """An hour as a naive UTC datetime on the hour, or None. Text must carry its offset (Z or +hh:mm): a time
    without one could be any of 24 hours, and a guess would put delivery on the wrong day."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(UTC).replace(tzinfo=None)


def count_of(value: Any) -> int | None:
    """A non-negative whole number from JSON (int) or CSV (digits); None otherwise. 2.0 and True are refused:
    a fraction of an impression means the sender computed something wrong."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and (text := value.strip()).isascii() and text.isdigit():
        number = int(text)  # ASCII digits only: "²" is a digit to isdigit() and not to int()
    else:
        return None
    return number if 0 <= number <= MAX_COUNT else None


class _Problems:
    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.total = 0

    def add(self, key: str, message: str) -> None:
        self.total += 1
        if len(self.fields) < MAX_PROBLEMS:
            self.fields[key] = message

    def raise_if_any(self) -> None:
        if self.total:
            shown = "" if self.total <= MAX_PROBLEMS else f"; the first {MAX_PROBLEMS} are listed"
            raise Invalid(self.fields, f"Batch refused, nothing was stored: {self.total} problem"
                                       f"{'s' if self.total > 1 else ''}{shown}.")


class Owners:
    """Advertiser ids, campaign -> advertiser and creative -> advertiser for the ids rows name, read a chunk of
    rows at a time (one query per kind and 500 ids: SQLite limits a statement's parameters) and kept for the
    batch, so a million rows naming a few thousand campaigns ask the database a few times."""

    def __init__(self, db: Session) -> None:
        self.db = db
        self.advertisers: set[int] = set()
        self.campaigns: dict[int, int] = {}
        self.creatives: dict[int, int] = {}
        self._asked: dict[str, set[int]] = {"advertiser_id": set(), "campaign_id": set(), "creative_id": set()}

    def read(self, rows: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Learn the ids these (label, row) pairs name."""
        self.learn({key: {i for _, row in rows if isinstance(row, Mapping) and (i := count_of(row.get(key))) is not None}
                    for key in self._asked})

    def learn(self, ids: Mapping[str, set[int]]) -> None:
        """Look up the ids not asked about before: {"advertiser_id": {...}, "campaign_id": ..., "creative_id": ...}."""
        def new(key: str) -> list[int]:
            found = ids.get(key, set()) - self._asked[key]
            self._asked[key] |= found
            return sorted(found)

        db = self.db
        for part in _chunks(new("advertiser_id"), 500):
            self.advertisers |= {i for i in db.exec(select(col(User.id)).where(col(User.id).in_(part),
                                                                               User.role == Role.ADVERTISER)) if i}
        for part in _chunks(new("campaign_id"), 500):
            self.campaigns.update((i, a) for i, a in db.exec(
                select(col(Campaign.id), Campaign.advertiser_id).where(col(Campaign.id).in_(part))) if i)
        for part in _chunks([i for i in new("creative_id") if i], 500):
            self.creatives.update((i, a) for i, a in db.exec(
                select(col(Creative.id), Creative.advertiser_id).where(col(Creative.id).in_(part))) if i)


def _chunks(values: Sequence[T], size: int) -> Iterable[Sequence[T]]:
    for start in range(0, len(values), size):
        yield values[start:start + size]


_FIELDS = frozenset(ROW_FIELDS)
_REQUIRED = frozenset(ROW_FIELDS) - set(OPTIONAL_FIELDS)
_DEVICES = frozenset(DEVICE_TYPES)
NO_EVENTS: Mapping[str, int] = MappingProxyType({})  # shared by every row without events (most rows)
_MISSING = object()


class RowChecker:
    """One batch's rows checked one by one into FactRows. The values a batch repeats on most of its rows (its hours,
    countries, exchanges, apps, ids) are checked once each and the checked value kept, which also makes rows
    share one object per value: a million rows of CSV hold a few thousand strings, not nine million."""

    def __init__(self, owners: Owners, allowed_advertisers: set[int] | None) -> None:
        self.owners = owners
        self.allowed = allowed_advertisers
        self.problems = _Problems()
        self.hours: dict[Any, tuple[datetime | None, str | None]] = {}
        self.texts: dict[Any, str | None] = {}
        self.countries: dict[Any, str | None] = {}

    def hour(self, value: Any) -> tuple[datetime | None, str | None]:
        """The hour and the problem with it, if any."""
        known = self.hours.get(value, _MISSING) if isinstance(value, str) else _MISSING
        if known is not _MISSING:
            return known  # type: ignore[return-value]
        hour = parse_hour(value)
        checked = (hour, BAD_HOUR if hour is None else
                   NOT_ON_THE_HOUR if hour.minute or hour.second or hour.microsecond else None)
        if isinstance(value, str):
            self.hours[value] = checked
        return checked

    def text(self, value: Any) -> str | None:
        """A name stripped, or None when it is no name."""
        known = self.texts.get(value, _MISSING) if isinstance(value, str) else _MISSING
        if known is _MISSING:
            known = value.strip() if isinstance(value, str) and value.strip() and len(value) <= MAX_TEXT else None
            if isinstance(value, str):
                self.texts[value] = known
        return known  # type: ignore[return-value]

    def country(self, value: Any) -> str | None:
        """The ISO code upper-cased, or None when it is none."""
        known = self.countries.get(value, _MISSING) if isinstance(value, str) else _MISSING
        if known is _MISSING:
            code = value.strip().upper() if isinstance(value, str) else ""
            known = code if len(code) == 2 and pycountry.countries.get(alpha_2=code) is not None else None
            if isinstance(value, str):
                self.countries[value] = known
        return known  # type: ignore[return-value]

    @staticmethod
    def device_id(value: Any) -> str | None:
        """A hashed device id lower-cased ("" for none given), or None when it is not one."""
        if value is None or value == "":
            return ""
        text = value.strip().lower() if isinstance(value, str) else None
        return text if text is not None and (not text or _DEVICE_ID.match(text)) else None

    def check(self, label: str, original: Any) -> FactRow | None:
        """The row's FactRow, or None with its problems added under "<label>.<field>"."""
        problems = self.problems
        dot = "." if label else ""
        if not isinstance(original, Mapping):
            problems.add(label, "Give each row as an object.")
            return None
        row = original
        keys = row.keys()
        if not keys <= _FIELDS:
            for key in sorted(set(keys) - _FIELDS):
                problems.add(f"{label}{dot}{key}",
                             "More cells than header columns." if key == EXTRA_CELLS else "Unknown field.")
        if not keys >= _REQUIRED:
            for key in ROW_FIELDS:
                if key not in row and key not in OPTIONAL_FIELDS:
                    problems.add(f"{label}{dot}{key}", REQUIRED)
        hour, hour_problem = self.hour(row.get("hour"))
        if "hour" in row and hour_problem:
            problems.add(f"{label}{dot}hour", hour_problem)
        owners = self.owners
        advertiser = count_of(row.get("advertiser_id"))
        if "advertiser_id" in row and (advertiser not in owners.advertisers
                                       or (self.allowed is not None and advertiser not in self.allowed)):
            problems.add(f"{label}{dot}advertiser_id", NO_ADVERTISER)
        campaign = count_of(row.get("campaign_id"))
        if "campaign_id" in row and (campaign is None or owners.campaigns.get(campaign) != advertiser):
            problems.add(f"{label}{dot}campaign_id", NO_CAMPAIGN)
        creative = count_of(row.get("creative_id"))
        if "creative_id" in row and (creative is None or (creative and owners.creatives.get(creative) != advertiser)):
            problems.add(f"{label}{dot}creative_id", NO_CREATIVE)
        names = []
        for key in ("exchange", "os", "app"):
            name = self.text(row.get(key))
            if key in row and name is None:
                problems.add(f"{label}{dot}{key}", f"Give a name of 1 to {MAX_TEXT} characters.")
            names.append(name)
        country = self.country(row.get("country"))
        if "country" in row and country is None:
            problems.add(f"{label}{dot}country", NOT_A_COUNTRY)
        device = row.get("device_type")
        if "device_type" in row and device not in _DEVICES:
            problems.add(f"{label}{dot}device_type", NOT_A_DEVICE)
        device_id = self.device_id(row.get(DEVICE_COLUMN))
        if device_id is None:
            problems.add(f"{label}{dot}{DEVICE_COLUMN}", NOT_A_DEVICE_ID)
        measures = []
        for key in MEASURES:
            number = count_of(row.get(key))
            if key in row and number is None:
                problems.add(f"{label}{dot}{key}", NOT_A_COUNT)
            measures.append(number)
        events = row.get("events") or NO_EVENTS
        clean_events: dict[str, int] = {}
        if not isinstance(events, Mapping) or len(events) > MAX_EVENTS_PER_ROW:
            problems.add(f"{label}{dot}events", f"Give an object of at most {MAX_EVENTS_PER_ROW} event names and counts.")
        else:
            for name, value in events.items():
                number = count_of(value)
                if not isinstance(name, str) or not _EVENT_NAME.match(name):
                    problems.add(f"{label}{dot}events", f"Not an event name: {str(name)[:50]!r} (a-z, 0-9, _; at most 40).")
                elif number is None:
                    problems.add(f"{label}{dot}events.{name}", NOT_A_COUNT)
                elif number:
                    clean_events[name] = number
        if problems.total:
            return None  # once any row is bad nothing is stored: later rows are only checked
        # Positional: a million rows built by keyword take a second longer.
        return FactRow(hour, advertiser, campaign, creative, names[0], names[1], country, names[2],  # type: ignore[arg-type]
                       device, measures[0], measures[1], measures[2], measures[3],  # type: ignore[arg-type]
                       clean_events or NO_EVENTS, device_id or "")


CHECK_CHUNK = 50_000  # rows whose ids are looked up together


def check_rows(db: Session, rows: Iterable[tuple[str, Mapping[str, RowValue]]],
               allowed_advertisers: set[int] | None = None) -> list[FactRow]:
    """FactRows for (label, row) pairs, or Invalid naming "<label>.<field>" for each problem (the first 20;
    just "<field>" when the label is ""). `allowed_advertisers` narrows whose statistics may be written (a
    postback token writes only its own)."""
    checker = RowChecker(Owners(db), allowed_advertisers)
    facts: list[FactRow] = []
    source = iter(rows)
    while chunk := list(islice(source, CHECK_CHUNK)):
        checker.owners.read(chunk)
        facts.extend(fact for label, row in chunk if (fact := checker.check(label, row)) is not None)
    checker.problems.raise_if_any()
    return facts


def check_batch_id(batch_id: Any) -> str:
    if not isinstance(batch_id, str) or not BATCH_ID.match(batch_id):
        raise Invalid({"batch_id": BAD_BATCH_ID})
    return batch_id


def store_and_charge(db: Session, *, batch_id: str, facts: list[FactRow], source: str,
                     actor: Actor | None = None, booked_at: datetime | None = None) -> BatchStored:
    """Write checked rows to the store, then charge their spend to the advertisers' ledgers (in the caller's
    transaction). The store is written first: if the charge then fails, or the process dies before it commits, a
    retry of the same batch finds it stored (duplicate) and charges it, and without a retry the reconciler does
    (app/statistics/charge_reconciler.py); the ledger's reference keeps the charge to one. Spend is charged per
    campaign (the store's split)."""
    receipt = get_store().ingest(batch_id, facts, source=source)
    halt_point("statistics.stored")  # tests/test_faults_kill.py kills the server here
    if receipt.spend_by_advertiser:
        # Charged by campaign, so the ledger reads a row per campaign and day.
        funds.charge_delivery(db, charges=receipt.spend_by_campaign or receipt.spend_by_advertiser,
                              reference=charge_reference(batch_id), booked_at=booked_at)
    if not receipt.duplicate:
        INGESTED_ROWS.labels(source).inc(receipt.rows)
        audit.record(db, actor=actor, entity="statistics_batch", entity_id=batch_id, action="ingest",
                     after={"rows": receipt.rows, "source": source,
                            "spend_micros": sum(receipt.spend_by_advertiser.values())})
    return BatchStored(batch_id=batch_id, rows=receipt.rows, duplicate=receipt.duplicate,
                       spend_micros_by_advertiser={str(a): s for a, s in sorted(receipt.spend_by_advertiser.items())})


def charge_reference(batch_id: str) -> str:
    """The ledger reference a statistics batch's charge is booked under (app/funds/service.py charge_delivery)."""
    return f"stats:{batch_id}"


def too_many(count: int, field: str, most: int | None = None) -> None:
    """Refuse an empty batch or one of more than `most` rows (MAX_ROWS, read when called), naming `field`."""
    most = MAX_ROWS if most is None else most
    if count > most:
        raise Invalid({field: f"At most {most:,} rows per batch; split it into several batches."})
    if count == 0:
        raise Invalid({field: "The batch has no rows."})


def ingest_batch(db: Session, *, actor: Actor, batch_id: str, rows: Sequence[Mapping[str, RowValue]],
                 source: str = "api") -> BatchStored:
    """Admin: store a batch of hourly rows whole or not at all and charge its spend. Answers {batch_id, rows,
    duplicate, spend_micros_by_advertiser} (ids as text keys, micro-dollars); a replayed batch id writes
    nothing and answers duplicate true. A bad row raises Invalid naming "rows[<index>].<field>"."""
    require(actor, "statistics", "ingest")
    check_batch_id(batch_id)
    if not isinstance(rows, list):
        raise Invalid({"rows": "Give the rows as a list."})
    too_many(len(rows), "rows")
    facts = check_rows(db, ((f"rows[{index}]", row) for index, row in enumerate(rows)))
    return store_and_charge(db, batch_id=batch_id, facts=facts, source=source, actor=actor)


def now_hour() -> datetime:
    """The current hour, UTC, naive (as the store keeps hours)."""
    return datetime.now(UTC).replace(minute=0, second=0, microsecond=0, tzinfo=None)
