"""GET /api/campaigns at 10,000 campaigns through the ASGI app (TestClient, no network): p50/p95 of the first page
and of a middle page (a cursor 5,000 rows in), beside the unpaged list the spec's client reads
(/api/campaning/campaignData, the baseline). Issue 26's goal: <= 100 ms p95 for a list call.

SQLite in a throwaway data directory by default; with DATABASE_URL set, that database instead (give it an EMPTY
throwaway database: the bench migrates and seeds it).

    .venv/bin/python bench/api_lists.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
_DATABASE_URL = os.environ.get("DATABASE_URL")
import campaign_list  # noqa: E402  # its seed (10,000 campaigns, ten advertisers); importing it picks a data directory

if _DATABASE_URL:  # campaign_list drops DATABASE_URL to stay on SQLite: this bench measures PostgreSQL too
    os.environ["DATABASE_URL"] = _DATABASE_URL

from starlette.testclient import TestClient  # noqa: E402

from app.kernel.db import migrate, session_scope  # noqa: E402
from app.main import create_app  # noqa: E402
from tests.helpers import bearer_headers  # noqa: E402

ROUNDS = 40
GOAL_MS = 100.0


def percentiles(call: object) -> tuple[float, float]:
    timings = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        reply = call()  # type: ignore[operator]
        timings.append((time.perf_counter() - started) * 1000)
        assert reply.status_code == 200, reply.text
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def middle_cursor(client: TestClient, headers: dict[str, str], params: dict[str, str]) -> str:
    """The cursor 5,000 rows into the list (pages of 500 to get there; a cursor does not depend on the limit)."""
    cursor = ""
    for _ in range(10):
        page = client.get("/api/campaigns", headers=headers,
                          params={**params, "limit": "500", **({"cursor": cursor} if cursor else {})}).json()["data"]
        cursor = page["next_cursor"]
    return cursor


def main() -> None:
    try:
        migrate()
        with session_scope() as db:
            campaign_list.seed(db)
        where = "PostgreSQL" if _DATABASE_URL else "SQLite"
        print(f"{campaign_list.CAMPAIGNS:,} campaigns on {where}; {ROUNDS} calls each through the ASGI app")
        with TestClient(create_app()) as client:
            admin = bearer_headers(client, "admin@demo.example")
            print(f"{'GET /api/campaigns (admin)':<46} {'p50':>8} {'p95':>8}")
            worst = 0.0
            for label, params in (("newest change first", {}), ("sort=-total_budget", {"sort": "-total_budget"}),
                                  ("sort=name (natural, sorted in Python)", {"sort": "name"}),
                                  ("search='spring'", {"search": "spring"})):
                first = percentiles(lambda p=params: client.get("/api/campaigns", headers=admin, params=p))
                cursor = middle_cursor(client, admin, params)
                middle = percentiles(lambda p=params, c=cursor: client.get(
                    "/api/campaigns", headers=admin, params={**p, "cursor": c}))
                worst = max(worst, first[1], middle[1])
                print(f"{label + ', first page':<46} {first[0]:6.1f}ms {first[1]:6.1f}ms")
                print(f"{label + ', middle page':<46} {middle[0]:6.1f}ms {middle[1]:6.1f}ms")
            whole = percentiles(lambda: client.get("/api/campaning/campaignData", headers=admin))
            print(f"{'baseline: the whole list, unpaged':<46} {whole[0]:6.1f}ms {whole[1]:6.1f}ms")
        print(f"worst p95 of a page {worst:.1f} ms: goal <= {GOAL_MS:.0f} ms {'met' if worst <= GOAL_MS else 'NOT met'}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
