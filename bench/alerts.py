"""How long the alert checks take at 10M rows of statistics (issue 27: <= 200 ms an advertiser; a whole pass well
inside DSP_ALERT_CHECK_MINUTES).

Reads the rows kept by `bench/statistics_stores.py 10000000 --keep /tmp/stats10m` (a copy of its DuckDB file, so
the kept one is never written), gives the biggest advertisers (most rows) accounts, active campaigns over the
whole period and a ledger in a throwaway SQLite database (asked for more advertisers than the store has, the rest
get an account and a campaign without delivery), then times, at the hour after the last row:
(a) the checks' reads for one advertiser (app/alerts/checks.read_facts: campaigns, ledger, two store queries, and
its causes), (b) one advertiser's check as the job runs it (reads, raise or clear, notifications), medians of 7
after a warm-up, (c) a first whole pass of every check for those advertisers (raising their alerts), and (d) a
second pass (nothing changed: the steady state of a clock ticking every few minutes).
    .venv/bin/python bench/alerts.py [/tmp/stats10m] [advertisers=5]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

SOURCE = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/stats10m")
ADVERTISERS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
DATA_DIR = Path(tempfile.mkdtemp(prefix="dsp-bench-alerts-"))
os.environ["DSP_DATA_DIR"] = str(DATA_DIR)
os.environ["DSP_ANALYTICS_FILE"] = str(DATA_DIR / "analytics.duckdb")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import duckdb  # noqa: E402

import app.tables  # noqa: E402, F401
from app.access.models import User, UserStatus  # noqa: E402
from app.access.roles import Role  # noqa: E402
from app.alerts import checks  # noqa: E402
from app.alerts import jobs as alert_jobs  # noqa: E402
from app.alerts.kinds import DEFAULT_LOW_BALANCE_DAYS  # noqa: E402
from app.campaigns.models import Campaign, CampaignStatus  # noqa: E402
from app.funds.models import LedgerEntry  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.kernel.money import MICROS_PER_DOLLAR  # noqa: E402


def median_ms(run: Callable[[], object], times: int = 7) -> float:
    run()  # warm-up
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return sorted(samples)[times // 2]


def timed_ms(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def without_delivery(biggest: list[tuple[int, int, list[int]]], wanted: int) -> list[tuple[int, int, list[int]]]:
    """Advertisers beyond the store's, each with one campaign of its own and no rows, up to `wanted` in all."""
    next_advertiser = max(a for a, _n, _c in biggest) + 1
    next_campaign = max(c for _a, _n, campaigns in biggest for c in campaigns) + 1
    return [(next_advertiser + i, 0, [next_campaign + i]) for i in range(wanted - len(biggest))]


def populate(biggest: list[tuple[int, int, list[int]]], first: datetime, last: datetime) -> None:
    """Accounts, campaigns (active over the whole period, so every check has work) and a deposit."""
    with session_scope() as db:
        for advertiser_id, _rows, campaign_ids in biggest:
            db.add(User(id=advertiser_id, email=f"adv{advertiser_id}@bench.example", password_hash="-",
                        role=Role.ADVERTISER, status=UserStatus.ACTIVE, company_name=f"Brand {advertiser_id}"))
            db.flush()
            db.add(LedgerEntry(advertiser_id=advertiser_id, amount_micros=50_000 * MICROS_PER_DOLLAR, kind="deposit"))
            db.add_all(Campaign(id=c, advertiser_id=advertiser_id, name=f"Campaign {c}", status=CampaignStatus.ACTIVE,
                                starts_at=first, ends_at=last + timedelta(days=30),
                                total_budget_micros=1_000_000 * MICROS_PER_DOLLAR, bid_micros=2 * MICROS_PER_DOLLAR)
                       for c in campaign_ids)


def main() -> None:
    print(f"copying {SOURCE / 'analytics.duckdb'} to {DATA_DIR} ...", flush=True)
    shutil.copy(SOURCE / "analytics.duckdb", DATA_DIR / "analytics.duckdb")
    with duckdb.connect(str(DATA_DIR / "analytics.duckdb"), read_only=True) as kept:
        total, first, last = kept.execute("SELECT count(*), min(hour), max(hour) FROM delivery").fetchone() or (0, 0, 0)
        biggest = [(a, n, list(c)) for a, n, c in kept.execute(
            "SELECT advertiser_id, count(*), list(DISTINCT campaign_id) FROM delivery GROUP BY 1 ORDER BY 2 DESC "
            f"LIMIT {ADVERTISERS}").fetchall()]
    first, last = first.replace(tzinfo=UTC), last.replace(tzinfo=UTC)
    now = last + timedelta(hours=1)
    migrate()
    stored = len(biggest)
    biggest += without_delivery(biggest, ADVERTISERS)
    populate(biggest, first, last)
    print(f"{total:,} rows, {first:%Y-%m-%d} to {last:%Y-%m-%d %H:%M}; checks at {now:%Y-%m-%d %H:%M} UTC; "
          f"{len(biggest)} advertisers ({stored} with rows)")
    advertiser_id, rows, campaign_ids = biggest[0]
    print(f"advertiser {advertiser_id}: {rows:,} rows, {len(campaign_ids)} active campaigns")

    def reads() -> list[checks.Cause]:
        with session_scope() as db:
            facts = checks.read_facts(db, [advertiser_id], now)
        return checks.advertiser_causes(advertiser_id, facts, now=now, threshold_days=DEFAULT_LOW_BALANCE_DAYS)

    causes = reads()
    print(f"  causes found: {sorted({c.kind.value for c in causes})} ({len(causes)})")
    print(f"(a) the checks' reads, one advertiser:      {median_ms(reads):8.1f} ms  (goal <= 200 ms)")
    whole = median_ms(lambda: alert_jobs.check_advertisers([advertiser_id], now=now))
    print(f"(b) one advertiser's check, as the job runs: {whole:8.1f} ms  (goal <= 200 ms)")
    print(f"(c) every check, {len(biggest)} advertisers, first pass: {timed_ms(lambda: alert_jobs.run_checks(now)):8.1f} ms")
    print(f"(d) every check, {len(biggest)} advertisers, again:      {timed_ms(lambda: alert_jobs.run_checks(now)):8.1f} ms")
    shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
