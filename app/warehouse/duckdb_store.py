"""The DuckDB statistics store: one file in the data directory, owned by one process.

Beside the hourly facts it keeps daily rollups (ROLLUPS: the facts summed per UTC day over fewer columns, written
in the same transaction as each batch). A query that needs no hours and reads UTC days (the dashboards, most
reports) reads the smallest rollup that has every column it groups or filters by: a dashboard's "performance by
campaign" sums one row per campaign and day instead of one per placement and hour.

DuckDB answers the report queries 10-300x faster than SQLite or PostgreSQL on millions of hourly rows (see
bench/statistics.py), from a single embedded file. The file is locked by the process that opens it, so
the serving process owns it; `python -m app simulate` runs before `serve` (make run does this), and other
writers use the ingestion API. Several serving processes need the ClickHouse backend instead.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from app.kernel.metrics import STATISTICS_QUERY_SECONDS
from app.warehouse.base import (
    BatchReceipt,
    BatchShare,
    DeliveryHistory,
    FactRow,
    HistoryQuery,
    StatsQuery,
    StatsRow,
    StoredBatch,
)
from app.warehouse.history import checked_keys, history_of, utc_days, won_condition
from app.warehouse.rollups import EVENTS_ROLLUP, ROLLUPS, tables_for, utc_bounds
from app.warehouse.schema import DEVICE_COLUMN, DIMENSIONS, EVENT_PREFIX, MEASURES, METRICS, PLACEMENT_COLUMNS

_PLACEMENT_DDL = """
    hour TIMESTAMP NOT NULL,
    advertiser_id INTEGER NOT NULL, campaign_id INTEGER NOT NULL, creative_id INTEGER NOT NULL,
    exchange VARCHAR NOT NULL, os VARCHAR NOT NULL, country VARCHAR NOT NULL, app VARCHAR NOT NULL,
    device_type VARCHAR NOT NULL,
    batch INTEGER NOT NULL"""

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS batches (
    seq INTEGER PRIMARY KEY, batch_id VARCHAR NOT NULL UNIQUE, source VARCHAR NOT NULL,
    received_at TIMESTAMP NOT NULL, rows BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS delivery ({_PLACEMENT_DDL},
    impressions BIGINT NOT NULL, clicks BIGINT NOT NULL, spend_micros BIGINT NOT NULL, conversions BIGINT NOT NULL,
    {DEVICE_COLUMN} VARCHAR DEFAULT '');
CREATE TABLE IF NOT EXISTS delivery_events ({_PLACEMENT_DDL}, event VARCHAR NOT NULL, count BIGINT NOT NULL);
"""
_FACT_COLUMNS = ("hour", *PLACEMENT_COLUMNS, "batch")


def _time_expression(key: str, time_zone: str) -> str:
    local = "hour" if time_zone == "UTC" else "timezone($tz, timezone('UTC', hour))"
    return f"CAST({local} AS DATE)" if key == "date" else local


class DuckDBStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._connection = duckdb.connect(str(path))
        # A batch's files are written into an ingest-* folder and removed once DuckDB has read them; a process
        # killed meanwhile leaves its folder behind (its batch was not committed: DuckDB's log drops it).
        # Only this process opens the file, so any such folder now is a dead one's.
        for stale in path.parent.glob("ingest-*"):
            shutil.rmtree(stale, ignore_errors=True)
        self._connection.execute(SCHEMA)
        # A file from before rows carried a device id: the column is added, last (as a new file has it), empty.
        self._connection.execute(f"ALTER TABLE delivery ADD COLUMN IF NOT EXISTS {DEVICE_COLUMN} VARCHAR DEFAULT ''")
        for rollup in (*ROLLUPS, EVENTS_ROLLUP):
            if not self._connection.execute("SELECT 1 FROM information_schema.tables WHERE table_name = ?",
                                            [rollup]).fetchone():
                # A new file, or one from before this rollup existed: made from the hourly facts (once).
                self._connection.execute(f"CREATE TABLE {rollup} AS {_rollup_select(rollup, 'FALSE')}")
                self._connection.execute(f"INSERT INTO {rollup} {_rollup_select(rollup, 'TRUE')}")
        self._write_lock = threading.Lock()  # one batch at a time: the duplicate check and the write are one step

    def _cursor(self) -> duckdb.DuckDBPyConnection:
        # A cursor is a connection of its own to the same database: each worker thread asks through its own.
        cursor = self._connection.cursor()
        cursor.execute("SET enable_progress_bar = false")  # it would draw on the server's terminal
        return cursor

    # -- writing -----------------------------------------------------------------------------------------
    def ingest(self, batch_id: str, rows: Iterable[FactRow], *, source: str) -> BatchReceipt:
        with self._write_lock:
            db = self._cursor()
            known = db.execute("SELECT seq, rows FROM batches WHERE batch_id = ?", [batch_id]).fetchone()
            if known:
                return self._receipt(db, batch_id, int(known[1]), int(known[0]), duplicate=True)
            seq = int(db.execute("SELECT coalesce(max(seq), 0) + 1 FROM batches").fetchone()[0])  # type: ignore[index]  # an aggregate answers one row
            # Rows go through CSV files that DuckDB reads in bulk: far faster than inserting row by row, and
            # with no dependency on pandas or Arrow.
            with tempfile.TemporaryDirectory(dir=self.path.parent, prefix="ingest-") as folder:
                facts_file, events_file = Path(folder, "facts.csv"), Path(folder, "events.csv")
                count, event_count = self._write_csv(rows, seq, facts_file, events_file)
                db.execute("BEGIN TRANSACTION")
                try:
                    if count:
                        db.execute(f"INSERT INTO delivery SELECT * FROM read_csv(?, header=false, columns={{{_csv_columns(True)}}})",
                                   [str(facts_file)])
                    if event_count:
                        db.execute(f"INSERT INTO delivery_events SELECT * FROM read_csv(?, header=false, columns={{{_csv_columns(False)}}})",
                                   [str(events_file)])
                    self._roll_up_days_of(db, seq)
                    db.execute("INSERT INTO batches VALUES (?, ?, ?, ?, ?)",
                               [seq, batch_id, source, datetime.now(UTC).replace(tzinfo=None), count])
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            return self._receipt(db, batch_id, count, seq, duplicate=False)

    @staticmethod
    def _roll_up_days_of(db: duckdb.DuckDBPyConnection, seq: int) -> None:
        """Sum again, in every rollup, the UTC days this batch delivered in: a day's rows always hold the whole
        day, however many batches brought it (a batch per hour, retries, late rows)."""
        days = [day for (day,) in db.execute(
            "SELECT DISTINCT date_trunc('day', hour) FROM delivery WHERE batch = $seq UNION "
            "SELECT DISTINCT date_trunc('day', hour) FROM delivery_events WHERE batch = $seq", {"seq": seq}).fetchall()]
        if not days:
            return
        # The range lets DuckDB skip the row groups of other days; the list keeps the days between out.
        params = {"first": min(days), "after": max(days) + timedelta(days=1), "days": days}
        touched = "hour >= $first AND hour < $after AND list_contains($days, date_trunc('day', hour))"
        for rollup in (*ROLLUPS, EVENTS_ROLLUP):
            db.execute(f"DELETE FROM {rollup} WHERE {touched}", params)
            db.execute(f"INSERT INTO {rollup} {_rollup_select(rollup, touched)}", params)

    @staticmethod
    def _write_csv(rows: Iterable[FactRow], seq: int, facts_file: Path, events_file: Path) -> tuple[int, int]:
        count = event_count = 0
        with open(facts_file, "w", newline="") as facts_out, open(events_file, "w", newline="") as events_out:
            facts, events = csv.writer(facts_out), csv.writer(events_out)
            stamps: dict[datetime, str] = {}  # each hour formatted once (a batch has few; strftime is slow)
            for row in rows:
                stamp = stamps.get(row.hour)
                if stamp is None:
                    stamp = stamps[row.hour] = row.hour.strftime("%Y-%m-%d %H:00:00")
                placement = (stamp, row.advertiser_id, row.campaign_id, row.creative_id, row.exchange, row.os,
                             row.country, row.app, row.device_type, seq)
                facts.writerow((*placement, row.impressions, row.clicks, row.spend_micros, row.conversions, row.device))
                count += 1
                if row.events:
                    for name, value in row.events.items():
                        if value:
                            events.writerow((*placement, name, value))
                            event_count += 1
        return count, event_count

    @staticmethod
    def _receipt(db: duckdb.DuckDBPyConnection, batch_id: str, count: int, seq: int, *,
                 duplicate: bool) -> BatchReceipt:
        """The receipt of stored batch `seq`: its spend per advertiser, and per advertiser per campaign
        (campaigns without spend left out)."""
        rows = db.execute("SELECT advertiser_id, campaign_id, sum(spend_micros) FROM delivery WHERE batch = ? "
                          "GROUP BY 1, 2 HAVING sum(spend_micros) > 0 ORDER BY 1, 2", [seq]).fetchall()
        by_campaign: dict[int, dict[int, int]] = {}
        for advertiser, campaign, spend in rows:
            by_campaign.setdefault(int(advertiser), {})[int(campaign)] = int(spend)
        return BatchReceipt(batch_id, count, {a: sum(split.values()) for a, split in by_campaign.items()},
                            duplicate=duplicate, spend_by_campaign=by_campaign)

    def clear(self) -> None:
        with self._write_lock:
            self._cursor().execute("DELETE FROM delivery; DELETE FROM delivery_events; DELETE FROM batches; "
                                   + " ".join(f"DELETE FROM {rollup};" for rollup in (*ROLLUPS, EVENTS_ROLLUP)))

    def close(self) -> None:
        self._connection.close()

    # -- reading -----------------------------------------------------------------------------------------
    def query(self, query: StatsQuery) -> list[StatsRow]:
        with STATISTICS_QUERY_SECONDS.time():
            return _fetch(self._cursor(), *_report_sql(query))

    def batches_of(self, query: StatsQuery) -> list[BatchShare]:
        if query.advertiser_ids is not None and not query.advertiser_ids:
            return []
        cursor = self._cursor()
        cursor.execute(*_batches_sql(query))
        return [BatchShare(str(batch_id), str(source), received_at, *(int(n) for n in counts))
                for batch_id, source, received_at, *counts in cursor.fetchall()]

    def batches_since(self, since: datetime | None) -> list[StoredBatch]:
        cursor = self._cursor()
        marks = cursor.execute("SELECT seq, batch_id, received_at FROM batches WHERE $since IS NULL OR received_at >= "
                               "$since ORDER BY received_at, batch_id", {"since": since}).fetchall()
        if not marks:
            return []
        splits: dict[int, dict[int, dict[int, int]]] = {int(seq): {} for seq, _batch, _received in marks}
        # A batch's seq grows with its arrival, so the facts' row groups of older batches are skipped by their range.
        for seq, advertiser, campaign, spend in cursor.execute(
                "SELECT batch, advertiser_id, campaign_id, sum(spend_micros) FROM delivery WHERE batch >= ? "
                "GROUP BY 1, 2, 3 HAVING sum(spend_micros) > 0 ORDER BY 1, 2, 3", [min(splits)]).fetchall():
            if int(seq) in splits:
                splits[int(seq)].setdefault(int(advertiser), {})[int(campaign)] = int(spend)
        return [StoredBatch(str(batch_id), received_at, splits[int(seq)]) for seq, batch_id, received_at in marks]

    def delivery_history(self, query: HistoryQuery) -> DeliveryHistory:
        return history_of(self._cursor().execute(*_history_sql(query)).fetchall())

    def event_names(self, advertiser_ids: Sequence[int] | None) -> list[str]:
        if advertiser_ids is not None and not advertiser_ids:
            return []
        where, params = _scope(advertiser_ids)
        rows = self._cursor().execute(f"SELECT DISTINCT event FROM {EVENTS_ROLLUP} WHERE {where} ORDER BY 1",
                                      params).fetchall()
        return [r[0] for r in rows]

    def first_and_last_hour(self, advertiser_ids: Sequence[int] | None) -> tuple[datetime, datetime] | None:
        if advertiser_ids is not None and not advertiser_ids:
            return None
        where, params = _scope(advertiser_ids)
        first, last = self._cursor().execute(f"SELECT min(hour), max(hour) FROM delivery WHERE {where}",
                                             params).fetchone()  # type: ignore[misc]  # an aggregate answers one row
        return (first, last) if first else None


def _fetch(cursor: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> list[StatsRow]:
    cursor.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _csv_columns(with_measures: bool) -> str:
    types = {"hour": "TIMESTAMP", "exchange": "VARCHAR", "os": "VARCHAR", "country": "VARCHAR", "app": "VARCHAR",
             "device_type": "VARCHAR"}
    columns = [f"'{c}': '{types.get(c, 'INTEGER')}'" for c in _FACT_COLUMNS]
    tail = [*(f"'{m}': 'BIGINT'" for m in MEASURES), f"'{DEVICE_COLUMN}': 'VARCHAR'"] if with_measures \
        else ["'event': 'VARCHAR'", "'count': 'BIGINT'"]
    return ", ".join(columns + tail)


def _rollup_select(rollup: str, where: str) -> str:
    """The hourly facts matching `where`, summed per UTC day over the rollup's columns (the rows it adds)."""
    if rollup == EVENTS_ROLLUP:
        keys, sums, facts = ", ".join(PLACEMENT_COLUMNS) + ", event", "sum(count)::BIGINT AS count", "delivery_events"
    else:
        keys, facts = ", ".join(ROLLUPS[rollup]), "delivery"
        sums = ", ".join(f"sum({m})::BIGINT AS {m}" for m in MEASURES)
    return (f"SELECT date_trunc('day', hour) AS hour, {keys}, {sums} FROM {facts} WHERE {where} "
            f"GROUP BY date_trunc('day', hour), {keys}")


def _scope(advertiser_ids: Sequence[int] | None) -> tuple[str, dict[str, Any]]:
    if advertiser_ids is None:
        return "TRUE", {}
    return "list_contains($advertisers, advertiser_id)", {"advertisers": list(advertiser_ids)}


def _where(query: StatsQuery) -> tuple[str, dict[str, Any]]:
    """The condition on fact rows that a query counts (its UTC hours, scope and filters) and its parameters."""
    first, after = utc_bounds(query.start, query.end, query.time_zone)
    params: dict[str, Any] = {"first": first, "after": after}
    if query.time_zone != "UTC":
        params["tz"] = query.time_zone
    conditions = ["hour >= $first", "hour < $after"]
    if query.advertiser_ids is not None:
        conditions.append("list_contains($advertisers, advertiser_id)")
        params["advertisers"] = list(query.advertiser_ids)
    for index, (key, values) in enumerate(sorted(query.filters.items())):
        conditions.append(f"list_contains($filter{index}, {_dimension_sql(key, query.time_zone)})")
        params[f"filter{index}"] = list(values)
    return " AND ".join(conditions), params


def _history_sql(query: HistoryQuery) -> tuple[str, dict[str, Any]]:
    """A forecast's history: per UTC day and over all the days (one scan: GROUPING SETS) impressions, spend and
    distinct devices (approx_count_distinct: HyperLogLog, a few % off), all of them and those the bid won, and
    the impressions of rows that carry a device id, and the clicks (a CPC bid's cleared price)."""
    checked_keys(query)
    first, after = utc_days(query)
    params: dict[str, Any] = {"first": first, "after": after, "advertisers": list(query.advertiser_ids)}
    conditions = ["hour >= $first", "hour < $after", "list_contains($advertisers, advertiser_id)"]
    for index, (key, values) in enumerate(sorted(query.filters.items())):
        conditions.append(f"list_contains($filter{index}, {DIMENSIONS[key].column})")
        params[f"filter{index}"] = list(values)
    for index, (key, values) in enumerate(sorted(query.excluded.items())):
        conditions.append(f"NOT list_contains($excluded{index}, {DIMENSIONS[key].column})")
        params[f"excluded{index}"] = list(values)
    if query.bid_micros is not None:
        params["bid"] = query.bid_micros
    won = won_condition(query, "$bid")
    device = f"nullif({DEVICE_COLUMN}, '')"
    figures = ("CAST(hour AS DATE) AS day, grouping(day), sum(impressions)::BIGINT, sum(spend_micros)::BIGINT, "
               f"approx_count_distinct({device}), "
               f"sum(impressions) FILTER (WHERE {won})::BIGINT, sum(spend_micros) FILTER (WHERE {won})::BIGINT, "
               f"approx_count_distinct({device}) FILTER (WHERE {won}), "
               f"sum(impressions) FILTER (WHERE {DEVICE_COLUMN} <> '')::BIGINT, sum(clicks)::BIGINT")
    return (f"SELECT {figures} FROM delivery WHERE {' AND '.join(conditions)} GROUP BY GROUPING SETS ((day), ())",
            params)


def _batches_sql(query: StatsQuery) -> tuple[str, dict[str, Any]]:
    """Each batch's hourly rows inside the query, summed, beside its marker (batch id, source, received time)."""
    where, params = _where(query)
    params.pop("tz", None)  # only a time filter reads it, and a query filters by none
    sums = ", ".join(f"sum({m})::BIGINT AS {m}" for m in MEASURES)
    return (f"SELECT b.batch_id, b.source, b.received_at, f.rows, {', '.join(f'f.{m}' for m in MEASURES)} "
            f"FROM (SELECT batch, count(*) AS rows, {sums} FROM delivery WHERE {where} GROUP BY batch) AS f "
            f"JOIN batches AS b ON b.seq = f.batch ORDER BY b.received_at, b.batch_id", params)


def _report_sql(query: StatsQuery) -> tuple[str, dict[str, Any]]:
    """One aggregation over the facts (and, for custom events, the event facts beside them)."""
    for key in query.dimensions:
        if key not in DIMENSIONS:
            raise ValueError(f"unknown dimension {key!r}")
    for key in query.metrics:
        if key not in METRICS:
            raise ValueError(f"unknown metric {key!r}")
    where, params = _where(query)

    # The placement columns the query reads, which decide the table it can read them from.
    columns = {DIMENSIONS[k].column for k in (*query.dimensions, *query.filters) if DIMENSIONS[k].kind != "time"}
    if query.advertiser_ids is not None:
        columns.add("advertiser_id")
    facts, events = tables_for(query, columns)
    read = ", ".join(["hour", *sorted(columns)])
    source = f"SELECT {read}, {', '.join(MEASURES)}, NULL AS event, 0 AS count FROM {facts} WHERE {where}"
    event_sums = []
    if query.events:
        params["events"] = list(query.events)
        source += (f" UNION ALL SELECT {read}, {', '.join('0' for _ in MEASURES)}, event, count "
                   f"FROM {events} WHERE {where} AND list_contains($events, event)")
        for index, name in enumerate(query.events):
            params[f"event{index}"] = name
            column = f'"{EVENT_PREFIX}{name}"'
            event_sums.append(f"coalesce(sum(count) FILTER (WHERE event = $event{index}), 0) AS {column}")
    selected = [f"{_dimension_sql(key, query.time_zone)} AS {key}" for key in query.dimensions]
    sums = [f"coalesce(sum({m}), 0)::BIGINT AS {m}" for m in MEASURES]
    group = f" GROUP BY {', '.join(str(i + 1) for i in range(len(selected)))}" if selected else ""
    inner = f"SELECT {', '.join([*selected, *sums, *event_sums])} FROM ({source}){group}"

    outer = [*query.dimensions, *(f"{METRICS[m].sql} AS {m}" for m in query.metrics),
             *(f'"{EVENT_PREFIX}{name}"' for name in query.events)]
    if "spend" in query.metrics:
        outer.append("spend_micros")  # exact money beside the dollars, so totals and the ledger can agree
    known = set(query.dimensions) | set(query.metrics) | {f"{EVENT_PREFIX}{n}" for n in query.events}
    if query.order_by and query.order_by not in known:
        raise ValueError(f"cannot order by {query.order_by!r}")
    direction = " DESC" if query.descending else ""
    if query.order_by:
        # Rows that tie on the asked order keep the dimensions' order, so every read (and a top 10) is the same.
        keys = [f'"{query.order_by}"{direction} NULLS LAST',
                *(f'"{key}" NULLS LAST' for key in query.dimensions if key != query.order_by)]
    else:
        keys = [f'"{key}"{direction} NULLS LAST' for key in query.dimensions]
    order = f" ORDER BY {', '.join(keys)}" if keys else ""
    limit = f" LIMIT {int(query.limit)}" if query.limit else ""
    sql = f"SELECT {', '.join(outer)} FROM ({inner}){order}{limit}"
    if "$tz" not in sql:
        params.pop("tz", None)  # DuckDB refuses a parameter the statement does not use
    return sql, params


def _dimension_sql(key: str, time_zone: str) -> str:
    return _time_expression(key, time_zone) if DIMENSIONS[key].kind == "time" else DIMENSIONS[key].column


_stores: dict[Path, DuckDBStore] = {}
_stores_lock = threading.Lock()


def open_store(path: Path) -> DuckDBStore:
    """The process's one store for this file (DuckDB allows one opener per file)."""
    with _stores_lock:
        store = _stores.get(path)
        if store is None:
            store = _stores[path] = DuckDBStore(path)
        return store


def close_stores() -> None:
    with _stores_lock:
        for store in _stores.values():
            store.close()
        _stores.clear()


