"""The ClickHouse statistics store: the same contract as the DuckDB store (base.py), in ClickHouse SQL.

One store, two ways to send its SQL (an Executor): chDB, ClickHouse's engine inside this process on a directory
(`chdb:///path`: how the suite runs this SQL without a server), and a ClickHouse server over HTTP through
clickhouse-connect (`clickhouse://user:pass@host:8123/db`), which several processes can share.

Tables. The hourly facts and custom events are MergeTrees partitioned by month and ordered by (advertiser,
campaign, hour), the dashboards' reads. The daily rollups (the DuckDB store's ROLLUPS, same names and columns,
and daily_totals, ClickHouse's own) are SummingMergeTrees, and every read sums with GROUP BY, so parts not merged
yet count right.

A batch whole or not at all. ClickHouse has no transaction over several tables, so every fact row a batch writes
(facts, events) carries a tag drawn for that attempt, and the batch's marker (batch id -> tag) in `batches` is
written after them. Every read of the facts counts only rows whose tag is a marked one: a process that dies
mid-batch leaves rows no read ever counts, and the client's retry writes under a new tag. Two processes that race
on one batch id each write a marker; the first marker (by time, then tag) is the batch, the other process answers
its receipt as a duplicate, so the ledger charges once (markers are stamped by the server as they are written, so
one process's first marker stays first).

The rollups carry no tag, so a daily read filters nothing and reads a row per key and day (a tag in every rollup
row made them 1.5-3x longer and every read filter them: bench/statistics_stores.py). A batch's rollup rows are
written once it is the marked one, summed from its own facts by INSERT ... SELECT, under an insert deduplication
token made from the batch id: a second writing of the same batch (two processes that both took themselves for
the first, or a repair after a crash) is dropped by ClickHouse. `rolled` records the batches whose rollups are
complete; a batch marked but not rolled (its process died in between) is rolled by the next ingestion or store
opening of any process. Until then, and while a batch is being written, its days read a moment behind its hours.

Times: `hour` is DateTime('UTC'); a query's days and hours in its time zone are the wall time there (the UTC
hour plus the zone's offset at that instant), the same days and hours the DuckDB store answers. Figures are the same sums of the same Int64 columns and the same
Float64 ratios, so they agree to the cent (tests/test_store_contract.py).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

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
    StoreInUse,
)
from app.warehouse.history import checked_keys, history_of, utc_days, won_condition
from app.warehouse.rollups import EVENTS_ROLLUP, ROLLUPS, reads_days, tables_for, utc_bounds
from app.warehouse.schema import (
    DEVICE_COLUMN,
    DIMENSIONS,
    EVENT_NAME_PATTERN,
    EVENT_PREFIX,
    MEASURES,
    METRICS,
    PLACEMENT_COLUMNS,
)

# Every column's type, in the facts and in the rollups alike. The few-valued texts are LowCardinality (stored
# and grouped as small dictionary numbers: a report by day x country x OS x exchange hashes no strings); an app
# id has too many values for it.
_TYPES: dict[str, str] = {
    "hour": "DateTime('UTC')", "advertiser_id": "Int64", "campaign_id": "Int64", "creative_id": "Int64",
    "exchange": "LowCardinality(String)", "os": "LowCardinality(String)", "country": "LowCardinality(String)",
    "app": "String", "device_type": "LowCardinality(String)", "tag": "UInt64", "event": "LowCardinality(String)",
    **{m: "Int64" for m in MEASURES}, "count": "Int64", "rows": "Int64", DEVICE_COLUMN: "String"}
_PLACEMENT_DDL = ", ".join(f"{c} {_TYPES[c]}" for c in ("hour", *PLACEMENT_COLUMNS, "tag"))
_MEASURES_DDL = ", ".join(f"{m} {_TYPES[m]}" for m in MEASURES)
_FACTS_LAYOUT = "ENGINE = MergeTree PARTITION BY toYYYYMM(hour) ORDER BY (advertiser_id, campaign_id, hour)"
_FACT_COLUMNS = ("hour", *PLACEMENT_COLUMNS, "tag", *MEASURES, DEVICE_COLUMN)
_EVENT_COLUMNS = ("hour", *PLACEMENT_COLUMNS, "tag", "event", "count")


# How many of a rollup's last inserts ClickHouse remembers to drop a repeat of (per table). A repeat comes from a
# race or a repair within moments of the first writing; this bounds the memory it takes.
_DEDUPLICATION_WINDOW = 10_000
# The metrics that are sums of a measure under the measure's name (spend_micros is always summed beside spend).
_SUMMED_METRICS = tuple(m for m in MEASURES if m in METRICS) + ("spend",)


# Query settings every read runs with. ClickHouse keeps the decompressed blocks of small reads (up to a million
# rows: a dashboard's month of rollups, an advertiser's hours) in memory instead of reading, checksumming and
# decompressing them again on every read (chDB at 10M rows, CPU per read: top 10 campaigns 20 -> 15 ms, an
# advertiser's week by hour 19 -> 15 ms; bench/statistics_stores.py). A server needs its uncompressed_cache_size
# set for it (deploy/clickhouse/uncompressed-cache.xml; README, "Past one machine"); chDB's is below. And no
# weighing of the implicit min/max/count projection, which no read here can use (each filters by a column besides
# the partition key's), 5-10 % of a small read (chDB: everyone's 30 days' totals, an advertiser's 30 days).
_READ_SETTINGS: dict[str, int] = {"use_uncompressed_cache": 1, "optimize_use_implicit_projections": 0}
# chDB's in-process engine, started with these: the cache above, bounded (it fills up to this and stays), and no
# compiling of expressions and aggregates to machine code, which chDB does again on every read of the same SQL
# (1-7 ms a read, more than the compiled code saves on these reads: top 10 campaigns 15 -> 12.6 ms CPU, an
# advertiser's app x country 12 -> 10.4; the 90-day report alike).
_CHDB_STARTUP: dict[str, int] = {**_READ_SETTINGS, "uncompressed_cache_size": 512 * 2**20, "compile_expressions": 0,
                                 "compile_aggregate_expressions": 0}


# ClickHouse's own rollup beside the shared ones: every advertiser's figures summed per day, with no key. A read of
# everyone's totals or days (the admin's headline figures and chart) reads its row a day directly; read from
# daily_by_campaign, ClickHouse first weighed its projections, a third of the read (chDB at 10M rows, everyone's 30
# days' totals: 5.9 -> 4.1 ms CPU, where DuckDB takes ~3.5).
_TOTALS_ROLLUP = "daily_totals"
# And the batches behind a figure (explain a figure), per day, advertiser and campaign: a batch's hourly rows
# counted and summed under its tag. Everyone's batches behind 30 days read its ~1 row per campaign, day and batch
# instead of grouping a month of hourly facts by tag (chDB at 10M rows: 66-71 ms, against DuckDB's 12-13 ms over
# its small batch numbers; bench/statistics_stores.py (m)). Only reads filtered by advertiser or campaign can
# use it; a filter by exchange, country ... reads the facts as before.
_BATCHES_ROLLUP = "daily_by_batch"
_BATCHES_ROLLUP_KEYS = ("advertiser_id", "campaign_id")
_ALL_ROLLUPS = (*ROLLUPS, EVENTS_ROLLUP, _TOTALS_ROLLUP, _BATCHES_ROLLUP)
# A summed column that is not a sum of the facts' column of its name: a batch's hourly rows, counted.
_SUM_OF: dict[str, str] = {"rows": "count()"}


def _rollup_parts(rollup: str) -> tuple[str, list[str], list[str]]:
    """A rollup's source facts table, its key columns and its summed columns."""
    if rollup == EVENTS_ROLLUP:
        return "delivery_events", [*PLACEMENT_COLUMNS, "event"], ["count"]
    if rollup == _TOTALS_ROLLUP:
        return "delivery", [], list(MEASURES)
    if rollup == _BATCHES_ROLLUP:
        return "delivery", [*_BATCHES_ROLLUP_KEYS, "tag"], ["rows", *MEASURES]
    return "delivery", list(ROLLUPS[rollup]), list(MEASURES)


# Sums kept beside a rollup's rows for the reads over every advertiser (an admin's dashboard, a report of the
# market), which the rollup's order (advertiser first) cannot narrow: the projection's rows, a handful per day,
# are summed instead of every campaign's, and ClickHouse picks them by itself when a query's columns allow it.
_PROJECTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "delivery_daily": {"by_market": ("exchange", "os", "country", "device_type")},
    "daily_by_campaign": {"by_advertiser": ("advertiser_id",), "by_campaign": ("campaign_id",)},
    "daily_by_creative": {"by_creative": ("creative_id",)},
    "daily_by_exchange": {"by_exchange": ("exchange",)},
    "daily_by_os": {"by_os": ("os",)},
}
# The rollups' layout, named by what makes it: a store whose layout table lacks this name has its rollups made
# again (_remake_rollups), so a change to the projections reaches stores made before it.
_ROLLUP_LAYOUT = f"untagged rollups; {_TOTALS_ROLLUP}; {_BATCHES_ROLLUP}; " + "; ".join(
    f"{rollup}.{name}({','.join(kept)})" for rollup, named in _PROJECTIONS.items() for name, kept in named.items())


def _schema(db: str) -> list[str]:
    statements = [
        f"CREATE DATABASE IF NOT EXISTS {db}",
        f"CREATE TABLE IF NOT EXISTS {db}.batches (batch_id String, tag UInt64, source String, "
        "received_at DateTime64(6, 'UTC'), rows Int64) ENGINE = MergeTree ORDER BY (batch_id, received_at)",
        f"CREATE TABLE IF NOT EXISTS {db}.rolled (tag UInt64, rolled_at DateTime64(6, 'UTC')) "
        "ENGINE = MergeTree ORDER BY tag",
        f"CREATE TABLE IF NOT EXISTS {db}.layout (name String) ENGINE = MergeTree ORDER BY name",
        f"CREATE TABLE IF NOT EXISTS {db}.delivery ({_PLACEMENT_DDL}, {_MEASURES_DDL}, "
        f"{DEVICE_COLUMN} {_TYPES[DEVICE_COLUMN]} DEFAULT '') {_FACTS_LAYOUT}",
        # A store from before rows carried a device id: the column is added, empty (metadata only: old parts
        # read the default).
        f"ALTER TABLE {db}.delivery ADD COLUMN IF NOT EXISTS {DEVICE_COLUMN} {_TYPES[DEVICE_COLUMN]} DEFAULT ''",
        f"CREATE TABLE IF NOT EXISTS {db}.delivery_events ({_PLACEMENT_DDL}, event {_TYPES['event']}, "
        f"count {_TYPES['count']}) {_FACTS_LAYOUT}",
    ]
    for rollup in _ALL_ROLLUPS:
        _, keys, sums = _rollup_parts(rollup)
        ddl = [f"{c} {_TYPES[c]}" for c in ("hour", *keys, *sums)]
        ddl += [f"PROJECTION {name} (SELECT hour, {', '.join(kept)}, {', '.join(f'sum({s})' for s in sums)} "
                f"GROUP BY hour, {', '.join(kept)})" for name, kept in _PROJECTIONS.get(rollup, {}).items()]
        owners = [c for c in ("advertiser_id", "campaign_id") if c in keys]
        order = [*owners, "hour", *(c for c in keys if c not in owners)]
        statements.append(
            f"CREATE TABLE IF NOT EXISTS {db}.{rollup} ({', '.join(ddl)}) "
            f"ENGINE = SummingMergeTree PARTITION BY toYYYYMM(hour) ORDER BY ({', '.join(order)}) "
            f"SETTINGS non_replicated_deduplication_window = {_DEDUPLICATION_WINDOW}, "
            "deduplicate_merge_projection_mode = 'rebuild'")  # a merge sums rows: their projection is made again
    return statements


def _roll_up_sql(db: str, rollup: str, token: str, which: str) -> str:
    """The INSERT that adds the facts matching `which`, summed per UTC day, to a rollup."""
    source, keys, sums = _rollup_parts(rollup)
    return (f"INSERT INTO {db}.{rollup} ({', '.join(['hour', *keys, *sums])}) "
            f"SETTINGS insert_deduplication_token = '{token}' "
            f"SELECT {', '.join(['toStartOfDay(hour) AS day', *keys, *(_SUM_OF.get(s, f'sum({s})') for s in sums)])} "
            f"FROM {db}.{source} WHERE {which} GROUP BY {', '.join(['day', *keys])}")


class Executor(Protocol):
    """How the store's SQL reaches ClickHouse. Parameters are ClickHouse's own ({name:Type} in the SQL)."""

    def command(self, sql: str, params: Mapping[str, Any] | None = None) -> None: ...

    def select(self, sql: str, params: Mapping[str, Any] | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Column names and rows as Python values (Date: date; DateTime: naive datetime, wall time of its zone)."""

    def insert(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Rows into `table` in one INSERT; DateTime values are aware UTC datetimes."""

    def close(self) -> None: ...


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _text_value(value: Any) -> str:
    """A query parameter (or a DateTime field of a CSV insert) in ClickHouse's text format."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if value.tzinfo else value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, list | tuple):
        return "[" + ",".join(
            "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'" if isinstance(v, str) else str(int(v))
            for v in value) + "]"
    if isinstance(value, str):
        return _escaped(value)
    return str(value)


def _python_values(arrow: Any, column: Any, zone: str | None) -> list[Any]:
    """An Arrow column's Python values: Date as date, DateTime (`zone`: UInt32 seconds) and DateTime64 as the
    naive wall time of their zone, numbers as int and float, NULL as None."""
    if zone is not None:
        column = column.cast(arrow.int64()).cast(arrow.timestamp("s", tz=zone))
    if arrow.types.is_timestamp(column.type) and column.type.tz:
        column = arrow.compute.local_timestamp(column)
    values: list[Any] = column.to_pylist()
    return values


class ChDBExecutor:
    """ClickHouse's engine in this process (the chdb package), on a directory of its own."""

    def __init__(self, path: Path) -> None:
        # pyarrow comes with chdb (and only the chDB store needs it).
        import pyarrow
        import pyarrow.compute
        import pyarrow.ipc
        from chdb import session

        self._arrow: Any = pyarrow

        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        opener: Any = session.Session  # chdb has no type hints
        try:
            # Startup arguments after the path (chDB: server settings, and query settings for this session).
            self._session: Any = opener(f"{path}?{urlencode(_CHDB_STARTUP)}")
        except RuntimeError as error:  # chDB's engine allows one process per directory; it says only this
            raise StoreInUse(str(path), str(error)) from error
        self._datetimes: dict[str, dict[int, str]] = {}  # SQL text -> its DateTime columns (select)

    def _run(self, sql: str, params: Mapping[str, Any] | None, fmt: str) -> Any:
        values = {name: _text_value(value) for name, value in (params or {}).items()}
        return self._session.query(sql, fmt, params=values) if values else self._session.query(sql, fmt)

    def command(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self._run(sql, params, "CSV")

    def select(self, sql: str, params: Mapping[str, Any] | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
        # Arrow, uncompressed: columns of C values that pyarrow turns into Python values in bulk, 2-3x cheaper
        # than parsing JSON and converting its dates and floats value by value (bench/statistics.py: a report
        # of 100,000 rows).
        answer = self._run(f"{sql} SETTINGS output_format_arrow_compression_method = 'none'", params,
                           "ArrowStream").bytes()
        if not answer:
            return [], []
        table = self._arrow.ipc.open_stream(answer).read_all()
        datetimes: dict[int, str] = {}
        if any(self._arrow.types.is_uint32(column.type) for column in table.columns):
            datetimes = self._datetime_columns(sql, params)
        columns = [_python_values(self._arrow, column, datetimes.get(index))
                   for index, column in enumerate(table.columns)]
        return list(table.column_names), list(zip(*columns, strict=True))

    def _datetime_columns(self, sql: str, params: Mapping[str, Any] | None) -> dict[int, str]:
        """Which result columns are DateTime (ClickHouse writes them into Arrow as UInt32 seconds, like a
        number): column index -> its time zone. Asked once per SQL text (its parameters' values change no type)."""
        found = self._datetimes.get(sql)
        if found is None:
            described = self._run(f"DESCRIBE TABLE ({sql})", params, "TabSeparated").bytes().decode()
            found = {}
            for index, line in enumerate(described.splitlines()):
                kind = line.split("\t")[1].replace("\\'", "'")
                kind = kind.removeprefix("Nullable(").removeprefix("LowCardinality(")
                if kind.startswith("DateTime") and not kind.startswith("DateTime64"):
                    zone = re.search(r"'([^']+)'", kind)
                    found[index] = zone.group(1) if zone else "UTC"  # chDB's default zone: the process's, UTC here
            if len(self._datetimes) > 1000:
                self._datetimes.clear()  # SQL texts are a few per query shape; this only bounds a leak
            self._datetimes[sql] = found
        return found

    def insert(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        # CSV written by the csv module (C speed; quotes doubled as ClickHouse reads them), each distinct hour
        # formatted once.
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        times = [index for index, value in enumerate(rows[0]) if isinstance(value, datetime)]
        stamps: dict[datetime, str] = {}
        for row in rows:
            if times:
                row = list(row)
                for index in times:
                    stamp = stamps.get(row[index])
                    if stamp is None:
                        stamp = stamps[row[index]] = _text_value(row[index])
                    row[index] = stamp
            writer.writerow(row)
        self._session.query(f"INSERT INTO {table} ({', '.join(columns)}) FORMAT CSV\n{buffer.getvalue()}", "CSV")

    def close(self) -> None:
        self._session.close()


class HTTPExecutor:
    """A ClickHouse server over HTTP (clickhouse-connect), shared by this process's threads.

    The client names no database: the URL's may not exist until the store creates it, and the store's SQL names
    its tables in full (db.table). It keeps no HTTP session (a server runs one query at a time in a session, and
    clickhouse-connect refuses a second in it), so threads query at once on the client's connection pool.

    That pool keeps `connections` open: by default as many as the process may hold to the database
    (DSP_DB_POOL_SIZE + DSP_DB_MAX_OVERFLOW), since a request's thread holds at most one of each. clickhouse-connect's
    own default pool keeps 8 and opens, then drops, one more for every query beyond them ("Connection pool is full,
    discarding connection" in the log): a connection set up per read at a peak (a TLS handshake on a real network),
    seen with two workers serving 100 tabs and 10 API clients (bench/load_soak.py).
    """

    def __init__(self, url: str, connections: int | None = None) -> None:
        from urllib.parse import parse_qs, unquote, urlsplit

        import clickhouse_connect
        from clickhouse_connect.driver import httputil

        from app.kernel.config import get_settings

        if connections is None:
            settings = get_settings()
            connections = settings.db_pool_size + settings.db_max_overflow
        parts = urlsplit(url)
        secure = parse_qs(parts.query).get("secure", ["false"])[0].lower() in ("1", "true", "yes")
        self._pool = httputil.get_pool_manager(maxsize=connections)  # this client's own: close() ends it
        self._client = clickhouse_connect.get_client(
            host=parts.hostname or "localhost", port=parts.port or (8443 if secure else 8123),
            username=unquote(parts.username or "default"), password=unquote(parts.password or ""), secure=secure,
            autogenerate_session_id=False, settings=_READ_SETTINGS,
            pool_mgr=self._pool)

    def command(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self._client.command(sql, parameters=dict(params or {}))

    def select(self, sql: str, params: Mapping[str, Any] | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
        # Every DateTime the store reads is DateTime('UTC'). A server answers the zone in the column's type only
        # to a client that sent its protocol version (a proxy may drop it); without it clickhouse-connect would
        # read the column in the server's zone. UTC for zone-less columns reads it the same either way.
        result = self._client.query(sql, parameters=dict(params or {}), query_tz="UTC")
        return list(result.column_names), [tuple(_naive(value) for value in row) for row in result.result_rows]

    def insert(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._client.insert(table, [list(row) for row in rows], column_names=list(columns))

    def close(self) -> None:
        self._client.close()
        self._pool.clear()  # a pool handed to the client is the caller's to close


def _naive(value: Any) -> Any:
    """A DateTime as its wall time in its column's zone (what the DuckDB store answers)."""
    return value.replace(tzinfo=None) if isinstance(value, datetime) and value.tzinfo else value


class ClickHouseStore:
    def __init__(self, executor: Executor, database: str = "dsp") -> None:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", database):
            raise ValueError(f"not a ClickHouse database name: {database!r}")
        self._executor = executor
        self.database = database
        # Each batch id's first marker is the batch: the tags every read of the facts counts.
        self._marked = (f"(SELECT argMin(tag, (received_at, tag)) FROM {database}.batches GROUP BY batch_id)")
        self._write_lock = threading.Lock()  # this process's batches one at a time (other processes: see above)
        with self._write_lock:
            for statement in _schema(database):
                executor.command(statement)
            self._remake_rollups()
            self._roll_up_pending()

    def _remake_rollups(self) -> None:
        """Rollups made again from the marked batches' facts when their layout (_ROLLUP_LAYOUT) is not the
        store's: a store made when every rollup row carried its batch's tag (fed by materialized views), or
        before the projections. Done from the start again if a process stops half way: the layout's name is
        written last. (Start one process first after an upgrade that changes it: two would each start it.)"""
        db = self.database
        _, done = self._executor.select(f"SELECT 1 FROM {db}.layout WHERE name = {{layout:String}}",
                                        {"layout": _ROLLUP_LAYOUT})
        if done:
            return
        _, views = self._executor.select(
            "SELECT name FROM system.tables WHERE database = {db:String} AND engine = 'MaterializedView'", {"db": db})
        for (view,) in views:
            self._executor.command(f"DROP TABLE IF EXISTS {db}.`{view}`")
        for rollup in (*_ALL_ROLLUPS, "rolled"):
            self._executor.command(f"DROP TABLE IF EXISTS {db}.{rollup}")
        for statement in _schema(db):
            self._executor.command(statement)
        token = secrets.token_hex(16)  # fresh tables: nothing to drop a repeat of
        for rollup in _ALL_ROLLUPS:
            self._executor.command(_roll_up_sql(db, rollup, token, f"tag IN {self._marked}"))
        self._executor.command(f"INSERT INTO {db}.rolled (tag, rolled_at) SELECT tag, now64(6, 'UTC') "
                               f"FROM {self._marked} AS marked(tag)")
        self._executor.command(f"INSERT INTO {db}.layout (name) VALUES ({{layout:String}})", {"layout": _ROLLUP_LAYOUT})

    def _roll_up_pending(self) -> None:
        """Every marked batch whose rollup rows are not all written (its process died in between)."""
        db = self.database
        _, pending = self._executor.select(
            f"SELECT batch_id, argMin(tag, (received_at, tag)) AS first FROM {db}.batches GROUP BY batch_id "
            f"HAVING first NOT IN (SELECT tag FROM {db}.rolled)")
        for batch_id, tag in pending:
            self._roll_up(str(batch_id), int(tag))

    def _roll_up(self, batch_id: str, tag: int, hours: tuple[datetime, datetime] | tuple[()] | None = None) -> None:
        """The batch's rows into every rollup, then its `rolled` record. The token (a digest: a batch id is any
        text) makes ClickHouse drop a repeat of an insert already done. `hours`, the batch's first and last when
        known (() for a batch without rows), spare a scan of every month's facts for the tag."""
        token = hashlib.sha256(batch_id.encode()).hexdigest()
        params: dict[str, Any] = {"tag": tag}
        which = "tag = {tag:UInt64}"
        if hours:
            params |= {"first": f"{hours[0]:%Y-%m-%d %H:%M:%S}", "last": f"{hours[1]:%Y-%m-%d %H:%M:%S}"}
            which = "hour >= {first:DateTime('UTC')} AND hour <= {last:DateTime('UTC')} AND " + which
        for rollup in _ALL_ROLLUPS if hours != () else ():
            self._executor.command(_roll_up_sql(self.database, rollup, token, which), params)
        self._executor.command(f"INSERT INTO {self.database}.rolled (tag, rolled_at) "
                               "SELECT {tag:UInt64}, now64(6, 'UTC')", {"tag": tag})

    # -- writing -----------------------------------------------------------------------------------------
    def ingest(self, batch_id: str, rows: Iterable[FactRow], *, source: str) -> BatchReceipt:
        with self._write_lock:
            self._roll_up_pending()  # another process's batch left half rolled, if any (one query when none)
            first = self._first_marker(batch_id)
            if first:
                return self._receipt(batch_id, *first, duplicate=True)
            tag = secrets.randbits(63) + 1
            facts: list[tuple[Any, ...]] = []
            events: list[tuple[Any, ...]] = []
            hours: dict[datetime, datetime] = {}  # each distinct hour made UTC once (a batch has few)
            for row in rows:
                hour = hours.get(row.hour)
                if hour is None:
                    hour = hours[row.hour] = row.hour.replace(minute=0, second=0, microsecond=0,
                                                              tzinfo=row.hour.tzinfo or UTC).astimezone(UTC)
                # The placement columns (PLACEMENT_COLUMNS, in order) by name: a million rows read through
                # getattr in a generator took ~2 s.
                placement = (hour, row.advertiser_id, row.campaign_id, row.creative_id, row.exchange, row.os,
                             row.country, row.app, row.device_type, tag)
                facts.append((*placement, row.impressions, row.clicks, row.spend_micros, row.conversions,
                              row.device))
                if row.events:
                    events.extend((*placement, name, value) for name, value in row.events.items() if value)
            db = self.database
            self._executor.insert(f"{db}.delivery", _FACT_COLUMNS, facts)
            self._executor.insert(f"{db}.delivery_events", _EVENT_COLUMNS, events)
            # Stamped by ClickHouse as it writes: a marker written after another process has read its own as
            # the first is always later, so that process stays the batch (a client's clock could say otherwise).
            self._executor.command(
                f"INSERT INTO {db}.batches (batch_id, tag, source, received_at, rows) SELECT {{batch:String}}, "
                "{tag:UInt64}, {source:String}, now64(6, 'UTC'), {rows:Int64}",
                {"batch": batch_id, "tag": tag, "source": source, "rows": len(facts)})
            winner = self._first_marker(batch_id)
            assert winner is not None  # the marker was just written
            if winner[1] == tag:
                self._roll_up(batch_id, tag, (min(f[0] for f in facts), max(f[0] for f in facts)) if facts else ())
            return self._receipt(batch_id, *winner, duplicate=winner[1] != tag)

    def _first_marker(self, batch_id: str) -> tuple[int, int] | None:
        """(rows, tag) of this batch id's first marker, if it has one."""
        _, found = self._executor.select(
            f"SELECT rows, tag FROM {self.database}.batches WHERE batch_id = {{batch:String}} "
            "ORDER BY received_at, tag LIMIT 1", {"batch": batch_id})
        return (int(found[0][0]), int(found[0][1])) if found else None

    def _receipt(self, batch_id: str, count: int, tag: int, *, duplicate: bool) -> BatchReceipt:
        _, rows = self._executor.select(
            f"SELECT advertiser_id, campaign_id, sum(spend_micros) AS spend FROM {self.database}.delivery "
            "WHERE tag = {tag:UInt64} GROUP BY advertiser_id, campaign_id HAVING spend > 0 "
            "ORDER BY advertiser_id, campaign_id", {"tag": tag})
        by_campaign: dict[int, dict[int, int]] = {}
        for advertiser, campaign, spend in rows:
            by_campaign.setdefault(int(advertiser), {})[int(campaign)] = int(spend)
        return BatchReceipt(batch_id, count, {a: sum(split.values()) for a, split in by_campaign.items()},
                            duplicate=duplicate, spend_by_campaign=by_campaign)

    def clear(self) -> None:
        with self._write_lock:
            for table in ("batches", "rolled", "delivery", "delivery_events", *_ALL_ROLLUPS):
                self._executor.command(f"TRUNCATE TABLE IF EXISTS {self.database}.{table}")

    def close(self) -> None:
        self._executor.close()

    # -- reading -----------------------------------------------------------------------------------------
    def query(self, query: StatsQuery) -> list[StatsRow]:
        sql, params = _report_sql(query, self.database, self._marked)
        with STATISTICS_QUERY_SECONDS.time():
            names, rows = self._executor.select(sql, params)
        return [dict(zip(names, row, strict=True)) for row in rows]

    def batches_of(self, query: StatsQuery) -> list[BatchShare]:
        if query.advertiser_ids is not None and not query.advertiser_ids:
            return []
        _, rows = self._executor.select(*_batches_sql(query, self.database))
        return [BatchShare(str(batch_id), str(source), _naive(received_at), *(int(n) for n in counts))
                for batch_id, source, received_at, *counts in rows]

    def batches_since(self, since: datetime | None) -> list[StoredBatch]:
        db = self.database
        # Each batch id's first marker is the batch (as every read counts it); a raced duplicate's rows join nothing.
        _, marks = self._executor.select(
            f"SELECT batch_id, argMin(tag, (received_at, tag)) AS first_tag, min(received_at) AS first_received "
            f"FROM {db}.batches GROUP BY batch_id "
            + ("HAVING first_received >= {since:DateTime64(6, 'UTC')} " if since else "")
            + "ORDER BY first_received, batch_id", {"since": f"{since:%Y-%m-%d %H:%M:%S.%f}"} if since else None)
        if not marks:
            return []
        splits: dict[int, dict[int, dict[int, int]]] = {int(tag): {} for _batch, tag, _received in marks}
        _, rows = self._executor.select(
            f"SELECT tag, advertiser_id, campaign_id, sum(spend_micros) AS spend FROM {db}.delivery "
            "WHERE tag IN {tags:Array(UInt64)} GROUP BY tag, advertiser_id, campaign_id HAVING spend > 0 "
            "ORDER BY tag, advertiser_id, campaign_id", {"tags": list(splits)})
        for tag, advertiser, campaign, spend in rows:
            splits[int(tag)].setdefault(int(advertiser), {})[int(campaign)] = int(spend)
        return [StoredBatch(str(batch_id), _naive(received), splits[int(tag)]) for batch_id, tag, received in marks]

    def delivery_history(self, query: HistoryQuery) -> DeliveryHistory:
        _, rows = self._executor.select(*_history_sql(query, self.database, self._marked))
        return history_of(rows)

    def event_names(self, advertiser_ids: Sequence[int] | None) -> list[str]:
        if advertiser_ids is not None and not advertiser_ids:
            return []
        where, params = _scope(advertiser_ids)
        _, rows = self._executor.select(
            f"SELECT DISTINCT event FROM {self.database}.{EVENTS_ROLLUP} WHERE {where} ORDER BY event", params)
        return [str(r[0]) for r in rows]

    def first_and_last_hour(self, advertiser_ids: Sequence[int] | None) -> tuple[datetime, datetime] | None:
        if advertiser_ids is not None and not advertiser_ids:
            return None
        where, params = _scope(advertiser_ids)
        _, rows = self._executor.select(
            f"SELECT min(hour), max(hour), count() FROM {self.database}.delivery "
            f"WHERE {where} AND tag IN {self._marked}", params)
        first, last, count = rows[0]
        return (first, last) if count else None


def _scope(advertiser_ids: Sequence[int] | None) -> tuple[str, dict[str, Any]]:
    if advertiser_ids is None:
        return "1", {}
    return "advertiser_id IN {advertisers:Array(Int64)}", {"advertisers": [int(a) for a in advertiser_ids]}


def _dimension_sql(key: str, time_zone: str, ts: str = "ts") -> str:
    """A dimension over the source's `ts` (the fact's UTC hour): the day or hour in the query's time zone."""
    dimension = DIMENSIONS[key]
    if dimension.kind != "time":
        return dimension.column
    # The wall time in the zone, as a DateTime('UTC') that reads as it: like the DuckDB store's local timestamp,
    # the two 01:00s of a night the clocks go back are one hour (grouping on the instant would give two rows).
    zoned = ts if time_zone == "UTC" else f"addSeconds({ts}, timeZoneOffset(toTimeZone({ts}, {{tz:String}})))"
    return f"toDate({zoned})" if key == "date" else zoned


def _conditions(query: StatsQuery) -> tuple[list[str], dict[str, Any]]:
    """The conditions on fact rows that a query counts (its UTC hours, scope and filters) and their parameters."""
    first, after = utc_bounds(query.start, query.end, query.time_zone)
    # UTC as text: clickhouse-connect may read a naive datetime as the client machine's local time.
    params: dict[str, Any] = {"first": f"{first:%Y-%m-%d %H:%M:%S}", "after": f"{after:%Y-%m-%d %H:%M:%S}"}
    conditions = ["hour >= {first:DateTime('UTC')}", "hour < {after:DateTime('UTC')}"]
    if query.advertiser_ids is not None:
        conditions.append("advertiser_id IN {advertisers:Array(Int64)}")
        params["advertisers"] = [int(a) for a in query.advertiser_ids]
    for index, (key, values) in enumerate(sorted(query.filters.items())):
        dimension = DIMENSIONS[key]
        if dimension.kind == "time":
            raise ValueError(f"cannot filter by {key!r}")
        if dimension.kind == "int":
            conditions.append(f"{dimension.column} IN {{filter{index}:Array(Int64)}}")
            params[f"filter{index}"] = [int(v) for v in values]
        else:
            conditions.append(f"{dimension.column} IN {{filter{index}:Array(String)}}")
            params[f"filter{index}"] = [str(v) for v in values]
    return conditions, params


def _history_sql(query: HistoryQuery, db: str, marked: str) -> tuple[str, dict[str, Any]]:
    """The DuckDB store's history read (duckdb_store._history_sql) in ClickHouse SQL; distinct devices by
    uniqCombined (exact up to a few thousand, HyperLogLog past that), so the two stores agree within their
    estimators' error."""
    checked_keys(query)
    first, after = utc_days(query)
    params: dict[str, Any] = {"first": f"{first:%Y-%m-%d %H:%M:%S}", "after": f"{after:%Y-%m-%d %H:%M:%S}",
                              "advertisers": [int(a) for a in query.advertiser_ids]}
    conditions = ["hour >= {first:DateTime('UTC')}", "hour < {after:DateTime('UTC')}",
                  "advertiser_id IN {advertisers:Array(Int64)}", f"tag IN {marked}"]
    for prefix, wanted, chosen in (("filter", "IN", query.filters), ("excluded", "NOT IN", query.excluded)):
        for index, (key, values) in enumerate(sorted(chosen.items())):
            dimension = DIMENSIONS[key]
            kind = "Int64" if dimension.kind == "int" else "String"
            conditions.append(f"{dimension.column} {wanted} {{{prefix}{index}:Array({kind})}}")
            params[f"{prefix}{index}"] = [int(v) if kind == "Int64" else str(v) for v in values]
    if query.bid_micros is not None:
        params["bid"] = query.bid_micros
    won = won_condition(query, "{bid:Int64}")
    known = f"{DEVICE_COLUMN} != ''"
    figures = ("toDate(hour) AS day, grouping(day), sum(impressions), sum(spend_micros), "
               f"uniqCombinedIf({DEVICE_COLUMN}, {known}), "
               f"sumIf(impressions, {won}), sumIf(spend_micros, {won}), "
               f"uniqCombinedIf({DEVICE_COLUMN}, {known} AND {won}), sumIf(impressions, {known}), sum(clicks)")
    return (f"SELECT {figures} FROM {db}.delivery WHERE {' AND '.join(conditions)} GROUP BY GROUPING SETS ((day), ())",
            params)


def _batches_sql(query: StatsQuery, db: str) -> tuple[str, dict[str, Any]]:
    """Each marked batch's hourly rows inside the query, summed, beside its first marker (the batch: its source
    and received time). Rows of an unmarked tag (a batch that died half written, a raced duplicate) join nothing."""
    conditions, params = _conditions(query)
    sums = ", ".join(f"sum({m}) AS {m}" for m in MEASURES)
    marker = "(received_at, tag)"
    if reads_days(replace(query, dimensions=())) and set(query.filters) <= set(_BATCHES_ROLLUP_KEYS):
        facts, rows = f"{db}.{_BATCHES_ROLLUP}", "sum(rows)"  # a marked batch's rows only (_roll_up)
    else:
        facts, rows = f"{db}.delivery", "count()"
    # The marker's columns under names of their own: an alias equal to a column would be read inside argMin.
    return (f"SELECT m.batch_id, m.first_source, m.first_received, f.rows, {', '.join(f'f.{m}' for m in MEASURES)} "
            f"FROM (SELECT tag, {rows} AS rows, {sums} FROM {facts} WHERE {' AND '.join(conditions)} "
            f"GROUP BY tag) AS f INNER JOIN (SELECT batch_id, argMin(tag, {marker}) AS first_tag, "
            f"argMin(source, {marker}) AS first_source, min(received_at) AS first_received FROM {db}.batches "
            f"GROUP BY batch_id) AS m ON f.tag = m.first_tag ORDER BY m.first_received, m.batch_id", params)


def _report_sql(query: StatsQuery, db: str, marked: str) -> tuple[str, dict[str, Any]]:
    """One aggregation over the facts (and, for custom events, the event facts beside them): the DuckDB store's
    query in ClickHouse SQL, reading the same table (hourly facts or the smallest daily rollup)."""
    for key in query.dimensions:
        if key not in DIMENSIONS:
            raise ValueError(f"unknown dimension {key!r}")
    for key in query.metrics:
        if key not in METRICS:
            raise ValueError(f"unknown metric {key!r}")
    for name in query.events:
        if not re.fullmatch(EVENT_NAME_PATTERN, name):
            raise ValueError(f"not an event name: {name!r}")
    conditions, params = _conditions(query)
    if query.time_zone != "UTC":
        params["tz"] = query.time_zone
    columns = {DIMENSIONS[k].column for k in (*query.dimensions, *query.filters) if DIMENSIONS[k].kind != "time"}
    if query.advertiser_ids is not None:
        columns.add("advertiser_id")
    facts, events = tables_for(query, columns)
    if facts != "delivery" and not columns and not query.events:
        facts = _TOTALS_ROLLUP  # everyone's days, of every placement: ClickHouse's own rollup (above)
    if facts == "delivery":  # the hourly facts count marked batches only; a rollup holds nothing else
        conditions.append(f"tag IN {marked}")
    where = " AND ".join(conditions)
    order, limit = _order_and_limit(query)
    # The projections sum every advertiser's rows (_PROJECTIONS); weighing them against one advertiser's few
    # granules cost ClickHouse ~1 ms a read of a tenth of that, and they never win there. Those few granules, and
    # everyone's days in a narrow rollup (a campaign's, creative's, exchange's or OS's row a day, or a projection's
    # handful), are read sooner on one thread than the second starts, and a busy machine holds a read back less
    # (chDB, 10M rows: ~10 % less CPU; everyone's top 10 campaigns 17 -> 15 ms, the admin's dashboard 109 -> 94).
    # Everyone's hours, or every placement's days, are millions of rows: as many threads as cores.
    if query.advertiser_ids is not None:
        settings = " SETTINGS optimize_use_projections = 0, max_threads = 1"
    else:
        settings = "" if facts in ("delivery", "delivery_daily") else " SETTINGS max_threads = 1"
    if not query.events and query.time_zone == "UTC" and set(_SUMMED_METRICS) <= set(query.metrics):
        # One SELECT over the table, each ratio over the sums' aliases: the analysis of three nested SELECTs
        # cost ClickHouse about 1 ms a query, a tenth of a dashboard widget's read (bench/statistics_stores.py).
        # Only where every sum a ratio reads is asked for under its own name, and no alias hides a column the
        # WHERE reads (a time zone's hour would).
        selected = [f"{_dimension_sql(key, 'UTC', ts='hour')} AS `{key}`" for key in query.dimensions]
        shown = [f"sum({m}) AS `{m}`" if m in MEASURES else f"{METRICS[m].sql} AS `{m}`" for m in query.metrics]
        group = f" GROUP BY {', '.join(f'`{key}`' for key in query.dimensions)}" if selected else ""
        return (f"SELECT {', '.join([*selected, *shown, 'sum(spend_micros) AS spend_micros'])} FROM {db}.{facts} "
                f"WHERE {where}{group}{order}{limit}{settings}", params)
    read = ", ".join(["hour AS ts", *sorted(columns)])
    source = f"SELECT {read}, {', '.join(MEASURES)}, '' AS event, toInt64(0) AS count FROM {db}.{facts} WHERE {where}"
    event_sums = []
    if query.events:
        params["events"] = list(query.events)
        source += (f" UNION ALL SELECT {read}, {', '.join('toInt64(0)' for _ in MEASURES)}, event, count "
                   f"FROM {db}.{events} WHERE {where} AND event IN {{events:Array(String)}}")
        for index, name in enumerate(query.events):
            params[f"event{index}"] = name
            event_sums.append(f"sumIf(count, event = {{event{index}:String}}) AS `{EVENT_PREFIX}{name}`")
    selected = [f"{_dimension_sql(key, query.time_zone)} AS `{key}`" for key in query.dimensions]
    sums = [f"sum({m}) AS {m}" for m in MEASURES]
    group = f" GROUP BY {', '.join(f'`{key}`' for key in query.dimensions)}" if selected else ""
    inner = f"SELECT {', '.join([*selected, *sums, *event_sums])} FROM ({source}){group}"

    outer = [*(f"`{key}`" for key in query.dimensions), *(f"{METRICS[m].sql} AS `{m}`" for m in query.metrics),
             *(f"`{EVENT_PREFIX}{name}`" for name in query.events)]
    if "spend" in query.metrics:
        outer.append("spend_micros")  # exact money beside the dollars, so totals and the ledger can agree
    return f"SELECT {', '.join(outer)} FROM ({inner}){order}{limit}{settings}", params


def _order_and_limit(query: StatsQuery) -> tuple[str, str]:
    known = set(query.dimensions) | set(query.metrics) | {f"{EVENT_PREFIX}{n}" for n in query.events}
    if query.order_by and query.order_by not in known:
        raise ValueError(f"cannot order by {query.order_by!r}")
    direction = " DESC" if query.descending else ""
    if query.order_by:
        keys = [f"`{query.order_by}`{direction} NULLS LAST",
                *(f"`{key}` NULLS LAST" for key in query.dimensions if key != query.order_by)]
    else:
        keys = [f"`{key}`{direction} NULLS LAST" for key in query.dimensions]
    order = f" ORDER BY {', '.join(keys)}" if keys else ""
    limit = f" LIMIT {int(query.limit)}" if query.limit else ""
    return order, limit


_stores: dict[str, ClickHouseStore] = {}
_stores_lock = threading.Lock()


def open_chdb_store(path: Path) -> ClickHouseStore:
    """The process's one store on this chDB directory."""
    with _stores_lock:
        key = f"chdb:{path}"
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = ClickHouseStore(ChDBExecutor(path))
        return store


def open_server_store(url: str) -> ClickHouseStore:
    """The process's one store on this ClickHouse server (the URL's path names the database; default dsp)."""
    from urllib.parse import urlsplit

    with _stores_lock:
        store = _stores.get(url)
        if store is None:
            database = urlsplit(url).path.strip("/") or "dsp"
            store = _stores[url] = ClickHouseStore(HTTPExecutor(url), database)
        return store


def close_store(store: ClickHouseStore) -> None:
    with _stores_lock:
        for key in [k for k, v in _stores.items() if v is store]:
            del _stores[key]
    store.close()


def close_stores() -> None:
    with _stores_lock:
        for store in _stores.values():
            store.close()
        _stores.clear()
