"""The daily rollups every statistics store keeps beside its hourly facts (the same tables, by name and columns,
in DuckDB and in ClickHouse), and which table answers a query with the fewest rows to read."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from app.warehouse.base import StatsQuery
from app.warehouse.schema import PLACEMENT_COLUMNS

# Daily rollups of the delivery facts and the placement columns each keeps. `hour` is the UTC day's midnight, so
# a query reads any of them with the same SQL; each day holds one row per key (DuckDB: duckdb_store._roll_up_days_of; ClickHouse sums its parts at read). The small
# ones are the dashboard's breakdowns, with the campaign kept for its campaign filter.
ROLLUPS: dict[str, tuple[str, ...]] = {
    "delivery_daily": PLACEMENT_COLUMNS,
    "daily_by_campaign": ("advertiser_id", "campaign_id"),
    "daily_by_creative": ("advertiser_id", "campaign_id", "creative_id"),
    "daily_by_exchange": ("advertiser_id", "campaign_id", "exchange"),
    "daily_by_os": ("advertiser_id", "campaign_id", "os"),
}
EVENTS_ROLLUP = "delivery_events_daily"  # custom events by day, every placement column (events are rarer)


def utc_bounds(start: date, end: date, time_zone: str) -> tuple[datetime, datetime]:
    """The UTC hours [from, to) that make up the local days start..end."""
    zone = ZoneInfo(time_zone)
    first = datetime.combine(start, time(), zone).astimezone(UTC).replace(tzinfo=None)
    after = datetime.combine(end + timedelta(days=1), time(), zone).astimezone(UTC).replace(tzinfo=None)
    return first, after


def tables_for(query: StatsQuery, columns: set[str]) -> tuple[str, str]:
    """The delivery and event tables that answer the query with the fewest rows to read: the hourly facts, or
    for UTC days without hours the smallest daily rollup with every column the query groups or filters by."""
    if not reads_days(query):
        return "delivery", "delivery_events"
    if query.events:
        return "delivery_daily", EVENTS_ROLLUP
    covering = [name for name, kept in ROLLUPS.items() if columns <= set(kept)]
    return min(covering, key=lambda name: len(ROLLUPS[name])), EVENTS_ROLLUP


def reads_days(query: StatsQuery) -> bool:
    """Whether the daily rollup answers this query: no hour asked for, and days that are UTC days."""
    return query.time_zone == "UTC" and "hour" not in query.dimensions and "hour" not in query.filters
