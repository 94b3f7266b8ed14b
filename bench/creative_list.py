"""The creative list's grid at 10,000 creatives, before and after it paged on the server: what the page read and
sent before (list_creatives, every creative, as JSON rows) against one page of 50 (list_creatives_page: the page's
rows and the total by a COUNT) in each sort the grid offers, with a search and deep in the list; and the audience
list's page beside its whole list. Seeds a throwaway SQLite database in a temporary data directory; prints each
call's median server time and the JSON the grid gets.

    .venv/bin/python bench/creative_list.py
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
# Its seed (the demo, ten advertisers of the demo agency) and timer; importing it picks a throwaway data directory.
import campaign_list  # noqa: E402
from sqlalchemy import insert  # noqa: E402
from sqlmodel import Session  # noqa: E402

from app.creatives import service as creatives  # noqa: E402
from app.creatives.models import Creative, CreativeStatus, CreativeType  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.supply import audiences  # noqa: E402
from app.supply.models import Audience  # noqa: E402
from tests.helpers import actor_of  # noqa: E402

CREATIVES = 10_000
AUDIENCES = 2_000
PAGE_SIZE = 50
GOAL_MS = 100
SIZES = ((300, 250), (728, 90), (320, 50), (160, 600), (None, None))
median_ms = campaign_list.median_ms


def seed(db: Session) -> None:
    """campaign_list's seed (its 10,000 campaigns come along), then the creatives and audiences over its advertisers."""
    advertisers = campaign_list.seed(db)
    rng, now, words = random.Random(7), datetime.now(UTC), campaign_list.WORDS
    types, statuses = [t.value for t in CreativeType], [s.value for s in CreativeStatus]
    rows = []
    for n in range(CREATIVES):
        changed = now - timedelta(minutes=rng.randrange(0, 60 * 24 * 365))
        width, height = rng.choice(SIZES)
        rows.append({"advertiser_id": advertisers[n % len(advertisers)], "name": f"{rng.choice(words)} {n}",
                     "type": rng.choice(types), "status": rng.choice(statuses),
                     "click_url": f"https://shop{n % 97}.example/", "pixel_urls": [], "impression_urls": [], "html": "",
                     "width": width, "height": height, "title": "", "description": "", "call_to_action": "",
                     "created_at": changed, "updated_at": changed})
    db.execute(insert(Creative), rows)
    db.execute(insert(Audience), [{"advertiser_id": advertisers[n % len(advertisers)], "name": f"{rng.choice(words)} {n}",
                                   "kind": "device_ids", "status": "active", "event": "", "device_count": n,
                                   "last_upload": {}, "created_at": now, "updated_at": now - timedelta(minutes=n)}
                                  for n in range(AUDIENCES)])


def as_json(rows: list[Any]) -> list[dict[str, Any]]:
    return [row.model_dump() for row in rows]


def kib(rows: list[dict[str, Any]]) -> str:
    return f"{len(json.dumps(rows)) / 1024:,.0f} KiB"


def main() -> None:
    try:
        migrate()
        with session_scope() as db:
            seed(db)
        with session_scope() as db:
            admin, agency = actor_of(db, "admin@demo.example"), actor_of(db, "agency@demo.example")
            advertiser = actor_of(db, "advertiser@demo.example")
            print(f"{CREATIVES:,} creatives over {campaign_list.EXTRA_ADVERTISERS + 1} advertisers (SQLite)\n")
            print(f"{'creative grid':<44} {'rows':>6} {'one page':>9} {'JSON':>8} {'whole (before)':>15} {'JSON':>9}")
            cases: tuple[tuple[str, Any, dict[str, Any]], ...] = (
                ("admin, newest change first", admin, {}), ("agency, newest change first", agency, {}),
                ("advertiser (its own)", advertiser, {}), ("admin, search='sale 1'", admin, {"search": "sale 1"}),
                ("admin, type=video, status=paused", admin, {"type": "video", "status": "paused"}),
                *((f"admin, sort={sort}", admin, {"sort": sort})
                  for sort in ("name", "-name", "advertiser", "type", "-status", "size", "-click_url", "id")),
                ("admin, sort=name, page 100 (deep)", admin, {"sort": "name", "page": 100}))
            worst = 0.0
            for label, actor, kwargs in cases:
                listed = creatives.list_creatives_page(db, actor=actor, page_size=PAGE_SIZE, **kwargs)
                took = median_ms(lambda a=actor, k=kwargs: as_json(creatives.list_creatives_page(
                    db, actor=a, page_size=PAGE_SIZE, **k).rows))
                worst = max(worst, took)
                filters = {k: v for k, v in kwargs.items() if k in ("type", "status", "search")}
                line = f"{label:<44} {listed.total:>6,} {took:6.1f} ms {kib(as_json(listed.rows)):>8}"
                if "sort" not in kwargs:  # the whole list (the page before) had one order; the grid sorted it in JS
                    whole = as_json(creatives.list_creatives(db, actor=actor, **filters))
                    before = median_ms(lambda a=actor, f=filters: as_json(creatives.list_creatives(db, actor=a, **f)))
                    line += f" {before:12.1f} ms {kib(whole):>9}"
                print(line)
            print(f"one page at most {worst:.1f} ms: goal <= {GOAL_MS} ms {'met' if worst <= GOAL_MS else 'NOT met'}\n")
            page = median_ms(lambda: as_json(audiences.list_audiences_page(db, actor=admin, page_size=PAGE_SIZE).rows))
            name = median_ms(lambda: as_json(audiences.list_audiences_page(db, actor=admin, sort="name",
                                                                           page_size=PAGE_SIZE).rows))
            whole_audiences = median_ms(lambda: as_json(audiences.list_audiences(db, actor=admin)))
            print(f"audience grid, {AUDIENCES:,} device-id lists, admin: one page {page:.1f} ms (by name {name:.1f} ms), "
                  f"the whole list (before) {whole_audiences:.1f} ms")
            db.rollback()
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
