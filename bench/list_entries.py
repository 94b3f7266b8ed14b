"""GET /api/inventory-lists/{id}/entries on one list of 200,000 entries through the ASGI app (TestClient, no
network): p50/p95 of the first page, a middle page (100,000 entries in) and a search, beside reading the whole
list (what the view page's grid read before it paged). Issue 26's goal: <= 100 ms p95 for a list call.

SQLite in a throwaway data directory.

    .venv/bin/python bench/list_entries.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

DATA_DIR = tempfile.mkdtemp(prefix="dsp-bench-entries-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
os.environ.pop("DATABASE_URL", None)
sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from starlette.testclient import TestClient  # noqa: E402

from app.demo.seed import seed_demo  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.main import create_app  # noqa: E402
from app.supply import app_lists  # noqa: E402
from tests.helpers import actor_of, bearer_headers  # noqa: E402

ENTRIES = 200_000
ROUNDS = 40
GOAL_MS = 100.0


def percentiles(call: object) -> tuple[float, float]:
    timings = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        reply = call()  # type: ignore[operator]
        timings.append((time.perf_counter() - started) * 1000)
        assert getattr(reply, "status_code", 200) == 200
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def main() -> None:
    try:
        migrate()
        with session_scope() as db:
            seed_demo(db)
            made = app_lists.create_list(db, actor=actor_of(db, "advertiser@demo.example"), name="Big", kind="allow",
                                         entries="\n".join(f"site{n:06d}.example.com" for n in range(ENTRIES)))
            list_id = made.list.id
        path = f"/api/inventory-lists/{list_id}/entries"
        print(f"one inventory list of {ENTRIES:,} entries on SQLite; {ROUNDS} calls each through the ASGI app")
        with TestClient(create_app()) as client:
            me = bearer_headers(client, "advertiser@demo.example")
            cursor = ""
            for _ in range(200):  # 100,000 entries in, by pages of 500
                cursor = client.get(path, headers=me, params={"limit": 500, **({"cursor": cursor} if cursor else {})}
                                    ).json()["data"]["next_cursor"]
            print(f"{'GET ' + path:<52} {'p50':>8} {'p95':>8}")
            worst = 0.0
            for label, params in (("first page (50)", {}), ("middle page (50)", {"cursor": cursor}),
                                  ("search='site1999' (LIKE over the list)", {"search": "site1999"})):
                p50, p95 = percentiles(lambda p=params: client.get(path, headers=me, params=p))
                worst = max(worst, p95)
                print(f"{label:<52} {p50:6.1f}ms {p95:6.1f}ms")

            def whole() -> object:
                with session_scope() as db:
                    return app_lists.list_entries(db, actor=actor_of(db, "advertiser@demo.example"), applist_id=list_id)
            p50, p95 = percentiles(whole)
            print(f"{'baseline: every entry read (service, no HTTP)':<52} {p50:6.1f}ms {p95:6.1f}ms")
        print(f"worst p95 of a page {worst:.1f} ms: goal <= {GOAL_MS:.0f} ms {'met' if worst <= GOAL_MS else 'NOT met'}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
