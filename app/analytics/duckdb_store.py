"""The DuckDB statistics store: one file in the data directory, owned by one process.

Beside the hourly facts it keeps a daily rollup (the same placements summed per UTC day, written in the same
transaction as each batch). Every query that needs no hours and reads UTC days (the dashboards, most reports)
reads the rollup instead: real placements repeat through the day, so it is up to 24 times fewer rows to scan.

DuckDB answers the report queries 10-300x faster than SQLite or PostgreSQL on millions of hourly rows (see
bench/statistics.py), from a single embedded file. The file is locked by the process that opens it, so
the serving process owns it; `python -m app simulate` runs before `serve` (make run does this), and other
writers use the ingestion API. Several serving processes need the ClickHouse backend instead.
"""

from __future__ import annotations

import csv
import tempfile
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb

from app.analytics.schema import DIMENSIONS, EVENT_PREFIX, MEASURES, METRICS, PLACEMENT_COLUMNS
from app.analytics.store import BatchReceipt, FactRow, StatsQuery

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
    impressions BIGINT NOT NULL, clicks BIGINT NOT NULL, spend_micros BIGINT NOT NULL, conversions BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS delivery_events ({_PLACEMENT_DDL}, event VARCHAR NOT NULL, count BIGINT NOT NULL);
"""
# The daily rollup of each fact table: `hour` is the UTC day's midnight, so a query reads either table with the
# same SQL. `batch` is the batch that added the row (a day's placement has one row per batch that delivered it).
ROLLUPS = {"delivery": "delivery_daily", "delivery_events": "delivery_events_daily"}
_ROLLUP_KEYS = {"delivery": "", "delivery_events": ", event"}
_ROLLUP_SUMS = {"delivery": ", ".join(f"sum({m})" for m in MEASURES), "delivery_events": "sum(count)"}

_FACT_COLUMNS = ("hour", *PLACEMENT_COLUMNS, "batch")


def _utc_bounds(start: date, end: date, time_zone: str) -> tuple[datetime, datetime]:
    """The UTC hours [from, to) that make up the local days start..end."""
    zone = ZoneInfo(time_zone)
    first = datetime.combine(start, time(), zone).astimezone(UTC).replace(tzinfo=None)
    after = datetime.combine(end + timedelta(days=1), time(), zone).astimezone(UTC).replace(tzinfo=None)
    return first, after


def _time_expression(key: str, time_zone: str) -> str:
    local = "hour" if time_zone == "UTC" else "timezone($tz, timezone('UTC', hour))"
    return f"CAST({local} AS DATE)" if key == "date" else local


class DuckDBStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._connection = duckdb.connect(str(path))
        self._connection.execute(SCHEMA)
        for facts, rollup in ROLLUPS.items():
            if not self._connection.execute("SELECT 1 FROM information_schema.tables WHERE table_name = ?",
                                            [rollup]).fetchone():
                # A file from before the rollup existed: build it once from the hourly facts.
                self._connection.execute(f"CREATE TABLE {rollup} AS SELECT * FROM {facts} LIMIT 0")
                self._connection.execute(_rollup_insert(facts, "TRUE"))
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
                return BatchReceipt(batch_id, int(known[1]), self._spend_of(db, int(known[0])), duplicate=True)
            seq = int(db.execute("SELECT coalesce(max(seq), 0) + 1 FROM batches").fetchone()[0])  # type: ignore[index]
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
                    for facts in ROLLUPS:
                        db.execute(_rollup_insert(facts, "batch = ?"), [seq])
                    db.execute("INSERT INTO batches VALUES (?, ?, ?, ?, ?)",
                               [seq, batch_id, source, datetime.now(UTC).replace(tzinfo=None), count])
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            return BatchReceipt(batch_id, count, self._spend_of(db, seq), duplicate=False)

    @staticmethod
    def _write_csv(rows: Iterable[FactRow], seq: int, facts_file: Path, events_file: Path) -> tuple[int, int]:
        count = event_count = 0
        with open(facts_file, "w", newline="") as facts_out, open(events_file, "w", newline="") as events_out:
            facts, events = csv.writer(facts_out), csv.writer(events_out)
            for row in rows:
                placement = (row.hour.strftime("%Y-%m-%d %H:00:00"), row.advertiser_id, row.campaign_id,
                             row.creative_id, row.exchange, row.os, row.country, row.app, row.device_type, seq)
                facts.writerow((*placement, row.impressions, row.clicks, row.spend_micros, row.conversions))
                count += 1
                for name, value in row.events.items():
                    if value:
                        events.writerow((*placement, name, value))
                        event_count += 1
        return count, event_count

    @staticmethod
    def _spend_of(db: duckdb.DuckDBPyConnection, seq: int) -> dict[int, int]:
        rows = db.execute("SELECT advertiser_id, sum(spend_micros) FROM delivery WHERE batch = ? GROUP BY 1 "
                          "HAVING sum(spend_micros) > 0", [seq]).fetchall()
        return {int(a): int(s) for a, s in rows}

    def clear(self) -> None:
        with self._write_lock:
            self._cursor().execute("DELETE FROM delivery; DELETE FROM delivery_events; DELETE FROM batches; "
                                   + " ".join(f"DELETE FROM {rollup};" for rollup in ROLLUPS.values()))

    def close(self) -> None:
        self._connection.close()

    # -- reading -----------------------------------------------------------------------------------------
    def query(self, query: StatsQuery) -> list[dict[str, Any]]:
        return _fetch(self._cursor(), *_report_sql(query))

    def query_many(self, queries: Sequence[StatsQuery]) -> list[list[dict[str, Any]]]:
        """Each query's rows, as query() answers them. Queries that sum the same rows (a dashboard's widgets:
        one period, scope and filters, by several dimensions) share one scan with GROUPING SETS, into a
        temporary table each then reads its own ordered rows from."""
        answers: list[list[dict[str, Any]]] = [[] for _ in queries]
        shared: dict[tuple[Any, ...], list[int]] = {}
        for index, query in enumerate(queries):
            shared.setdefault(_scan_key(query), []).append(index)
        for indexes in shared.values():
            sets = list(dict.fromkeys(queries[i].dimensions for i in indexes))
            if len(sets) == 1:
                for index in indexes:
                    answers[index] = self.query(queries[index])
                continue
            keys = list(dict.fromkeys(key for dimensions in sets for key in dimensions))
            inner, params = _aggregate_sql(queries[indexes[0]], sets)
            if "$tz" not in inner:
                params.pop("tz", None)
            cursor = self._cursor()  # a connection of its own: the temporary table is private to it
            try:
                cursor.execute(f"CREATE TEMPORARY TABLE scan AS {inner}", params)
                for index in indexes:
                    query = queries[index]
                    mine = f"SELECT * FROM scan WHERE grouping_id = {_grouping_id(keys, query.dimensions)}"
                    answers[index] = _fetch(cursor, *_shown_sql(query, mine, {}))
            finally:
                cursor.close()
        return answers

    def event_names(self, advertiser_ids: Sequence[int] | None) -> list[str]:
        if advertiser_ids is not None and not advertiser_ids:
            return []
        where, params = _scope(advertiser_ids)
        rows = self._cursor().execute(f"SELECT DISTINCT event FROM delivery_events_daily WHERE {where} ORDER BY 1",
                                      params).fetchall()
        return [r[0] for r in rows]

    def first_and_last_hour(self, advertiser_ids: Sequence[int] | None) -> tuple[datetime, datetime] | None:
        if advertiser_ids is not None and not advertiser_ids:
            return None
        where, params = _scope(advertiser_ids)
        first, last = self._cursor().execute(f"SELECT min(hour), max(hour) FROM delivery WHERE {where}",
                                             params).fetchone()  # type: ignore[misc]
        return (first, last) if first else None


def _fetch(cursor: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cursor.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _csv_columns(with_measures: bool) -> str:
    types = {"hour": "TIMESTAMP", "exchange": "VARCHAR", "os": "VARCHAR", "country": "VARCHAR", "app": "VARCHAR",
             "device_type": "VARCHAR"}
    columns = [f"'{c}': '{types.get(c, 'INTEGER')}'" for c in _FACT_COLUMNS]
    tail = [f"'{m}': 'BIGINT'" for m in MEASURES] if with_measures else ["'event': 'VARCHAR'", "'count': 'BIGINT'"]
    return ", ".join(columns + tail)


def _rollup_insert(facts: str, where: str) -> str:
    """The rows of `facts` matching `where`, summed per UTC day and placement, into its rollup."""
    keys = f"{', '.join(PLACEMENT_COLUMNS)}, batch{_ROLLUP_KEYS[facts]}"
    return (f"INSERT INTO {ROLLUPS[facts]} SELECT date_trunc('day', hour), {keys}, {_ROLLUP_SUMS[facts]} "
            f"FROM {facts} WHERE {where} GROUP BY date_trunc('day', hour), {keys}")


def _reads_days(query: StatsQuery) -> bool:
    """Whether the daily rollup answers this query: no hour asked for, and days that are UTC days."""
    return query.time_zone == "UTC" and "hour" not in query.dimensions and "hour" not in query.filters


def _scope(advertiser_ids: Sequence[int] | None) -> tuple[str, dict[str, Any]]:
    if advertiser_ids is None:
        return "TRUE", {}
    return "list_contains($advertisers, advertiser_id)", {"advertisers": list(advertiser_ids)}


def _report_sql(query: StatsQuery) -> tuple[str, dict[str, Any]]:
    """One aggregation over the facts (and, for custom events, the event facts beside them)."""
    inner, params = _aggregate_sql(query, [query.dimensions])
    return _shown_sql(query, inner, params)


def _checked(query: StatsQuery) -> None:
    for key in query.dimensions:
        if key not in DIMENSIONS:
            raise ValueError(f"unknown dimension {key!r}")
    for key in query.metrics:
        if key not in METRICS:
            raise ValueError(f"unknown metric {key!r}")


def _dimension_sql(key: str, time_zone: str) -> str:
    return _time_expression(key, time_zone) if DIMENSIONS[key].kind == "time" else DIMENSIONS[key].column


def _aggregate_sql(query: StatsQuery, dimension_sets: Sequence[Sequence[str]]) -> tuple[str, dict[str, Any]]:
    """The summed measures of the query's rows (its period, scope, filters and events) grouped by each of the
    dimension sets: one set is a plain GROUP BY; several are GROUPING SETS, one scan for all of them, with
    `grouping_id` telling the sets' rows apart (see _grouping_id)."""
    _checked(query)
    first, after = _utc_bounds(query.start, query.end, query.time_zone)
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
    where = " AND ".join(conditions)

    keys = list(dict.fromkeys(key for dimensions in dimension_sets for key in dimensions))
    expressions = [_dimension_sql(key, query.time_zone) for key in keys]
    selected = [f"{expression} AS {key}" for expression, key in zip(expressions, keys, strict=True)]
    placement = ", ".join(["hour", *PLACEMENT_COLUMNS])
    facts, events = ("delivery", "delivery_events")
    if _reads_days(query):
        facts, events = ROLLUPS[facts], ROLLUPS[events]
    source = f"SELECT {placement}, {', '.join(MEASURES)}, NULL AS event, 0 AS count FROM {facts} WHERE {where}"
    event_sums = []
    if query.events:
        params["events"] = list(query.events)
        source += (f" UNION ALL SELECT {placement}, {', '.join('0' for _ in MEASURES)}, event, count "
                   f"FROM {events} WHERE {where} AND list_contains($events, event)")
        for index, name in enumerate(query.events):
            params[f"event{index}"] = name
            column = f'"{EVENT_PREFIX}{name}"'
            event_sums.append(f"coalesce(sum(count) FILTER (WHERE event = $event{index}), 0) AS {column}")
    sums = [f"coalesce(sum({m}), 0)::BIGINT AS {m}" for m in MEASURES]
    if len(dimension_sets) > 1:
        sets = ", ".join("(" + ", ".join(_dimension_sql(k, query.time_zone) for k in dimensions) + ")"
                         for dimensions in dimension_sets)
        grouping = [f"GROUPING({', '.join(expressions)}) AS grouping_id"] if expressions else ["0 AS grouping_id"]
        group = f" GROUP BY GROUPING SETS ({sets})"
    else:
        grouping = []
        group = f" GROUP BY {', '.join(str(i + 1) for i in range(len(selected)))}" if selected else ""
    return f"SELECT {', '.join([*selected, *grouping, *sums, *event_sums])} FROM ({source}){group}", params


def _grouping_id(keys: Sequence[str], dimensions: Sequence[str]) -> int:
    """GROUPING()'s number for one set: a bit per key, most significant first, set when the key is not in it."""
    return sum(1 << (len(keys) - 1 - index) for index, key in enumerate(keys) if key not in dimensions)


def _shown_sql(query: StatsQuery, inner: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The query's dimensions and metrics from summed measures, ordered and limited as it asks."""
    outer = [*query.dimensions, *(f"{METRICS[m].sql} AS {m}" for m in query.metrics),
             *(f'"{EVENT_PREFIX}{name}"' for name in query.events)]
    if "spend" in query.metrics:
        outer.append("spend_micros")  # exact money beside the dollars, so totals and the ledger can agree
    order_keys = [query.order_by] if query.order_by else list(query.dimensions)
    known = set(query.dimensions) | set(query.metrics) | {f"{EVENT_PREFIX}{n}" for n in query.events}
    for key in order_keys:
        if key not in known:
            raise ValueError(f"cannot order by {key!r}")
    direction = " DESC" if query.descending else ""
    ordering = ", ".join(f'"{key}"{direction} NULLS LAST' for key in order_keys)
    order = f" ORDER BY {ordering}" if order_keys else ""
    limit = f" LIMIT {int(query.limit)}" if query.limit else ""
    sql = f"SELECT {', '.join(outer)} FROM ({inner}){order}{limit}"
    params = {**params}
    if "$tz" not in sql:
        params.pop("tz", None)  # DuckDB refuses a parameter the statement does not use
    return sql, params


def _scan_key(query: StatsQuery) -> tuple[Any, ...]:
    """What decides which rows a query sums: queries with the same key can share one scan."""
    return (query.start, query.end, query.advertiser_ids, tuple(sorted(query.filters.items())), query.time_zone,
            query.events, _reads_days(query))


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


