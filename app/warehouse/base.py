"""The analytics store's interface: what pages and services may ask of delivery statistics.

Two implementations, chosen by DSP_STATISTICS_URL (__init__.py): DuckDB, a file in the data directory
(duckdb_store.py, the default), and ClickHouse, in process through chDB or a server (clickhouse_store.py). The
interface speaks only in plain values (dates, ids, dimension keys from schema.py), so pages and services never
know which; tests/test_store_contract.py holds both to the same figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol

# A statistics row's value: an id or a count (int), a ratio or an amount in dollars (float), a name (str), the
# day (date) or hour (datetime) of a time dimension, or None (a ratio whose denominator is 0).
StatsValue = int | float | str | date | datetime | None
# A statistics row has the columns a query asked for (dimension keys, metric keys, spend_micros beside spend,
# event_<name>): column name -> its value.
StatsRow = dict[str, StatsValue]


def whole(value: StatsValue) -> int:
    """A row's count, id or spend_micros as an int (None, a missing column: 0)."""
    if value is None:
        return 0
    if not isinstance(value, int | float):
        raise TypeError(f"not a count: {value!r}")
    return int(value)


@dataclass(frozen=True, slots=True)
class FactRow:
    """One hour of delivery at one placement. `hour` is UTC on the hour; ids are 0 when unknown."""

    hour: datetime
    advertiser_id: int
    campaign_id: int
    creative_id: int
    exchange: str
    os: str
    country: str
    app: str
    device_type: str
    impressions: int = 0
    clicks: int = 0
    spend_micros: int = 0
    conversions: int = 0
    events: Mapping[str, int] = field(default_factory=dict)  # custom event name -> count
    # The hashed device id (IFA hash, lowercase hex; schema.DEVICE_ID_PATTERN) when the row is one device's
    # delivery; "" when unknown (a row summed over devices). Only reach (distinct devices) reads it.
    device: str = ""


@dataclass(frozen=True)
class StatsQuery:
    start: date  # first day, in time_zone
    end: date  # last day (inclusive), in time_zone
    dimensions: tuple[str, ...] = ()  # keys of schema.DIMENSIONS; none: one total row
    metrics: tuple[str, ...] = ("impressions", "clicks", "ctr", "spend", "ecpm", "ecpc", "conversions", "cpa")
    events: tuple[str, ...] = ()  # custom event names, each a column event_<name>
    advertiser_ids: tuple[int, ...] | None = None  # row scope: None is every advertiser (staff only)
    filters: Mapping[str, tuple[int | str, ...]] = field(default_factory=dict)  # dimension key -> allowed values
    time_zone: str = "UTC"
    order_by: str | None = None  # a dimension or metric key; default: the dimensions in order
    descending: bool = False
    limit: int | None = None


@dataclass(frozen=True)
class BatchReceipt:
    batch_id: str
    rows: int
    spend_by_advertiser: dict[int, int]  # micro-dollars, what the ledger charges for this batch
    duplicate: bool  # the batch had been stored before: nothing was written this time
    # The same spend split by campaign: advertiser id -> {campaign id (0: unknown) -> micro-dollars}; each
    # advertiser's campaigns add up to its spend_by_advertiser. The ledger books a charge per campaign from it.
    spend_by_campaign: dict[int, dict[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BatchShare:
    """One ingestion batch's part of a query's figures: the hourly rows it brought that the query counts (its
    period, scope and filters) and what they add up to."""

    batch_id: str
    source: str  # api, csv, postback, simulator...
    received_at: datetime  # UTC, naive: when the store recorded the batch
    rows: int  # the batch's hourly fact rows inside the query
    impressions: int
    clicks: int
    spend_micros: int
    conversions: int


@dataclass(frozen=True)
class StoredBatch:
    """A batch as the store keeps it, with what the ledger charges for it (the reconciler of lost charges reads
    these: app/statistics/charge_reconciler.py)."""

    batch_id: str
    received_at: datetime  # UTC, naive: when the store recorded the batch
    # advertiser id -> {campaign id (0: unknown) -> micro-dollars}, spend > 0 only: its receipt's spend_by_campaign
    spend_by_campaign: dict[int, dict[int, int]]


@dataclass(frozen=True)
class HistoryQuery:
    """What a forecast reads: one scope's hourly delivery over UTC days, by day, split by what a bid would
    have won. A row is won when its price (spend per thousand impressions, or per click) is at most the bid."""

    start: date  # first UTC day
    end: date  # last UTC day (inclusive)
    advertiser_ids: tuple[int, ...]  # row scope (a forecast is always for someone's own delivery)
    filters: Mapping[str, tuple[int | str, ...]] = field(default_factory=dict)  # dimension key -> allowed values
    excluded: Mapping[str, tuple[int | str, ...]] = field(default_factory=dict)  # dimension key -> values left out
    bid_micros: int | None = None  # None: every row is won
    priced_by: str = "impressions"  # "impressions" (a CPM bid) or "clicks" (a CPC bid)


@dataclass(frozen=True, slots=True)
class HistoryDay:
    """One UTC day of a HistoryQuery's delivery. Devices are distinct device ids, counted approximately by the
    store (DuckDB approx_count_distinct, ClickHouse uniqCombined); rows without one count none."""

    day: date
    impressions: int
    spend_micros: int
    devices: int
    won_impressions: int
    won_spend_micros: int
    won_devices: int


@dataclass(frozen=True)
class DeliveryHistory:
    days: list[HistoryDay]  # the days with delivery, in order (a day without any has no row)
    devices: int  # distinct devices over all the days (not the sum of the days': a device seen twice is one)
    won_devices: int
    identified_impressions: int  # impressions of rows that carry a device id (0: reach cannot be told)
    clicks: int = 0  # over all the days: what prices a CPC bid's cleared price


class StoreInUse(RuntimeError):
    """An embedded store's files are held by another process (or cannot be opened): `path` is what it held."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


class StatisticsStore(Protocol):
    def ingest(self, batch_id: str, rows: Iterable[FactRow], *, source: str) -> BatchReceipt:
        """Store a batch whole or not at all. A batch id seen before writes nothing and answers the first
        receipt (duplicate=True), so a client may retry freely."""

    def query(self, query: StatsQuery) -> list[StatsRow]:
        """Rows of the asked dimensions (keys as in DIMENSIONS; date as a date, hour as a datetime) with the
        asked metrics (METRICS keys) and event_<name> columns."""

    def batches_of(self, query: StatsQuery) -> list[BatchShare]:
        """The batches whose hourly rows the query's figures are summed from (its days, scope and filters; its
        dimensions, metrics and order are not read), oldest received first, then by batch id."""

    def batches_since(self, since: datetime | None) -> list[StoredBatch]:
        """Every batch received at or after `since` (UTC, naive; None: every batch), oldest received first, then by
        batch id, with its spend split as its receipt gives it (a batch without spend: an empty split)."""

    def delivery_history(self, query: HistoryQuery) -> DeliveryHistory:
        """The query's delivery by UTC day, all of it and what the bid would have won (the forecast's input)."""

    def event_names(self, advertiser_ids: Sequence[int] | None) -> list[str]:
        """Custom event names recorded for these advertisers (None: all), alphabetical."""

    def first_and_last_hour(self, advertiser_ids: Sequence[int] | None) -> tuple[datetime, datetime] | None: ...

    def clear(self) -> None:
        """Remove every statistic (tests and `python -m app simulate --reset`)."""

    def close(self) -> None: ...
