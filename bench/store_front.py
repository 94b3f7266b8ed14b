"""Which statistics store the many-process test shares (bench/README.md): the same synthetic rows (the simulator's
--rows generator) in DuckDB in process, chDB in process, and chDB behind the test-only ClickHouse HTTP front
(tests/clickhouse_http.py: its own process, reached by HTTPExecutor through clickhouse-connect, as a ClickHouse
server would be). Prints ingestion time, then per query the median of 7 runs after a warm-up for each store,
checking the three answer alike; then, with --contract, tests/test_store_contract.py's time on each store.

    .venv/bin/python bench/store_front.py                    # 100,000 and 1,000,000 rows
    .venv/bin/python bench/store_front.py 100000 --contract
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

DATA_DIR = tempfile.mkdtemp(prefix="dsp-bench-store-front-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.demo.simulator import synthetic_rows  # noqa: E402
from app.warehouse.base import StatisticsStore, StatsQuery  # noqa: E402
from app.warehouse.clickhouse_store import ChDBExecutor, ClickHouseStore, HTTPExecutor  # noqa: E402
from app.warehouse.duckdb_store import DuckDBStore  # noqa: E402
from tests.clickhouse_http import start  # noqa: E402

END = datetime(2026, 11, 1, tzinfo=UTC)
BATCH = 50_000


def median_ms(run: Callable[[], object], times: int = 7) -> tuple[float, object]:
    answer = run()
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return sorted(samples)[len(samples) // 2], answer


def ingest(store: StatisticsStore, count: int) -> float:
    rows = synthetic_rows(count, end=END)
    started = time.perf_counter()
    for number in range((count + BATCH - 1) // BATCH):
        store.ingest(f"bench-{number}", [row for _, row in zip(range(BATCH), rows, strict=False)], source="bench")
    return time.perf_counter() - started


def compare(count: int, url: str) -> None:
    folder = Path(DATA_DIR, str(count))
    folder.mkdir()
    stores: dict[str, StatisticsStore] = {
        "DuckDB": DuckDBStore(folder / "s.duckdb"),
        "chDB": ClickHouseStore(ChDBExecutor(folder / "s.chdb")),
        "chDB via HTTP front": ClickHouseStore(HTTPExecutor(url), f"bench_{count}"),
    }
    try:
        print(f"\n{count:,} rows")
        for name, store in stores.items():
            print(f"  ingestion, {name}: {ingest(store, count):.1f} s")
        month = (END.date() - timedelta(days=30), END.date() - timedelta(days=1))
        quarter = (END.date() - timedelta(days=90), END.date() - timedelta(days=1))
        queries: dict[str, Callable[[StatisticsStore], object]] = {
            "totals, one advertiser, 30 days": lambda s: s.query(StatsQuery(
                start=month[0], end=month[1], advertiser_ids=(1_000_001,))),
            "(a) one advertiser, 30 days by day": lambda s: s.query(StatsQuery(
                start=month[0], end=month[1], dimensions=("date",), advertiser_ids=(1_000_001,))),
            "(b) day x country x OS x exchange, 90 days": lambda s: s.query(StatsQuery(
                start=quarter[0], end=quarter[1], dimensions=("date", "country", "os", "exchange"))),
            "hourly, 30 days, New York": lambda s: s.query(StatsQuery(
                start=month[0], end=month[1], dimensions=("hour",), time_zone="America/New_York")),
            "first and last hour": lambda s: s.first_and_last_hour((1_000_002,)),
        }
        for label, ask in queries.items():
            timed = {name: median_ms(lambda s=store, a=ask: a(s)) for name, store in stores.items()}  # type: ignore[misc]
            answers = [answer for _, answer in timed.values()]
            assert all(answer == answers[0] for answer in answers), label
            size = len(answers[0]) if isinstance(answers[0], list) else 1
            print(f"  {label} ({size:,} rows): " + ", ".join(f"{name} {ms:,.1f} ms" for name, (ms, _) in timed.items()))
    finally:
        for store in stores.values():
            store.close()


def round_trip(url: str) -> None:
    """What a query costs on its own: SELECT 1 in process and over HTTP."""
    folder = Path(DATA_DIR, "ping")
    executors = {"chDB": ChDBExecutor(folder), "chDB via HTTP front": HTTPExecutor(url)}
    print("\nSELECT 1: " + ", ".join(f"{name} {median_ms(lambda e=e: e.select('SELECT 1'), 21)[0]:.2f} ms"  # type: ignore[misc]
                                     for name, e in executors.items()))
    for executor in executors.values():
        executor.close()


def contract_times() -> None:
    """tests/test_store_contract.py once, its tests' time (setup, call, teardown) summed per store."""
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/test_store_contract.py", "-p", "no:randomly", "-q",
                           "--durations=0", "--durations-min=0"], cwd=ROOT, capture_output=True, text=True)
    per_store: dict[str, float] = defaultdict(float)
    for seconds, kind in re.findall(r"^([\d.]+)s \w+ +tests/\S+\[(\w+)\]$", done.stdout, re.MULTILINE):
        per_store[kind] += float(seconds)
    print("\ncontract suite, the store-parametrized tests (5 each): "
          + ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in per_store.items())
          + ("" if done.returncode == 0 else " (FAILED)"))


def main() -> None:
    counts = [int(a) for a in sys.argv[1:] if a.isdigit()] or [100_000, 1_000_000]
    try:
        started = time.perf_counter()
        with start(Path(DATA_DIR, "front")) as url:
            print(f"front started in {time.perf_counter() - started:.2f} s")
            round_trip(url)
            for count in counts:
                compare(count, url)
        if "--contract" in sys.argv:
            contract_times()
    finally:
        shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
