"""Delivery statistics at volume, DuckDB and ClickHouse (chDB, in process) side by side: the same N hourly rows
(the simulator's synthetic rows, batches of 50,000) ingested into each store, then the queries the services run
most, through `store.query` as a page gets them (rows as Python dicts):
(a) one advertiser's 30 days by day, (b) day x country x OS x exchange over 90 days for everyone, and the
dashboard's own reads (totals, a top 10 by spend), an hourly report, a report in another time zone, the event
names and the first and last hour; then a whole dashboard (every widget of statistics/dashboards.dashboard) for
the biggest advertiser and for an admin over everyone. Prints the median of 7 runs after a warm-up (the stores
in turn), DuckDB beside chDB, their ratio against issue 23's goal (chDB within 2x of DuckDB) and the ratio of
their CPU time (steadier when other work loads the machine), and checks both answer the same.
`--sqlite` adds (a) and (b) on the same rows in SQLite (indexed for each query) as a third column.

    .venv/bin/python bench/statistics_stores.py             # 10,000,000 rows (many minutes)
    .venv/bin/python bench/statistics_stores.py 1000000     # a quicker run while developing
    .venv/bin/python bench/statistics_stores.py 10000000 --keep /tmp/stats10m   # keep the rows; a second run reuses them
"""

from __future__ import annotations

import math
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlmodel import select

# The data directory, chosen before the app reads its settings: a throwaway one, or with --keep DIR one that is
# kept (and reused by the next run with the same DIR, which then skips ingestion: 10M rows take minutes).
KEEP = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
WITH_SQLITE = "--sqlite" in sys.argv
DATA_DIR = KEEP or tempfile.mkdtemp(prefix="dsp-bench-statistics-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.demo import simulator  # noqa: E402
from app.kernel.config import get_settings  # noqa: E402
from app.statistics import service as statistics_service  # noqa: E402
from app.warehouse.base import StatisticsStore, StatsQuery  # noqa: E402
from app.warehouse.clickhouse_store import ClickHouseStore, open_chdb_store  # noqa: E402
from app.warehouse.duckdb_store import DuckDBStore, open_store  # noqa: E402

GOAL = 2.0  # issue 23: ClickHouse within 2x of DuckDB on each query on this machine
COLUMNS = ("hour", "advertiser_id", "campaign_id", "creative_id", "exchange", "os", "country", "app", "device_type",
           "impressions", "clicks", "spend_micros", "conversions")
SUMS = ("sum(impressions) AS impressions, sum(clicks) AS clicks, sum(clicks) * 100.0 / nullif(sum(impressions), 0) "
        "AS ctr, sum(spend_micros) / 1e6 AS spend, sum(spend_micros) / 1e3 / nullif(sum(impressions), 0) AS ecpm, "
        "sum(spend_micros) / 1e6 / nullif(sum(clicks), 0) AS ecpc, sum(conversions) AS conversions, "
        "sum(spend_micros) / 1e6 / nullif(sum(conversions), 0) AS cpa, sum(spend_micros) AS spend_micros")


def median_ms(run: Callable[[], object], times: int = 5) -> tuple[float, object]:
    answer = run()  # warm-up (and the answer, to check the engines agree)
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return sorted(samples)[len(samples) // 2], answer  # the median (this file's name hides the statistics module)


def side_by_side_ms(runs: list[Callable[[], object]], times: int = 7) -> list[tuple[float, float, object]]:
    """The median wall and CPU milliseconds of each run, and its answer; their samples taken in turn (one of
    each, then again), so that other work on this shared machine slows each store alike. CPU is this process's
    (both engines run in it, on their own threads too): other processes' load moves it far less than the wall
    time, so its ratio is the steadier one on a busy machine."""
    answers = [run() for run in runs]  # warm-up (and the answers, to check the engines agree)
    walls: list[list[float]] = [[] for _ in runs]
    cpus: list[list[float]] = [[] for _ in runs]
    for _ in range(times):
        for run, wall, cpu in zip(runs, walls, cpus, strict=True):
            started, used = time.perf_counter(), time.process_time()
            run()
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
    return [(sorted(wall)[times // 2], sorted(cpu)[times // 2], answer)
            for wall, cpu, answer in zip(walls, cpus, answers, strict=True)]


def same(left: object, right: object) -> bool:
    """Two answers agree: equal, floats to 1e-9 relative (the stores sum the same Int64s; a ratio's last bit may
    differ with the order of a float division)."""
    if isinstance(left, float) and isinstance(right, float):
        return math.isclose(left, right, rel_tol=1e-9)
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    if hasattr(left, "model_dump") and hasattr(right, "model_dump"):
        return same(left.model_dump(), right.model_dump())
    return left == right


def ingest(store: StatisticsStore, name: str, count: int, end: datetime) -> float:
    """The synthetic rows into one store, as simulator.write_synthetic writes them (batches of BATCH_ROWS, the
    same ids, so a second store gets the same rows); seconds spent in the store (making the rows not counted)."""
    rows: Iterator[Any] = simulator.synthetic_rows(count, end=end)
    spent = 0.0
    done = number = 0
    while done < count:
        chunk = [row for _, row in zip(range(min(simulator.BATCH_ROWS, count - done)), rows, strict=False)]
        number += 1
        started = time.perf_counter()
        store.ingest(f"bench:1:{number}", chunk, source="benchmark")
        spent += time.perf_counter() - started
        done += len(chunk)
        if number % 40 == 0 or done == count:
            print(f"  {name}: {done:,} rows in {spent:.1f} s ({done / spent:,.0f} rows/s)", flush=True)
    return spent


def wait_for_merges(store: ClickHouseStore, limit_s: float = 600) -> None:
    """Until ClickHouse has no merge running (it merges the parts of the batches just ingested in the background,
    which would slow the first reads timed): every store is timed at rest."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        _, rows = store._executor.select("SELECT count() FROM system.merges")
        if not rows[0][0]:
            break
        time.sleep(1)  # polling the condition itself: system.merges has no notification
    print(f"  chDB: background merges done after {time.perf_counter() - started:.0f} s")


def load_sqlite(path: Path, duck: DuckDBStore) -> float:
    """The DuckDB rows copied into SQLite, indexed for both queries; seconds taken."""
    started = time.perf_counter()
    partial = path.with_suffix(".part")
    partial.unlink(missing_ok=True)
    lite = sqlite3.connect(partial)
    lite.execute("PRAGMA journal_mode=OFF")
    lite.execute("PRAGMA synchronous=OFF")
    lite.execute(f"CREATE TABLE delivery ({', '.join(COLUMNS)})")
    cursor = duck._cursor()  # the benchmark reads the raw table to copy it
    cursor.execute(f"SELECT strftime(hour, '%Y-%m-%d %H:00:00'), {', '.join(COLUMNS[1:])} FROM delivery")
    while chunk := cursor.fetchmany(200_000):
        lite.executemany(f"INSERT INTO delivery VALUES ({', '.join('?' for _ in COLUMNS)})", chunk)
    # (a) reads one advertiser's hours; (b) a date range for everyone (a covering index for its columns).
    lite.execute("CREATE INDEX delivery_advertiser_hour ON delivery (advertiser_id, hour)")
    lite.execute("CREATE INDEX delivery_hour ON delivery (hour, country, os, exchange, impressions, clicks, "
                 "spend_micros, conversions)")
    lite.execute("ANALYZE")
    lite.commit()
    lite.close()
    partial.rename(path)  # only a finished copy is reused by --keep
    return time.perf_counter() - started


def sqlite_queries(duck: DuckDBStore, advertiser: int, month: tuple[date, date],
                   quarter: tuple[date, date]) -> dict[str, Callable[[], object]]:
    """(a) and (b) in SQLite, by the labels of `queries`."""
    lite_path = Path(DATA_DIR, "compare.sqlite3")
    if not lite_path.exists():
        print(f"SQLite copy and indexes: {load_sqlite(lite_path, duck):.1f} s")
    lite = sqlite3.connect(lite_path)
    return {
        "(a)": lambda: lite.execute(
            f"SELECT substr(hour, 1, 10) AS date, {SUMS} FROM delivery WHERE advertiser_id = ? AND hour >= ? AND "
            "hour < ? GROUP BY 1 ORDER BY 1",
            (advertiser, f"{month[0]} 00:00:00", f"{month[1] + timedelta(days=1)} 00:00:00")).fetchall(),
        "(b)": lambda: lite.execute(
            f"SELECT substr(hour, 1, 10) AS date, country, os, exchange, {SUMS} FROM delivery WHERE hour >= ? AND "
            "hour < ? GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
            (f"{quarter[0]} 00:00:00", f"{quarter[1] + timedelta(days=1)} 00:00:00")).fetchall(),
    }


def batches(query: StatsQuery) -> Callable[[StatisticsStore], object]:
    """The batches behind a query (explain a figure), without the received time each store stamped itself."""
    return lambda store: sorted((b.batch_id, b.rows, b.spend_micros) for b in store.batches_of(query))


def queries(advertiser: int, month: tuple[date, date], quarter: tuple[date, date],
            last: datetime) -> list[tuple[str, Callable[[StatisticsStore], object]]]:
    """The store reads to time: (label, read)."""
    def report(**options: Any) -> Callable[[StatisticsStore], object]:
        return lambda store: store.query(StatsQuery(**options))

    week = (last.date() - timedelta(days=6), last.date())
    return [
        (f"(a) advertiser {advertiser}, 30 days by day",
         report(start=month[0], end=month[1], dimensions=("date",), advertiser_ids=(advertiser,))),
        ("(b) day x country x OS x exchange, 90 days",
         report(start=quarter[0], end=quarter[1], dimensions=("date", "country", "os", "exchange"))),
        ("(c) advertiser, 30 days' totals",
         report(start=month[0], end=month[1], advertiser_ids=(advertiser,))),
        ("(d) everyone, 30 days' totals", report(start=month[0], end=month[1])),
        ("(e) everyone, top 10 campaigns by spend, 30 days",
         report(start=month[0], end=month[1], dimensions=("campaign_id",), order_by="spend", descending=True,
                limit=10)),
        ("(f) advertiser, 7 days by hour (hourly facts)",
         report(start=week[0], end=week[1], dimensions=("hour",), advertiser_ids=(advertiser,))),
        ("(g) advertiser, 30 days by day, New York (hourly facts)",
         report(start=month[0], end=month[1], dimensions=("date",), advertiser_ids=(advertiser,),
                time_zone="America/New_York")),
        ("(h) advertiser, 30 days by app x country",
         report(start=month[0], end=month[1], dimensions=("app", "country"), advertiser_ids=(advertiser,))),
        ("(k) explain: advertiser, 30 days by day x campaign x exchange",
         report(start=month[0], end=month[1], dimensions=("date", "advertiser_id", "campaign_id", "exchange"),
                advertiser_ids=(advertiser,))),
        ("(l) explain: advertiser's batches behind 30 days",
         batches(StatsQuery(start=month[0], end=month[1], advertiser_ids=(advertiser,)))),
        ("(m) explain: everyone's batches behind 30 days", batches(StatsQuery(start=month[0], end=month[1]))),
        ("(i) event names, advertiser", lambda store: store.event_names([advertiser])),
        ("(j) first and last hour, advertiser", lambda store: store.first_and_last_hour([advertiser])),
    ]


def dashboard_reads(advertiser: int, month: tuple[date, date]) -> list[tuple[str, Callable[[StatisticsStore], object]]]:
    """The dashboard's service call as a page makes it, for an advertiser account given the synthetic id, and
    for the demo admin (every advertiser's rows), on the store it is given."""
    from app.access.models import User
    from app.access.policy import Actor
    from app.access.roles import Role
    from app.demo.seed import seed_demo
    from app.kernel.db import migrate, session_scope
    from app.statistics import dashboards

    migrate()
    with session_scope() as db:
        seed_demo(db)
    with session_scope() as db:
        if db.get(User, advertiser) is None:
            db.add(User(id=advertiser, email=f"bench{advertiser}@bench.example", role=Role.ADVERTISER,
                        first_name="Bench", password_hash="!"))
    with session_scope() as db:
        admin = db.exec(select(User).where(User.role == Role.ADMIN)).first()
        assert admin is not None
        admin_id = admin.id

    def dashboard_of(user_id: int | None) -> Callable[[StatisticsStore], object]:
        def read(store: StatisticsStore) -> object:
            # The services ask app.warehouse.get_store() for the configured store; here, the one being timed.
            statistics_service.get_store = lambda: store  # type: ignore[attr-defined]
            with session_scope() as db:
                user = db.get(User, user_id)
                actor = Actor(user=user, stack=(user.id,))  # type: ignore[union-attr,arg-type]
                return dashboards.dashboard(db, actor=actor, start=month[0], end=month[1])
        return read

    return [("dashboard, advertiser, 30 days, every widget", dashboard_of(advertiser)),
            ("dashboard, admin over everyone, 30 days", dashboard_of(admin_id))]


def rows_in(answer: object) -> str:
    return f"{len(answer):,}" if isinstance(answer, list) else "1"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10_000_000
    print(f"data directory {DATA_DIR}; {count:,} rows")
    try:
        duck = open_store(get_settings().analytics_path)
        chdb = open_chdb_store(Path(DATA_DIR, "statistics.chdb"))
        # Both stores get the same rows: the synthetic rows end at the hour written here by the first run.
        end_file = Path(DATA_DIR, "bench-end.txt")
        if not end_file.exists():
            end_file.write_text(datetime.now(UTC).replace(minute=0, second=0, microsecond=0).isoformat())
        end = datetime.fromisoformat(end_file.read_text())
        ingested = {}
        for name, store in (("DuckDB", duck), ("chDB", chdb)):
            if store.first_and_last_hour(None) is None:
                seconds = ingest(store, name, count, end)
                ingested[name] = seconds
            else:
                print(f"  {name}: reusing the rows stored by an earlier run (--keep)")
        for name, seconds in ingested.items():
            print(f"ingestion, {name}: {count:,} rows in {seconds:.1f} s ({count / seconds:,.0f} rows/s)")
        wait_for_merges(chdb)

        first, last = duck.first_and_last_hour(None)  # type: ignore[misc]
        assert chdb.first_and_last_hour(None) == (first, last), "the stores hold different rows: remove --keep's DIR"
        advertiser = int(duck._cursor().execute(
            "SELECT advertiser_id FROM delivery GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0])  # type: ignore[index]
        month = (last.date() - timedelta(days=29), last.date())
        quarter = (last.date() - timedelta(days=89), last.date())
        lite = sqlite_queries(duck, advertiser, month, quarter) if WITH_SQLITE else {}

        print(f"\nmedian of 7 runs after a warm-up (the stores in turn); goal: chDB <= {GOAL:g}x DuckDB")
        print(f"(wall ms; 'cpu' is chDB's CPU time over DuckDB's, this process's: steadier under other load; load "
              f"average {os.getloadavg()[0]:.1f})")
        header = f"{'query':<58} {'DuckDB':>9} {'chDB':>9} {'ratio':>6}  {'goal':<4} {'cpu':>6} {'rows':>8}"
        print(header + ("   SQLite (x DuckDB)" if lite else ""))
        failed: list[str] = []
        for label, read in [*queries(advertiser, month, quarter, last), *dashboard_reads(advertiser, month)]:
            (duck_ms, duck_cpu, duck_answer), (chdb_ms, chdb_cpu, chdb_answer) = side_by_side_ms(
                [lambda: read(duck), lambda: read(chdb)])  # noqa: B023  # called right here
            ratio = chdb_ms / duck_ms
            verdict = "ok" if ratio <= GOAL else "MISS"
            if not same(duck_answer, chdb_answer):
                verdict, failed = "DIFF", [*failed, label]
            line = (f"{label:<58} {duck_ms:>9,.1f} {chdb_ms:>9,.1f} {ratio:>5.2f}x  {verdict:<4} "
                    f"{chdb_cpu / duck_cpu:>5.2f}x {rows_in(duck_answer):>8}")
            if (sqlite_run := lite.get(label[:3])) is not None:
                lite_ms, lite_answer = median_ms(sqlite_run, times=3)
                assert len(lite_answer) == len(duck_answer), (len(lite_answer), len(duck_answer))  # type: ignore[arg-type]
                line += f"   {lite_ms:,.1f} ({lite_ms / duck_ms:,.0f}x)"
            print(line, flush=True)
        print(f"rows span {first} to {last}")
        if failed:
            raise SystemExit(f"DuckDB and chDB answered differently: {', '.join(failed)}")
    finally:
        if not KEEP:
            shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
