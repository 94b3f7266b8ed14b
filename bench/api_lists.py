"""The API's lists at 10,000 rows through the ASGI app (TestClient, no network): p50/p95 of the first page and of a
middle page (a cursor 5,000 rows in) of GET /api/campaigns in every sort it takes (each column, both directions),
of GET /api/creatives (10,000 creatives) and of GET /api/users (10,000 accounts), beside the unpaged campaign list
the spec's client reads (/api/campaning/campaignData, the baseline). Issue 26's goal: <= 100 ms p95 for a list call.
`--quick` measures only the four headline campaign sorts.

SQLite in a throwaway data directory by default; with DATABASE_URL set, that database instead (give it an EMPTY
throwaway database: the bench migrates and seeds it).

    .venv/bin/python bench/api_lists.py
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
_DATABASE_URL = os.environ.get("DATABASE_URL")
import campaign_list  # noqa: E402  # its seed (10,000 campaigns, ten advertisers); importing it picks a data directory

if _DATABASE_URL:  # campaign_list drops DATABASE_URL to stay on SQLite: this bench measures PostgreSQL too
    os.environ["DATABASE_URL"] = _DATABASE_URL

from sqlalchemy import insert  # noqa: E402
from sqlmodel import Session, select  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from app.access.models import User  # noqa: E402
from app.access.roles import Role  # noqa: E402
from app.campaigns.service import LIST_COLUMNS  # noqa: E402
from app.creatives.models import Creative  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.main import create_app  # noqa: E402
from tests.helpers import bearer_headers  # noqa: E402

ROWS = campaign_list.CAMPAIGNS
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


def middle_cursor(client: TestClient, headers: dict[str, str], path: str, params: dict[str, str]) -> str:
    """The cursor 5,000 rows into the list (pages of 500 to get there; a cursor does not depend on the limit)."""
    cursor = ""
    for _ in range(10):
        page = client.get(path, headers=headers,
                          params={**params, "limit": "500", **({"cursor": cursor} if cursor else {})}).json()["data"]
        cursor = page["next_cursor"]
    return cursor


def seed_other_lists(db: Session, advertisers: list[int]) -> None:
    """10,000 creatives over the campaigns' advertisers and 10,000 more advertiser accounts (one password hash for
    all: hashing is not what is measured), inserted in bulk."""
    rng, now = random.Random(11), datetime.now(UTC)
    password_hash = db.exec(select(User.password_hash).where(User.email == "admin@demo.example")).one()
    creatives = []
    for n in range(ROWS):
        changed = now - timedelta(minutes=rng.randrange(0, 60 * 24 * 365))
        creatives.append({"advertiser_id": advertisers[n % len(advertisers)], "name": f"Banner {n:05d}",
                          "type": "image", "status": "active", "click_url": "https://example.com/", "pixel_urls": [],
                          "impression_urls": [], "html": "", "title": "", "description": "", "call_to_action": "",
                          "created_at": changed, "updated_at": changed})
    db.execute(insert(Creative), creatives)
    db.execute(insert(User), [{"email": f"bench-account-{n}@demo.example", "password_hash": password_hash,
                               "first_name": "Bench", "last_name": f"Account {n}", "company_name": f"Account {n:05d}",
                               "role": Role.ADVERTISER.value, "status": "active", "created_at": now, "updated_at": now}
                              for n in range(ROWS)])


def measure(client: TestClient, headers: dict[str, str], label: str, path: str, params: dict[str, str]) -> float:
    """Prints the first and the middle page's p50/p95; answers the worse p95."""
    first = percentiles(lambda: client.get(path, headers=headers, params=params))
    cursor = middle_cursor(client, headers, path, params)
    middle = percentiles(lambda: client.get(path, headers=headers, params={**params, "cursor": cursor}))
    print(f"{label + ', first page':<52} {first[0]:6.1f}ms {first[1]:6.1f}ms")
    print(f"{label + ', middle page':<52} {middle[0]:6.1f}ms {middle[1]:6.1f}ms")
    return max(first[1], middle[1])


def campaign_sorts(quick: bool) -> list[tuple[str, dict[str, str]]]:
    """The headline cases, then (unless quick) every other column of the list in both directions."""
    cases = [("newest change first", {}), ("sort=-total_budget", {"sort": "-total_budget"}),
             ("sort=name (natural order)", {"sort": "name"}), ("search='spring'", {"search": "spring"})]
    if not quick:
        shown = {params.get("sort") for _label, params in cases}
        cases += [(f"sort={sort}", {"sort": sort}) for column in LIST_COLUMNS for sort in (column, f"-{column}")
                  if sort not in shown]
    return cases


def main() -> None:
    quick = "--quick" in sys.argv
    try:
        migrate()
        with session_scope() as db:
            advertisers = campaign_list.seed(db)
            seed_other_lists(db, advertisers)
        where = "PostgreSQL" if _DATABASE_URL else "SQLite"
        print(f"{ROWS:,} campaigns, creatives and accounts on {where}; {ROUNDS} calls each through the ASGI app")
        with TestClient(create_app()) as client:
            admin = bearer_headers(client, "admin@demo.example")
            print(f"{'GET /api/campaigns (admin)':<52} {'p50':>8} {'p95':>8}")
            worst = max(measure(client, admin, label, "/api/campaigns", params)
                        for label, params in campaign_sorts(quick))
            worst = max(worst, measure(client, admin, "GET /api/creatives, newest change first", "/api/creatives", {}),
                        measure(client, admin, "GET /api/users, by id", "/api/users", {}))
            whole = percentiles(lambda: client.get("/api/campaning/campaignData", headers=admin))
            print(f"{'baseline: the whole campaign list, unpaged':<52} {whole[0]:6.1f}ms {whole[1]:6.1f}ms")
        print(f"worst p95 of a page {worst:.1f} ms: goal <= {GOAL_MS:.0f} ms {'met' if worst <= GOAL_MS else 'NOT met'}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
