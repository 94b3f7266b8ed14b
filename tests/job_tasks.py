"""Tasks that exist only for the job queue's tests (tests/test_jobs.py), in a module of their own so that a
worker subprocess (tests/job_worker.py) declares them too. Each leaves its trace in files under `folder`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from app import jobs


@jobs.task("tests.note")
def note(folder: str, text: str) -> None:
    with (Path(folder) / "notes").open("a") as notes:
        notes.write(f"{text}\n")


@jobs.task("tests.always_fails", attempts=3, backoff=(0.05,))
def always_fails(folder: str) -> None:
    number, last = jobs.attempt()
    note(folder, f"attempt {number} of {last}")
    raise jobs.Retry(f"refused on attempt {number}")


@jobs.task("tests.hangs_once")
def hangs_once(folder: str) -> None:
    """The first run says so and hangs (its process is killed in the test); a later run finishes at once."""
    started = Path(folder) / "started"
    if not started.exists():
        started.write_text(str(os.getpid()))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # killed long before
            time.sleep(0.05)
        return
    (Path(folder) / "finished").write_text(str(os.getpid()))
