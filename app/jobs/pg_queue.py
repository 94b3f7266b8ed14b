"""The job queue on PostgreSQL: procrastinate (pinned in pyproject.toml; its schema is applied by our
migration 0018_jobs). Chosen over pgqueuer because its job rows can be written with plain SQL in the caller's
own transaction (procrastinate_defer_jobs_v1), its retry strategies are per task, and its workers heartbeat
in a table, so a killed process's jobs are found (get_stalled_jobs) and handed back (retry_job) by any live
worker: the sweep below, every third of settings.jobs_lease_seconds.

The worker runs on its own thread with its own event loop (never the server's); procrastinate runs our
synchronous tasks on threads of that loop, CONCURRENCY at once.

Rolling upgrades: procrastinate fails a job whose task its worker does not know (TaskNotFound), so a job that a
newer release deferred must never reach an older worker. Each task has a queue of its own, "<DSP_JOBS_QUEUE>:<task>",
and a worker fetches from the queues of the tasks it knows (procrastinate's own queue filter, down to
procrastinate_fetch_job_v2): a new task's jobs wait in the table, counted by depth(), until a worker of the new
release starts. A worker also takes the bare "<DSP_JOBS_QUEUE>" queue, where releases before this scheme deferred.
A queue's name goes into a NOTIFY channel name ("procrastinate_queue_v1#" + queue, 63 bytes at most), hence the
bounds on DSP_JOBS_QUEUE and on task names (app/jobs/tasks.py).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import procrastinate
from procrastinate import retry as procrastinate_retry
from procrastinate.worker import Worker
from sqlalchemy import text
from sqlmodel import Session

from app.jobs import runner, tasks
from app.kernel.config import get_settings
from app.kernel.db import session_scope

_log = logging.getLogger("dsp.jobs")
POLL_S = 0.5  # a retry that comes due is seen this late (a new job at once: LISTEN/NOTIFY)
POOL_MAX = 4

_DEFER = text("SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(:queue, :task, 0, :lock, NULL, "
              "CAST(:args AS jsonb), :at)::procrastinate_job_to_defer_v1]))")


def _stale() -> float:
    """A worker whose heartbeat is this old is dead (settings.jobs_lease_seconds)."""
    return get_settings().jobs_lease_seconds


def _heartbeat() -> float:
    return _stale() / 3


class _Policy(procrastinate_retry.BaseRetryStrategy):
    """Our RetryPolicy in procrastinate's terms (its job.attempts counts the runs before this one). Read from the
    task's declaration at each decision, as the table queue does, not copied when the worker starts."""

    def __init__(self, name: str) -> None:
        self.name = name

    def get_retry_decision(self, *, exception: BaseException,
                           job: procrastinate.jobs.Job) -> procrastinate_retry.RetryDecision | None:
        policy = tasks.get(self.name).retry
        number = job.attempts + 1
        if number >= policy.attempts:
            return None
        at = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=policy.wait_before(number + 1))
        return procrastinate_retry.RetryDecision(retry_at=at)


def queue_of(task: str) -> str:
    """The procrastinate queue of `task`'s jobs in this process's DSP_JOBS_QUEUE."""
    return f"{get_settings().jobs_queue}:{task}"


def _known_queues() -> list[str]:
    """The queues this worker takes jobs from: those of the tasks it knows (and the pre-scheme bare queue)."""
    return [get_settings().jobs_queue, *(queue_of(name) for name in tasks.load_all())]


def _conninfo(sqlalchemy_url: str) -> str:
    return "postgresql://" + sqlalchemy_url.split("://", 1)[1]


class ProcrastinateQueue:
    def __init__(self, sqlalchemy_url: str) -> None:
        self._conninfo = _conninfo(sqlalchemy_url)
        self._thread: threading.Thread | None = None
        self._worker: Worker | None = None
        self._ready = threading.Event()

    def _app(self) -> procrastinate.App:
        # Connections of its own beside the SQLAlchemy pool: fetching, heartbeats and finishing jobs, at most
        # POOL_MAX per process (README: DSP_DB_POOL_SIZE); LISTEN takes one more.
        app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=self._conninfo, min_size=1,
                                                                         max_size=POOL_MAX))
        for task in tasks.load_all().values():
            app.task(name=task.name, pass_context=True, queue=queue_of(task.name), retry=_Policy(task.name))(_runner_for(task))
        return app

    def defer(self, db: Session, task: str, kwargs: dict[str, Any], key: str, delay: float) -> None:
        at = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=delay) if delay else None
        db.execute(_DEFER, {"queue": queue_of(task), "task": task, "lock": key or None, "args": json.dumps(kwargs), "at": at})

    # --- workers ------------------------------------------------------------------------------------------

    async def _sweep(self, app: procrastinate.App, stop: asyncio.Event | None) -> None:
        """Hand the jobs of workers whose heartbeat stopped back to the queue (a killed process's)."""
        while True:
            for job in await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=_stale()):
                _log.warning("job %s (%s): its worker stopped; queued again", job.id, job.task_name)
                await app.job_manager.retry_job(job)
            if stop is None:
                return
            try:
                await asyncio.wait_for(stop.wait(), _heartbeat())
                return
            except TimeoutError:
                continue

    def _options(self, **extra: Any) -> dict[str, Any]:
        return {"queues": _known_queues(), "install_signal_handlers": False, "update_heartbeat_interval": _heartbeat(),
                "stalled_worker_timeout": _stale(), "fetch_job_polling_interval": POLL_S,
                "delete_jobs": "successful", **extra}

    async def _serve(self, concurrency: int) -> None:
        app = self._app()
        async with app.open_async():
            self._worker = Worker(app, **self._options(concurrency=concurrency))
            stop = asyncio.Event()
            sweeper = asyncio.create_task(self._sweep(app, stop))
            self._ready.set()
            try:
                await self._worker.run()  # type: ignore[no-untyped-call]  # procrastinate leaves it unannotated
            finally:
                stop.set()
                await sweeper

    def start(self, concurrency: int) -> None:
        self._ready.clear()
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(concurrency),), name="job-worker",
                                        daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            _log.error("the job worker did not start within 30 s (is PostgreSQL reachable?)")

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()  # type: ignore[no-untyped-call]
        if self._thread is not None:
            self._thread.join()
        self._thread, self._worker = None, None

    def drain(self) -> int:
        """Run every due job in this thread until none is due (tests, scripts)."""
        async def once() -> None:
            app = self._app()
            async with app.open_async():
                await self._sweep(app, None)
                await Worker(app, **self._options(concurrency=1, wait=False, listen_notify=False)).run()  # type: ignore[no-untyped-call]

        before = self.depth()
        # On a thread of its own: the caller's thread may be running an event loop already (asyncio.run refuses
        # to start a second one there; the browser tests' Playwright keeps one in the suite's main thread).
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="job-drain") as apart:
            apart.submit(asyncio.run, once()).result()
        return max(0, before - self.depth())

    # --- reading ------------------------------------------------------------------------------------------

    def _count(self, *statuses: str) -> int:
        """This process's queue's jobs in any of `statuses`, in one statement (a job moving from one to the other
        is counted once), tasks this process does not know included (they wait for a newer worker)."""
        with session_scope() as db:
            return int(db.execute(text("SELECT count(*) FROM procrastinate_jobs WHERE status = ANY(:s) "
                                       "AND split_part(queue_name, ':', 1) = :queue"),
                                  {"s": list(statuses), "queue": get_settings().jobs_queue}).scalar_one())

    def depth(self) -> int:
        return self._count("todo")

    def failures(self) -> int:
        return self._count("failed")

    def outstanding(self) -> int:
        return self._count("todo", "doing")

    def keys(self, prefix: str, *, live_only: bool) -> set[str]:
        if live_only:
            sql = ("SELECT j.lock FROM procrastinate_jobs j JOIN procrastinate_workers w ON w.id = j.worker_id "
                   "WHERE j.status = 'doing' AND w.last_heartbeat >= now() - make_interval(secs => :stale)")
        else:
            sql = "SELECT lock FROM procrastinate_jobs j WHERE j.status IN ('todo', 'doing')"
        with session_scope() as db:
            found = db.execute(text(f"{sql} AND j.lock LIKE :prefix"),
                               {"stale": _stale(), "prefix": prefix.replace("%", r"\%") + "%"}).scalars()
            return {k for k in found if k}


def _runner_for(task: tasks.Task) -> Any:
    def run(context: procrastinate.JobContext, **kwargs: Any) -> None:
        assert context.job is not None
        runner.run(tasks.get(task.name), kwargs, context.job.attempts + 1)  # its declaration now, as _Policy

    run.__name__ = run.__qualname__ = task.name.replace(".", "_")
    return run
