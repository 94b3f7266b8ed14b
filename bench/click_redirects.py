"""What one redirector click costs (prints milliseconds): the checks, the one-row statistics batch and its audit
row, in a throwaway data directory on SQLite and the default statistics store. Each click is its own batch
(app/statistics/click_redirects.py), so this is the price of counting clicks exactly once per click id; a
repeated click id (a reload) is timed too. Usage: `.venv/bin/python bench/click_redirects.py [clicks]`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

from sqlmodel import col, select  # noqa: E402

from app.creatives.models import CampaignCreative, Creative  # noqa: E402
from app.demo.advertising import seed_demo_advertising  # noqa: E402
from app.demo.seed import seed_demo  # noqa: E402
from app.kernel.db import migrate, run, session_scope  # noqa: E402
from app.statistics import click_redirects  # noqa: E402
from app.statistics import service as stats  # noqa: E402
from app.warehouse import get_store  # noqa: E402
from tests.helpers import actor_of  # noqa: E402


def _timed(label: str, params: list[dict[str, str]]) -> None:
    timings = []
    for one in params:
        start = time.perf_counter()
        click_redirects.follow_click(params=one)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    print(f"{label:<28} {len(timings):>5} clicks   p50 {statistics.median(timings):6.1f} ms   "
          f"p95 {timings[int(len(timings) * 0.95) - 1]:6.1f} ms   max {timings[-1]:6.1f} ms")


def main(clicks: int = 300) -> None:
    migrate()
    run(seed_demo)
    with session_scope() as db:
        advertiser = actor_of(db, "advertiser@demo.example")
        seed_demo_advertising(db, actor=advertiser)
        db.commit()
        link = db.exec(select(CampaignCreative).join(Creative, col(Creative.id) == CampaignCreative.creative_id)
                       .where(Creative.click_url != "").order_by(col(CampaignCreative.id))).first()
        assert link is not None
    base = {"campaign_id": str(link.campaign_id), "creative_id": str(link.creative_id), "country": "DE"}
    _timed("new click (click_id)", [{**base, "click_id": f"bench-{n}"} for n in range(clicks)])
    _timed("repeated click_id", [{**base, "click_id": f"bench-{n}"} for n in range(min(clicks, 100))])
    _timed("new click (no click_id)", [dict(base) for _ in range(min(clicks, 100))])
    today = datetime.now(UTC).date()
    with session_scope() as db:
        rows = stats.statistics(db, actor=advertiser, start=today, end=today, metrics=["clicks"],
                                filters={"campaign_id": [link.campaign_id]})
    print(f"clicks counted for the campaign today: {rows[0]['clicks']} (store: {type(get_store()).__name__})")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
