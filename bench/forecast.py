"""The forecast's time at volume (issue 27: <= 1 s at 10M rows), DuckDB and chDB (ClickHouse in process) side by
side: the read a forecast makes (app/campaigns/forecast.py: the biggest advertiser's last 28 days by day, what a
bid wins and distinct devices, counted approximately in the store) and the figures made from it, for a few
targetings. Prints the median of 7 runs after a warm-up (wall and CPU time), and checks both stores agree
(distinct devices within 8 %).

Rows come from the statistics bench's store maker (bench/statistics_stores.py: the simulator's synthetic rows,
which carry device ids). A store made before rows carried device ids (a copy of an older --keep directory) is
upgraded when opened, and its rows are given device ids once, in place, by the same formula in both stores.

    .venv/bin/python bench/forecast.py --keep /tmp/stats10m-forecast          # reuse (or make, once) 10M rows
    .venv/bin/python bench/forecast.py 1000000 --keep /tmp/stats1m-forecast   # a quicker run
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The statistics bench chooses the data directory (--keep DIR) and makes the rows; importing it sets DSP_DATA_DIR.
from bench.statistics_stores import DATA_DIR, ingest, side_by_side_ms, wait_for_merges  # noqa: E402, I001  # first: it sets the data directory

from app.campaigns.forecast import HISTORY_DAYS, _Draft, _figures  # noqa: E402
from app.campaigns.forecast_schemas import Forecast  # noqa: E402
from app.kernel.config import get_settings  # noqa: E402
from app.warehouse.base import DeliveryHistory, HistoryQuery, StatisticsStore  # noqa: E402
from app.warehouse.clickhouse_store import ClickHouseStore, open_chdb_store  # noqa: E402
from app.warehouse.duckdb_store import DuckDBStore, open_store  # noqa: E402

# A device number per row from its own columns, the same in both SQL dialects (for rows stored before devices).
_NUMBER = "(CAST(campaign_id AS BIGINT) * 7919 + CAST(creative_id AS BIGINT) * 104729 + {hours} * 31 + impressions) % 50000"


def give_devices(duck: DuckDBStore, chdb: ClickHouseStore) -> None:
    """Device ids for rows that have none (a store from before them), once."""
    missing = duck._cursor().execute("SELECT count(*) FROM delivery WHERE coalesce(device, '') = ''").fetchone()
    if missing and missing[0]:
        started = time.perf_counter()
        number = _NUMBER.format(hours="(epoch(hour)::BIGINT // 3600)")
        duck._cursor().execute(f"UPDATE delivery SET device = printf('%08x%08x', advertiser_id, {number}) "
                               "WHERE coalesce(device, '') = ''")
        print(f"  DuckDB: device ids given to {missing[0]:,} rows in {time.perf_counter() - started:.0f} s")
    _, rows = chdb._executor.select("SELECT count() FROM dsp.delivery WHERE device = ''")
    if rows[0][0]:
        started = time.perf_counter()
        number = _NUMBER.format(hours="intDiv(toUnixTimestamp(hour), 3600)")
        chdb._executor.command(
            "ALTER TABLE dsp.delivery UPDATE device = concat(leftPad(lower(hex(toUInt32(advertiser_id))), 8, '0'), "
            f"leftPad(lower(hex(toUInt32({number}))), 8, '0')) WHERE device = '' SETTINGS mutations_sync = 1")
        print(f"  chDB: device ids given to {rows[0][0]:,} rows in {time.perf_counter() - started:.0f} s")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10_000_000
    print(f"data directory {DATA_DIR}")
    duck = open_store(get_settings().analytics_path)
    chdb = open_chdb_store(Path(DATA_DIR, "statistics.chdb"))
    end_file = Path(DATA_DIR, "bench-end.txt")
    if duck.first_and_last_hour(None) is None:
        from datetime import UTC, datetime

        end_file.write_text(datetime.now(UTC).replace(minute=0, second=0, microsecond=0).isoformat())
        end = datetime.fromisoformat(end_file.read_text())
        for name, store in (("DuckDB", duck), ("chDB", chdb)):
            ingest(store, name, count, end)
        wait_for_merges(chdb)
    give_devices(duck, chdb)
    wait_for_merges(chdb)
    rows = duck._cursor().execute("SELECT count(*) FROM delivery").fetchone()
    advertiser, = duck._cursor().execute(
        "SELECT advertiser_id FROM delivery GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()  # type: ignore[misc]
    span = duck.first_and_last_hour([advertiser])
    assert span is not None and rows is not None
    last = span[1].date()
    first = last - timedelta(days=HISTORY_DAYS - 1)
    apps = ("com.spotify.music", "com.duolingo", "com.news.reader")
    shapes = {
        "no targeting, $4 CPM": HistoryQuery(first, last, (advertiser,), bid_micros=4_000_000),
        "US+DE+GB phones, $4 CPM": HistoryQuery(first, last, (advertiser,), {"country": ("US", "DE", "GB"),
                                                                              "device_type": ("phone",)},
                                                 bid_micros=4_000_000),
        "2 exchanges, 3 apps allowed, Android": HistoryQuery(
            first, last, (advertiser,), {"exchange": ("OpenX", "Magnite"), "app": apps, "os": ("Android",)},
            bid_micros=6_000_000),
        "apps blocked, no bid": HistoryQuery(first, last, (advertiser,), excluded={"app": apps}),
    }
    draft = _Draft(bid_micros=4_000_000, priced_by="impressions", daily_budget=None, total_budget=None,
                   flight_days=31)
    base = {"advertiser_id": advertiser, "flight_days": 31, "capped_by": [], "not_applied": [],
            "history_start": first, "history_end": last, "history_days": HISTORY_DAYS}

    def forecast_of(store: StatisticsStore, query: HistoryQuery) -> Callable[[], tuple[DeliveryHistory, Forecast | None]]:
        def run() -> tuple[DeliveryHistory, Forecast | None]:
            store.first_and_last_hour([advertiser])  # the service's first read: where the history ends
            history: DeliveryHistory = store.delivery_history(query)
            return history, _figures(dict(base), history, draft) if history.days else None
        return run

    print(f"\n{rows[0]:,} rows; advertiser {advertiser} (the most rows), days {first} to {last}; load average "
          f"{os.getloadavg()[0]:.1f}")
    print("forecast (the store's two reads + figures), median of 7 after a warm-up (the stores in turn); goal <= 1000 "
          "ms; CPU: this process's, steadier than wall time on a busy machine")
    print(f"{'targeting':<40} {'DuckDB ms':>10} {'cpu':>6} {'chDB ms':>9} {'cpu':>6}  {'reach (DuckDB / chDB)':>24}")
    for label, query in shapes.items():
        (duck_ms, duck_cpu, duck_answer), (chdb_ms, chdb_cpu, chdb_answer) = side_by_side_ms(
            [forecast_of(duck, query), forecast_of(chdb, query)])
        (duck_history, duck_figures), (chdb_history, _) = (cast(tuple[DeliveryHistory, Forecast | None], answer)
                                                           for answer in (duck_answer, chdb_answer))
        same = [(d.day, d.impressions, d.won_spend_micros) for d in duck_history.days] == \
            [(d.day, d.impressions, d.won_spend_micros) for d in chdb_history.days]
        close = abs(duck_history.won_devices - chdb_history.won_devices) <= max(2, 0.08 * chdb_history.won_devices)
        verdict = "ok" if max(duck_ms, chdb_ms) <= 1000 and same and close else "MISS" if same and close else "DIFF"
        print(f"{label:<40} {duck_ms:>10,.1f} {duck_cpu:>6,.0f} {chdb_ms:>9,.1f} {chdb_cpu:>6,.0f}  "
              f"{duck_history.won_devices:>11,} / {chdb_history.won_devices:<11,} {verdict}", flush=True)
        if duck_figures is not None and label.startswith("no targeting"):
            print(f"  e.g. {duck_figures.impressions_per_day} impressions/day, reach {duck_figures.reach}")


if __name__ == "__main__":
    main()
