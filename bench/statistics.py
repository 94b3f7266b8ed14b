"""Delivery statistics at volume: ingestion of N hourly rows (the simulator's --rows path, batches of 50,000),
then two report queries on the DuckDB store against the same rows in SQLite (indexed for each query):
(a) one advertiser's 30 days by day, (b) day x country x OS x exchange over 90 days for everyone.
Prints the median of 5 runs after a warm-up, SQLite beside DuckDB, and the ratio. Then a whole dashboard
(every widget of services/dashboards.dashboard: headline figures, the previous period, days, five breakdowns)
for the biggest advertiser and for an admin over everyone (target: under 300 ms server time).

    .venv/bin/python bench/statistics.py             # 10,000,000 rows (several minutes)
    .venv/bin/python bench/statistics.py 1000000     # a quicker run while developing
    .venv/bin/python bench/statistics.py 10000000 --keep /tmp/stats10m   # keep the rows; a second run reuses them
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from sqlmodel import select

# The data directory, chosen before the app reads its settings: a throwaway one, or with --keep DIR one that is
# kept (and reused by the next run with the same DIR, which then skips ingestion: 10M rows take minutes).
KEEP = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
DATA_DIR = KEEP or tempfile.mkdtemp(prefix="dsp-bench-statistics-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.demo import simulator  # noqa: E402
from app.warehouse import get_store  # noqa: E402
from app.warehouse.base import StatsQuery  # noqa: E402

COLUMNS = ("hour", "advertiser_id", "campaign_id", "creative_id", "exchange", "os", "country", "app", "device_type",
           "impressions", "clicks", "spend_micros", "conversions")
SUMS = ("sum(impressions) AS impressions, sum(clicks) AS clicks, sum(clicks) * 100.0 / nullif(sum(impressions), 0) "
        "AS ctr, sum(spend_micros) / 1e6 AS spend, sum(spend_micros) / 1e3 / nullif(sum(impressions), 0) AS ecpm, "
        "sum(spend_micros) / 1e6 / nullif(sum(clicks), 0) AS ecpc, sum(conversions) AS conversions, "
        "sum(spend_micros) / 1e6 / nullif(sum(conversions), 0) AS cpa, sum(spend_micros) AS spend_micros")


def median_ms(run: Callable[[], object], times: int = 5) -> tuple[float, object]:
    answer = run()  # warm-up (and the answer, to check both engines agree)
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return sorted(samples)[len(samples) // 2], answer  # the median (this file's name hides the statistics module)


def load_sqlite(path: Path) -> float:
    """The DuckDB rows copied into SQLite, indexed for both queries; seconds taken."""
    started = time.perf_counter()
    partial = path.with_suffix(".part")
    partial.unlink(missing_ok=True)
    lite = sqlite3.connect(partial)
    lite.execute("PRAGMA journal_mode=OFF")
    lite.execute("PRAGMA synchronous=OFF")
    lite.execute(f"CREATE TABLE delivery ({', '.join(COLUMNS)})")
    store = get_store()
    cursor = store._cursor()  # type: ignore[attr-defined]  # the benchmark reads the raw table to copy it
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


def dashboard_times(advertiser: int, month: tuple[object, object]) -> None:
    """The dashboard's service call as a page makes it, for an advertiser account given the synthetic id, and
    for the demo admin (every advertiser's rows)."""
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
            db.add(User(id=advertiser, email=f"bench{advertiser}@bench.example", role=Role.ADVERTISER, first_name="Bench",
                        password_hash="!"))
    with session_scope() as db:
        for label, user in (("advertiser", db.get(User, advertiser)),
                            ("admin, every advertiser", db.exec(select(User).where(User.role == Role.ADMIN)).first())):
            actor = Actor(user=user, stack=(user.id,))  # type: ignore[union-attr,arg-type]
            took, _answer = median_ms(lambda a=actor: dashboards.dashboard(db, actor=a, start=month[0], end=month[1]))
            print(f"dashboard, {label}, 30 days with all its widgets: {took:,.1f} ms (target < 300 ms)")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10_000_000
    print(f"data directory {DATA_DIR}")
    try:
        store = get_store()
        if store.first_and_last_hour(None) is None:
            seconds = simulator.write_synthetic(count, log=lambda line: print("  " + line, flush=True))
            print(f"ingestion: {count:,} rows in {seconds:.1f} s ({count / seconds:,.0f} rows/s)")
        else:
            print("reusing the rows stored by an earlier run (--keep)")
        first, last = store.first_and_last_hour(None)  # type: ignore[misc]
        advertiser = int(store._cursor().execute(  # type: ignore[attr-defined]
            "SELECT advertiser_id FROM delivery GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()[0])
        month = (last.date() - timedelta(days=29), last.date())
        quarter = (last.date() - timedelta(days=89), last.date())

        lite_path = Path(DATA_DIR, "compare.sqlite3")
        if not lite_path.exists():
            print(f"SQLite copy and indexes: {load_sqlite(lite_path):.1f} s")
        lite = sqlite3.connect(lite_path)

        def duck_a() -> object:
            return store.query(StatsQuery(start=month[0], end=month[1], dimensions=("date",),
                                          advertiser_ids=(advertiser,)))

        def lite_a() -> object:
            return lite.execute(f"SELECT substr(hour, 1, 10) AS date, {SUMS} FROM delivery WHERE advertiser_id = ? "
                                "AND hour >= ? AND hour < ? GROUP BY 1 ORDER BY 1",
                                (advertiser, f"{month[0]} 00:00:00", f"{month[1] + timedelta(days=1)} 00:00:00")
                                ).fetchall()

        def duck_b() -> object:
            return store.query(StatsQuery(start=quarter[0], end=quarter[1],
                                          dimensions=("date", "country", "os", "exchange")))

        def lite_b() -> object:
            return lite.execute(f"SELECT substr(hour, 1, 10) AS date, country, os, exchange, {SUMS} FROM delivery "
                                "WHERE hour >= ? AND hour < ? GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
                                (f"{quarter[0]} 00:00:00", f"{quarter[1] + timedelta(days=1)} 00:00:00")).fetchall()

        for label, duck, sqlite_run, target in (
                (f"(a) advertiser {advertiser}, 30 days by day", duck_a, lite_a, "< 50 ms"),
                ("(b) day x country x OS x exchange, 90 days", duck_b, lite_b, "< 1 s and >= 15x SQLite")):
            duck_ms, duck_rows = median_ms(duck)
            lite_ms, lite_rows = median_ms(sqlite_run, times=3)
            assert len(duck_rows) == len(lite_rows), (len(duck_rows), len(lite_rows))  # type: ignore[arg-type]
            print(f"{label}: DuckDB {duck_ms:,.1f} ms, SQLite {lite_ms:,.1f} ms, {lite_ms / duck_ms:,.1f}x "
                  f"({len(duck_rows):,} rows; target {target})")  # type: ignore[arg-type]
        dashboard_times(advertiser, month)
        print(f"rows span {first} to {last}")
    finally:
        if not KEEP:
            shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
