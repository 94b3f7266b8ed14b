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


def _mark(path: Path) -> None:
    """Write this process's id whole before the file appears: the test waits for the file, then reads it (a plain
    write_text makes the file empty first, and the test once read it so)."""
    partial = path.with_suffix(".partial")
    partial.write_text(str(os.getpid()))
    partial.replace(path)


@jobs.task("tests.hangs_once")
def hangs_once(folder: str) -> None:
    """The first run says so and hangs (its process is killed in the test); a later run finishes at once."""
    started = Path(folder) / "started"
    if not started.exists():
        _mark(started)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # killed long before
            time.sleep(0.05)
        return
    _mark(Path(folder) / "finished")
