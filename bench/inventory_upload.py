"""An inventory-list CSV upload of 100,000 lines: app_lists.upload_entries (lines checked and normalised in one
pass, set arithmetic against the list, one bulk insert) against a naive baseline that checks each line and asks
the database about it before inserting it alone. Seeds a throwaway SQLite database in a temporary data directory;
prints both times (the baseline runs on a 5,000-line sample and is scaled up, so the bench ends in seconds).

    .venv/bin/python bench/inventory_upload.py
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

# A throwaway data directory and database, chosen before the app reads its settings.
DATA_DIR = tempfile.mkdtemp(prefix="dsp-bench-inventory-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
os.environ.pop("DATABASE_URL", None)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import Session, select  # noqa: E402

from app.demo.seed import seed_demo  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.supply import app_entries, app_lists  # noqa: E402
from app.supply.models import AppListEntry  # noqa: E402
from tests.helpers import actor_of  # noqa: E402

LINES = 100_000
SAMPLE = 5_000


def content(lines: int, start: int = 0) -> bytes:
    rows = ["bundle_id"]
    for i in range(start, start + lines):
        rows.append(f"com.example.game{i}" if i % 3 == 0 else f"id{100000000 + i}" if i % 3 == 1 else
                    f"site{i}.example.com")
    rows[len(rows) // 2] = "not an entry"
    return "\n".join(rows).encode()


def naive(db: Session, list_id: int, data: bytes) -> None:
    """The per-line way: check, look the value up, insert it, one line at a time."""
    for line in data.decode("utf-8").splitlines()[1:]:
        found = app_entries.normalise(line)
        if isinstance(found, str):
            continue
        exists = db.exec(select(AppListEntry.id).where(AppListEntry.list_id == list_id,
                                                       AppListEntry.value == found[0])).first()
        if exists is None:
            db.add(AppListEntry(list_id=list_id, value=found[0], kind=str(found[1].value)))
            db.flush()


def main() -> None:
    migrate()
    with session_scope() as db:
        seed_demo(db)
    with session_scope() as db:
        me = actor_of(db, "advertiser@demo.example")
        fast_id = app_lists.create_list(db, actor=me, name="Bench fast", kind="allow").list.id
        slow_id = app_lists.create_list(db, actor=me, name="Bench naive", kind="allow").list.id
    data = content(LINES)
    with session_scope() as db:
        me = actor_of(db, "advertiser@demo.example")
        started = time.perf_counter()
        result = app_lists.upload_entries(db, actor=me, applist_id=fast_id, content=data)
        db.commit()
        fast = time.perf_counter() - started
    sample = content(SAMPLE)
    with session_scope() as db:
        started = time.perf_counter()
        naive(db, slow_id, sample)
        db.commit()
        slow = (time.perf_counter() - started) * LINES / SAMPLE
    print(f"upload of {LINES:,} lines: {fast:.2f} s (added {result.added:,}, refused {result.refused_count})")
    print(f"naive per-line baseline: ~{slow:.1f} s for {LINES:,} lines (measured on {SAMPLE:,}, scaled)")
    print(f"speed-up: {slow / fast:.0f}x")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(DATA_DIR, ignore_errors=True)
