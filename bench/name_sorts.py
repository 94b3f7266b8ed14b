"""The report, inventory-list, smart-app-list and DSP grids sorted by name at 5,000 rows each: one page of 50 by the
natural-order key (name_key, migration 0029) against the same page by lower(name), the order they had before (case
folded, "Report 10" before "Report 2"); the first page and a deep one, both directions. Seeds a throwaway SQLite
database in a temporary data directory; prints each call's median server time.

    .venv/bin/python bench/name_sorts.py
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
# Its timer; importing it picks a throwaway data directory.
import campaign_list  # noqa: E402
from sqlalchemy import func, insert  # noqa: E402
from sqlmodel import Session  # noqa: E402

from app.demo.seed import seed_demo  # noqa: E402
from app.dsps import service as dsps  # noqa: E402
from app.dsps.models import Dsp  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.reports import service as reports  # noqa: E402
from app.reports.models import Report  # noqa: E402
from app.supply import app_lists, smart_apps  # noqa: E402
from app.supply.models import AppList, SmartAppList  # noqa: E402
from tests.helpers import actor_of  # noqa: E402

ROWS = 5_000
PAGE_SIZE = 50
DEEP_PAGE = 60
median_ms = campaign_list.median_ms


def seed(db: Session) -> None:
    """The demo, then ROWS of each kind over its advertiser, named "<word> <n>" (numbers unpadded)."""
    advertiser = seed_demo(db)["advertiser@demo.example"]
    now, words = datetime.now(UTC), campaign_list.WORDS
    stamps = [{"created_at": now, "updated_at": now - timedelta(minutes=n)} for n in range(ROWS)]
    names = [f"{words[n % len(words)]} {n}" for n in range(ROWS)]
    db.execute(insert(Report), [{"owner_id": advertiser, "advertiser_id": advertiser, "name": name,
                                 "report_type": "campaign", "dimensions": [], "metrics": [], "events": [], "filters": {},
                                 "recipients": [], **stamp} for name, stamp in zip(names, stamps, strict=True)])
    db.execute(insert(AppList), [{"advertiser_id": advertiser, "name": name, **stamp}
                                 for name, stamp in zip(names, stamps, strict=True)])
    db.execute(insert(SmartAppList), [{"name": name, "category_id": "36", "genre_id": "6014", **stamp}
                                      for name, stamp in zip(names, stamps, strict=True)])
    db.execute(insert(Dsp), [{"name": name, "endpoint_url": f"https://dsp{n}.example/rtb", "credentials_encrypted": "",
                              "exchange_ids": [], **stamp}
                             for n, (name, stamp) in enumerate(zip(names, stamps, strict=True))])


# Each grid: its page reader, its sorts (patched for the "before" order) and its model.
GRIDS: tuple[tuple[str, Callable[..., Any], dict[str, Any], Any], ...] = (
    ("reports", reports.list_reports_page, reports.LIST_SORTS, Report),
    ("inventory lists", app_lists.list_lists_page, app_lists.LIST_SORTS, AppList),
    ("smart-app lists", smart_apps.list_lists_page, smart_apps.LIST_SORTS, SmartAppList),
    ("DSPs", dsps.list_dsps_page, dsps.LIST_SORTS, Dsp))


def main() -> None:
    try:
        migrate()
        with session_scope() as db:
            seed(db)
        with session_scope() as db:
            admin = actor_of(db, "admin@demo.example")
            print(f"{ROWS:,} rows of each kind, one page of {PAGE_SIZE}, admin (SQLite)\n")
            print(f"{'grid, sort':<34} {'page 1':>9} {f'page {DEEP_PAGE}':>9} {'before p1':>10} {'before p' + str(DEEP_PAGE):>11}")
            for label, read, sorts, model in GRIDS:
                for sort in ("name", "-name"):
                    now_ms = [median_ms(lambda p=page, r=read, s=sort: r(db, actor=admin, sort=s, page=p,
                                                                       page_size=PAGE_SIZE))
                              for page in (1, DEEP_PAGE)]
                    natural, sorts["name"] = sorts["name"], func.lower(model.name)
                    before_ms = [median_ms(lambda p=page, r=read, s=sort: r(db, actor=admin, sort=s, page=p,
                                                                           page_size=PAGE_SIZE))
                                 for page in (1, DEEP_PAGE)]
                    sorts["name"] = natural
                    first = [row.name for row in read(db, actor=admin, sort=sort, page_size=PAGE_SIZE).rows[:3]]
                    print(f"{label + ', sort=' + sort:<34} {now_ms[0]:6.1f} ms {now_ms[1]:6.1f} ms "
                          f"{before_ms[0]:7.1f} ms {before_ms[1]:8.1f} ms  {', '.join(first)}")
            db.rollback()
        print(f"\nload average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
