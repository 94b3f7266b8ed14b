"""Delivery statistics coming in: batches of hourly rows (JSON or CSV) checked whole, stored, and charged.

A batch is all or nothing: every row is checked before anything is written, and a bad row refuses the batch
naming the row and the field. A batch id names the batch for good: sending it again writes nothing and
answers the first receipt (duplicate), and its spend is charged at most once (the ledger's reference is the
batch id), so a client whose connection broke may always retry.

Three writers share the checks and the write: the ingestion API (admin), conversion postbacks
(services/postback_ingest.py: the token is the credential) and the simulator.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

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
from app.kernel.metrics import INGESTED_ROWS
from app.statistics.schemas import BatchStored, RowValue
from app.warehouse import get_store
from app.warehouse.base import FactRow
from app.warehouse.schema import (
    DEVICE_COLUMN,
    DEVICE_ID_PATTERN,
    DEVICE_TYPES,
    EVENT_NAME_PATTERN,
    EVENT_PREFIX,
    MEASURES,
    PLACEMENT_COLUMNS,
)

MAX_ROWS = 50_000
MAX_PROBLEMS = 20  # a batch with thousands of bad rows names the first ones, not all of them
MAX_TEXT = 200  # exchange, os and app names
MAX_COUNT = 10**12  # far above any hour of one placement; keeps sums inside BIGINT
MAX_EVENTS_PER_ROW = 50
BATCH_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
_EVENT_NAME = re.compile(EVENT_NAME_PATTERN)
ROW_FIELDS = ("hour", *PLACEMENT_COLUMNS, *MEASURES, "events", DEVICE_COLUMN)
OPTIONAL_FIELDS = ("events", DEVICE_COLUMN)
CSV_COLUMNS = ("hour", *PLACEMENT_COLUMNS, *MEASURES)  # required; `device` and event_<name> columns may follow
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
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
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


def _ownership(db: Session, rows: list[tuple[str, dict[str, Any]]]) -> tuple[set[int], dict[int, int], dict[int, int]]:
    """Advertiser ids, campaign -> advertiser and creative -> advertiser for every id the rows name, in one
    query per kind (chunked: SQLite limits a statement's parameters)."""
    def ids(key: str) -> list[int]:
        return sorted({i for _, row in rows if (i := count_of(row.get(key))) is not None})

    def chunks(values: list[int]) -> Iterable[list[int]]:
        for start in range(0, len(values), 500):
            yield values[start:start + 500]

    advertisers: set[int] = set()
    for part in chunks(ids("advertiser_id")):
        advertisers |= {i for i in db.exec(select(col(User.id)).where(col(User.id).in_(part), User.role == Role.ADVERTISER)) if i}
    campaigns: dict[int, int] = {}
    for part in chunks(ids("campaign_id")):
        campaigns.update((i, a) for i, a in db.exec(select(col(Campaign.id), Campaign.advertiser_id).where(col(Campaign.id).in_(part))) if i)
    creatives: dict[int, int] = {}
    for part in chunks([i for i in ids("creative_id") if i]):
        creatives.update((i, a) for i, a in db.exec(select(col(Creative.id), Creative.advertiser_id).where(col(Creative.id).in_(part))) if i)
    return advertisers, campaigns, creatives


def check_rows(db: Session, rows: Sequence[tuple[str, Mapping[str, RowValue]]],
               allowed_advertisers: set[int] | None = None) -> list[FactRow]:
    """FactRows for (label, row) pairs, or Invalid naming "<label>.<field>" for each problem (the first 20;
    just "<field>" when the label is ""). `allowed_advertisers` narrows whose statistics may be written (a
    postback token writes only its own)."""
    problems = _Problems()
    plain = [(label, dict(row) if isinstance(row, Mapping) else {}) for label, row in rows]
    advertisers, campaigns, creatives = _ownership(db, plain)
    facts: list[FactRow] = []
    for (label, row), (_, original) in zip(plain, rows, strict=True):
        dot = "." if label else ""
        if not isinstance(original, Mapping):
            problems.add(label, "Give each row as an object.")
            continue
        for key in sorted(set(row) - set(ROW_FIELDS)):
            problems.add(f"{label}{dot}{key}", "More cells than header columns." if key == EXTRA_CELLS else "Unknown field.")
        values: dict[str, Any] = {}
        for key in ROW_FIELDS:
            if key not in row and key not in OPTIONAL_FIELDS:
                problems.add(f"{label}{dot}{key}", REQUIRED)
        hour = parse_hour(row.get("hour"))
        if "hour" in row and hour is None:
            problems.add(f"{label}{dot}hour", BAD_HOUR)
        elif hour is not None and (hour.minute or hour.second or hour.microsecond):
            problems.add(f"{label}{dot}hour", NOT_ON_THE_HOUR)
        values["hour"] = hour
        advertiser = count_of(row.get("advertiser_id"))
        if "advertiser_id" in row and (advertiser not in advertisers
                                       or (allowed_advertisers is not None and advertiser not in allowed_advertisers)):
            problems.add(f"{label}{dot}advertiser_id", NO_ADVERTISER)
        campaign = count_of(row.get("campaign_id"))
        if "campaign_id" in row and (campaign is None or campaigns.get(campaign) != advertiser):
            problems.add(f"{label}{dot}campaign_id", NO_CAMPAIGN)
        creative = count_of(row.get("creative_id"))
        if "creative_id" in row and (creative is None or (creative and creatives.get(creative) != advertiser)):
            problems.add(f"{label}{dot}creative_id", NO_CREATIVE)
        values.update(advertiser_id=advertiser, campaign_id=campaign, creative_id=creative)
        for key in ("exchange", "os", "app"):
            text = row.get(key)
            if key in row and (not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT):
                problems.add(f"{label}{dot}{key}", f"Give a name of 1 to {MAX_TEXT} characters.")
            values[key] = text.strip() if isinstance(text, str) else ""
        country = row.get("country")
        code = country.strip().upper() if isinstance(country, str) else ""
        if "country" in row and (len(code) != 2 or pycountry.countries.get(alpha_2=code) is None):
            problems.add(f"{label}{dot}country", NOT_A_COUNTRY)
        values["country"] = code
        device = row.get("device_type")
        if "device_type" in row and device not in DEVICE_TYPES:
            problems.add(f"{label}{dot}device_type", NOT_A_DEVICE)
        values["device_type"] = device
        device_id = row.get(DEVICE_COLUMN) or ""
        device_id = device_id.strip().lower() if isinstance(device_id, str) else device_id
        if device_id and (not isinstance(device_id, str) or not _DEVICE_ID.match(device_id)):
            problems.add(f"{label}{dot}{DEVICE_COLUMN}", NOT_A_DEVICE_ID)
        values[DEVICE_COLUMN] = device_id if isinstance(device_id, str) else ""
        for key in MEASURES:
            number = count_of(row.get(key))
            if key in row and number is None:
                problems.add(f"{label}{dot}{key}", NOT_A_COUNT)
            values[key] = number
        events = row.get("events") or {}
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
        if not problems.total:
            facts.append(FactRow(**values, events=clean_events))
    problems.raise_if_any()
    return facts


def check_batch_id(batch_id: Any) -> str:
    if not isinstance(batch_id, str) or not BATCH_ID.match(batch_id):
        raise Invalid({"batch_id": BAD_BATCH_ID})
    return batch_id


def store_and_charge(db: Session, *, batch_id: str, facts: list[FactRow], source: str,
                     actor: Actor | None = None, booked_at: datetime | None = None) -> BatchStored:
    """Write checked rows to the store, then charge their spend to the advertisers' ledgers (in the caller's
    transaction). The store is written first: if the charge then fails, a retry of the same batch finds it
    stored (duplicate) and charges it, and the ledger's reference keeps the charge to one. Spend is charged per
    campaign (the store's split)."""
    receipt = get_store().ingest(batch_id, facts, source=source)
    if receipt.spend_by_advertiser:
        # Charged by campaign, so the ledger reads a row per campaign and day.
        funds.charge_delivery(db, charges=receipt.spend_by_campaign or receipt.spend_by_advertiser,
                              reference=f"stats:{batch_id}", booked_at=booked_at)
    if not receipt.duplicate:
        INGESTED_ROWS.labels(source).inc(receipt.rows)
        audit.record(db, actor=actor, entity="statistics_batch", entity_id=batch_id, action="ingest",
                     after={"rows": receipt.rows, "source": source,
                            "spend_micros": sum(receipt.spend_by_advertiser.values())})
    return BatchStored(batch_id=batch_id, rows=receipt.rows, duplicate=receipt.duplicate,
                       spend_micros_by_advertiser={str(a): s for a, s in sorted(receipt.spend_by_advertiser.items())})


def _too_many(count: int, field: str) -> None:
    if count > MAX_ROWS:
        raise Invalid({field: f"At most {MAX_ROWS:,} rows per batch; split it into several batches."})
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
    _too_many(len(rows), "rows")
    facts = check_rows(db, [(f"rows[{index}]", row) for index, row in enumerate(rows)])
    return store_and_charge(db, batch_id=batch_id, facts=facts, source=source, actor=actor)


def csv_rows(text: str) -> list[tuple[str, dict[str, RowValue]]]:
    """("line <n>", row) for each data line of a statistics CSV (the header is line 1); event_<name> columns
    become the row's events. Raises Invalid for a header that misses or misnames columns."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))  # a BOM from spreadsheet exports
    header = [name.strip() for name in reader.fieldnames or []]
    reader.fieldnames = header
    missing = [c for c in CSV_COLUMNS if c not in header]
    unknown = [c for c in header if c not in (*CSV_COLUMNS, DEVICE_COLUMN) and not c.startswith(EVENT_PREFIX)]
    if missing or unknown or len(set(header)) != len(header):
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(unknown)}"] if unknown else []) + (
            ["a column named twice"] if len(set(header)) != len(header) else [])
        raise Invalid({"line 1": f"Header: {'; '.join(problems)}."})
    rows: list[tuple[str, dict[str, RowValue]]] = []
    for record in reader:
        line = f"line {reader.line_num}"
        if None in record:  # more cells than header columns
            rows.append((line, {**{k: v for k, v in record.items() if k is not None}, EXTRA_CELLS: ""}))
            continue
        row: dict[str, RowValue] = {key: record[key] for key in CSV_COLUMNS}
        if record.get(DEVICE_COLUMN):
            row[DEVICE_COLUMN] = record[DEVICE_COLUMN]
        row["events"] = {key.removeprefix(EVENT_PREFIX): (value or "0").strip() for key, value in record.items()
                         if key.startswith(EVENT_PREFIX)}
        rows.append((line, row))
    return rows


def ingest_csv(db: Session, *, actor: Actor, batch_id: str, text: str, source: str = "csv") -> BatchStored:
    """ingest_batch for a CSV with a header row (CSV_COLUMNS, then any event_<name> columns). Problems are named
    "line <n>.<field>", counting the header as line 1, as a spreadsheet numbers them."""
    require(actor, "statistics", "ingest")
    check_batch_id(batch_id)
    rows = csv_rows(text)
    _too_many(len(rows), "body")
    facts = check_rows(db, rows)
    return store_and_charge(db, batch_id=batch_id, facts=facts, source=source, actor=actor)


def now_hour() -> datetime:
    """The current hour, UTC, naive (as the store keeps hours)."""
    return datetime.now(UTC).replace(minute=0, second=0, microsecond=0, tzinfo=None)
