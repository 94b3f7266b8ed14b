"""The bulk edit page's grid at 10,000 campaigns, before and after it paged on the server: what the page read and
sent before (list_campaigns: every campaign, made into grid rows) against one page of 50 (list_campaigns_page: the
page's rows and the total by a COUNT), sorted, searched, deep in the list and "selected only" (the ?ids= a list page
sends); after an Apply, which of 1,000 chosen campaigns (the most one Apply takes) the list still shows, the read
that drops the others from the selection (components/ui/bulk.left_the_list); and the whole page's first render (the real BulkStatusPage in a ReactPy layout, the model it sends).
Seeds campaign_list's throwaway SQLite database (10,000 campaigns over ten advertisers); prints medians.

    .venv/bin/python bench/bulk_pages.py
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
# Its seed and timer; importing it picks a throwaway data directory.
import campaign_list  # noqa: E402

from app.campaigns import service as campaigns  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from components.campaigns.bulk_edit import BulkStatusPage, grid_rows  # noqa: E402
from components.ui.bulk import PAGE_SIZE, left_the_list  # noqa: E402
from tests.helpers import actor_of  # noqa: E402
from tests.render import render_model, signed_in_console  # noqa: E402

ROUNDS = 5  # page renders: each is a whole layout


def kib(value: Any) -> str:
    return f"{len(json.dumps(value)) / 1024:,.0f} KiB"


def main() -> None:
    try:
        migrate()
        with session_scope() as db:
            campaign_list.seed(db)
        console = signed_in_console("admin@demo.example")
        with session_scope() as db:
            admin = actor_of(db, "admin@demo.example")
            chosen = [row.id for row in campaigns.list_campaigns(db, actor=admin, sort="-id")][:40]
            print(f"bulk page grid at {campaign_list.CAMPAIGNS:,} campaigns, admin (SQLite, medians of "
                  f"{campaign_list.ROUNDS})\n")
            whole = grid_rows(console, campaigns.list_campaigns(db, actor=admin))
            before = campaign_list.median_ms(lambda: grid_rows(console, campaigns.list_campaigns(db, actor=admin)))
            print(f"{'before: every campaign as grid rows':<46} {len(whole):>6,} rows {before:7.1f} ms {kib(whole):>10}")
            cases: tuple[tuple[str, dict[str, Any]], ...] = (
                ("after: page 1, newest change first", {}), ("after: sort=name", {"sort": "name"}),
                ("after: search='spring sale'", {"search": "spring sale"}),
                ("after: sort=name, page 100 (deep)", {"sort": "name", "page": 100}),
                ("after: selected only (40 ids from ?ids=)", {"ids": chosen}))
            for label, kwargs in cases:
                page = campaigns.list_campaigns_page(db, actor=admin, page_size=PAGE_SIZE, **kwargs)
                rows = grid_rows(console, page.rows)
                took = campaign_list.median_ms(lambda k=kwargs: grid_rows(console, campaigns.list_campaigns_page(
                    db, actor=admin, page_size=PAGE_SIZE, **k).rows))
                print(f"{label:<46} {len(rows):>6,} rows {took:7.1f} ms {kib(rows):>10}  (of {page.total:,})")
            most = tuple(row.id for row in campaigns.list_campaigns(db, actor=admin, sort="name"))[:1000]
            gone = left_the_list(db, read=campaigns.list_campaigns_page, actor=admin, ids=most, revision=1)
            took = campaign_list.median_ms(lambda: left_the_list(db, read=campaigns.list_campaigns_page, actor=admin,
                                                                 ids=most, revision=1))
            print(f"{'after Apply: which of 1,000 chosen are listed':<46} {len(most):>6,} ids  {took:7.1f} ms"
                  f"  ({len(gone.keys or ())} left the list)")
            db.rollback()
        timings, model = [], {}
        for _ in range(ROUNDS):
            started = os.times().elapsed
            model = render_model(BulkStatusPage, console, "/admin/bulk-campaign-status")
            timings.append((os.times().elapsed - started) * 1000)
        print(f"\nthe whole page's first render (layout, reads settled): {sorted(timings)[ROUNDS // 2]:.0f} ms, "
              f"model {kib(model)}")
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
