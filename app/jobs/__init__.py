"""The app's one job queue: report runs, scheduled reports, e-mail, postback forwards, DSP pushes.

- Declare a task once, in its domain module: `@task("reports.run", attempts=..., backoff=(...))`.
- `defer(db, "reports.run", key="report-run:7", run_id=7)` writes the job in the caller's transaction: the job
  exists if and only if the write that asked for it commits (no job for a rolled-back run, no run without job).
- A worker runs in every server process (start()/stop() in the app's lifespan), CONCURRENCY jobs at once, on
  threads of its own: never the event loop.
- The backend follows the database: PostgreSQL -> procrastinate (app/jobs/pg_queue.py), SQLite -> a table of
  our own with leases (app/jobs/table_queue.py). Both survive a restart, and a killed process's jobs are run
  again by a live worker.
- depth() and failures() are the numbers an operator watches (queued jobs; jobs failed for good).
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from sqlmodel import Session

from app.jobs import tasks
from app.jobs.runner import attempt
from app.jobs.tasks import Retry, RetryPolicy, task
from app.kernel.config import get_settings

__all__ = ["Retry", "RetryPolicy", "attempt", "defer", "depth", "drain", "failures", "keys", "outstanding", "running", "start",
           "stop", "task"]
CONCURRENCY = 3  # jobs at once per process: report generations, mails, forwards (mostly waiting on I/O)


class Backend(Protocol):
    def defer(self, db: Session, task: str, kwargs: dict[str, Any], key: str, delay: float) -> None: ...
    def start(self, concurrency: int) -> None: ...
    def stop(self) -> None: ...
    def drain(self) -> int: ...
    def depth(self) -> int: ...
    def failures(self) -> int: ...
    def outstanding(self) -> int: ...
    def keys(self, prefix: str, *, live_only: bool) -> set[str]: ...


_lock = threading.Lock()
_backend: Backend | None = None
_running = False


def backend() -> Backend:
    global _backend
    with _lock:
        if _backend is None:
            settings = get_settings()
            if settings.is_sqlite:
                from app.jobs.table_queue import TableQueue

                _backend = TableQueue()
            else:
                from app.jobs.pg_queue import ProcrastinateQueue

                _backend = ProcrastinateQueue(settings.sqlalchemy_url)
        return _backend


def defer(db: Session, name: str, *, key: str = "", delay: float = 0.0, **kwargs: Any) -> None:
    """Queue the task `name` with `kwargs` (JSON values), in `db`'s transaction. `key` names what the job is
    about (keys()); `delay` seconds before it may start."""
    tasks.get(name)  # an unknown name fails here, in the caller, not later in a worker
    backend().defer(db, name, kwargs, key, delay)


def start() -> None:
    """Start this process's worker (idempotent)."""
    global _running
    with _lock:
        if _running:
            return
        _running = True
    backend().start(CONCURRENCY)


def stop() -> None:
    global _running
    with _lock:
        if not _running:
            return
        _running = False
    backend().stop()


def running() -> bool:
    return _running


def drain() -> int:
    """Run the due jobs in the calling thread until none is due (tests and scripts without a worker)."""
    return backend().drain()


def depth() -> int:
    """Jobs waiting to run."""
    return backend().depth()


def failures() -> int:
    """Jobs that failed for good (every attempt spent)."""
    return backend().failures()


def outstanding() -> int:
    """Jobs not finished yet: queued (retries waiting for their time included) or running."""
    return backend().outstanding()


def keys(prefix: str, *, live_only: bool = False) -> set[str]:
    """Keys (given at defer) starting with `prefix` of the jobs still to run, or with live_only of those a live
    worker is running right now (a dead worker's do not count)."""
    return backend().keys(prefix, live_only=live_only)
