"""The job queue (app/jobs) on the database DATABASE_URL names (SQLite in a throwaway data directory without
it): how long a job waits from its commit to its start (p50/p95, one at a time, the worker idle), and how many
trivial jobs per second one process's worker (3 at once) gets through when 500 are queued at once.

    .venv/bin/python bench/jobs.py            # SQLite
    DATABASE_URL=postgresql://... .venv/bin/python bench/jobs.py   # procrastinate (an empty database)
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-jobs-"))

from app import jobs  # noqa: E402
from app.kernel.config import get_settings  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402

_started: dict[int, float] = {}
_done = threading.Condition()


@jobs.task("bench.mark")
def mark(n: int) -> None:
    with _done:
        _started[n] = time.perf_counter()
        _done.notify_all()


def _wait_for(count: int) -> None:
    with _done:
        _done.wait_for(lambda: len(_started) >= count, timeout=300)


def main() -> None:
    migrate()
    backend = "procrastinate (PostgreSQL)" if not get_settings().is_sqlite else "jobs table (SQLite)"
    jobs.start()
    try:
        waits = []
        for n in range(100):
            with session_scope() as db:
                jobs.defer(db, "bench.mark", n=n)
            committed = time.perf_counter()
            _wait_for(n + 1)
            waits.append((_started[n] - committed) * 1000)
        _started.clear()
        began = time.perf_counter()
        with session_scope() as db:
            for n in range(500):
                jobs.defer(db, "bench.mark", n=n)
        _wait_for(500)
        elapsed = time.perf_counter() - began
    finally:
        jobs.stop()
    waits.sort()
    print(f"{backend}: commit to start p50 {waits[49]:.1f} ms, p95 {waits[94]:.1f} ms; "
          f"500 jobs queued at once: {500 / elapsed:.0f} jobs/s")


if __name__ == "__main__":
    main()
