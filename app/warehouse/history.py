"""The parts of a forecast's history read (base.HistoryQuery) that both stores share: which rows a bid wins and
the UTC hours of the days asked. Each store writes the rest in its own SQL (DuckDB: duckdb_store._history_sql,
ClickHouse: clickhouse_store._history_sql), counting distinct devices with its own approximate counter."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, time, timedelta
from typing import Any

from app.warehouse.base import DeliveryHistory, HistoryDay, HistoryQuery
from app.warehouse.schema import DIMENSIONS

# What a bid is a price of, and the measure it is paid per (1000 impressions for CPM, 1 click for CPC).
PRICED_BY: dict[str, int] = {"impressions": 1000, "clicks": 1}


def won_condition(query: HistoryQuery, bid: str) -> str:
    """SQL true for an hourly row the bid would have won: its price, spend over its impressions (x1000) or clicks,
    at most the bid (`bid`: the SQL naming the bid parameter). Integers on both sides, so both stores agree on
    every row exactly (no float rounding at the edge)."""
    if query.priced_by not in PRICED_BY:
        raise ValueError(f"cannot price by {query.priced_by!r}")
    if query.bid_micros is None:
        return "1 = 1"
    return f"spend_micros * {PRICED_BY[query.priced_by]} <= {bid} * {query.priced_by}"


def utc_days(query: HistoryQuery) -> tuple[datetime, datetime]:
    """The UTC hours [from, to) of the query's days."""
    return datetime.combine(query.start, time()), datetime.combine(query.end + timedelta(days=1), time())


def checked_keys(query: HistoryQuery) -> None:
    for key in (*query.filters, *query.excluded):
        if key not in DIMENSIONS or DIMENSIONS[key].kind == "time":
            raise ValueError(f"cannot filter a history by {key!r}")


def history_of(rows: Iterable[Sequence[Any]]) -> DeliveryHistory:
    """The answer from a store's one read, grouped by day and over all the days (GROUPING SETS, one scan): rows of
    (day, whether it is the total, impressions, spend, devices, won impressions, won spend, won devices,
    identified impressions, clicks)."""
    days, totals = [], None
    for day, whole, *figures in rows:
        if whole:
            totals = figures
        else:
            days.append(HistoryDay(day, *(int(n or 0) for n in figures[:6])))
    # The empty grouping set's row (over no rows an engine may answer none at all).
    _, _, devices, _, _, won_devices, identified, clicks = totals or (0,) * 8
    return DeliveryHistory(sorted(days, key=lambda d: d.day), int(devices or 0), int(won_devices or 0),
                           int(identified or 0), int(clicks or 0))
