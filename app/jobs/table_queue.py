"""The job queue on SQLite: a table of our own (no maintained library queues on SQLite with leases).

Claim: one conditional UPDATE (a queued job that is due, or a running one whose lease has expired), so of two
workers, in one process or two, exactly one gets a job. The claiming worker renews the lease every
_lease() / 3 from a heartbeat thread; a lease that expires means its worker died (SIGKILL, power cut), and the
next claim runs the job again. A job that kills its worker MAX_CRASHES times is failed, not retried forever.
Done jobs are deleted; failed ones stay (failures()).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

from sqlalchemy import and_, case, delete, event, exists, func, or_, select, update
from sqlmodel import Session, col

from app.jobs import runner, tasks
from app.jobs.models import JobRow, JobStatus
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.model_base import table_of

_log = logging.getLogger("dsp.jobs")
POLL_S = 0.5  # a job another process deferred is seen this late (this process's own: at once)
MAX_CRASHES = 3
_JOBS = table_of(JobRow)


def _lease() -> float:
    return get_settings().jobs_lease_seconds


def _mine() -> Any:
    """This process's queue's jobs (settings.jobs_queue)."""
    return _JOBS.c.queue == get_settings().jobs_queue


def _claimable(now: float) -> Any:
    """Due jobs of this process's queue whose task this process knows: a task only a newer release declares
    waits for a worker of that release (a rolling upgrade), instead of failing here. Jobs with one key run one
    at a time and in order, as procrastinate runs jobs with one lock: none starts while another with its key
    runs under a live lease or was queued before it (a DSP's second push of a campaign waits for the first's
    id)."""
    due = or_(and_(_JOBS.c.status == JobStatus.QUEUED, _JOBS.c.run_after <= now),
              and_(_JOBS.c.status == JobStatus.RUNNING, _JOBS.c.lease_until < now))
    other = _JOBS.alias("other")
    ahead = exists().where(other.c.key == _JOBS.c.key, other.c.id != _JOBS.c.id, other.c.queue == _JOBS.c.queue,
                           or_(and_(other.c.status == JobStatus.RUNNING, other.c.lease_until >= now),
                               and_(other.c.status == JobStatus.QUEUED, other.c.id < _JOBS.c.id)))
    return and_(_mine(), _JOBS.c.task.in_(list(tasks.load_all())), due, or_(_JOBS.c.key == "", ~ahead))


class TableQueue:
    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._held: set[int] = set()
        self._held_lock = threading.Lock()
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    # --- writing ------------------------------------------------------------------------------------------

    def defer(self, db: Session, task: str, kwargs: dict[str, Any], key: str, delay: float) -> None:
        db.add(JobRow(task=task, queue=get_settings().jobs_queue, args=kwargs, key=key, run_after=time.time() + delay))
        # This process's workers start it as soon as it is committed; other processes' within POLL_S.
        event.listen(db, "after_commit", lambda _s: self._wake.set(), once=True)

    # --- claiming and running -----------------------------------------------------------------------------

    def _claim(self) -> tuple[int, str, dict[str, Any], int, int] | None:
        now = time.time()
        with session_scope() as db:
            # A read first: polling an empty queue must not take SQLite's write lock every POLL_S.
            candidate = db.execute(select(_JOBS.c.id).where(_claimable(now)).order_by(_JOBS.c.id).limit(1)).first()
            if candidate is None:
                return None
            claimed = db.execute(
                update(_JOBS).where(_JOBS.c.id == candidate[0], _claimable(now))
                .values(crashes=_JOBS.c.crashes + case((_JOBS.c.status == JobStatus.RUNNING, 1), else_=0),
                        status=JobStatus.RUNNING, worker=self.worker_id, lease_until=now + _lease(),
                        attempts=_JOBS.c.attempts + 1)
                .returning(_JOBS.c.id, _JOBS.c.task, _JOBS.c.args, _JOBS.c.attempts, _JOBS.c.crashes)).first()
        if claimed is None:
            return None
        with self._held_lock:
            self._held.add(claimed[0])
        return claimed[0], claimed[1], claimed[2], claimed[3], claimed[4]

    def _finish(self, job_id: int, **values: Any) -> None:
        """Record a job's end, if this worker still holds it (a lease lost while paused is another's now)."""
        mine = and_(_JOBS.c.id == job_id, _JOBS.c.worker == self.worker_id, _JOBS.c.status == JobStatus.RUNNING)
        with session_scope() as db:
            if values:
                db.execute(update(_JOBS).where(mine).values(lease_until=None, worker="", **values))
            else:
                db.execute(delete(_JOBS).where(mine))
        with self._held_lock:
            self._held.discard(job_id)

    def run_one(self) -> bool:
        """Claim and run one due job in this thread. Answers whether there was one."""
        claimed = self._claim()
        if claimed is None:
            return False
        job_id, name, kwargs, attempt, crashes = claimed
        try:
            task = tasks.get(name)
        except KeyError:
            self._finish(job_id, status=JobStatus.FAILED, error=f"No task named {name}.")
            return True
        if crashes > MAX_CRASHES:
            self._finish(job_id, status=JobStatus.FAILED, error=f"Its worker stopped {crashes} times while running it.")
            return True
        try:
            runner.run(task, kwargs, attempt - crashes)
        except Exception as error:  # noqa: BLE001 - every failure is the retry policy's to judge
            message = runner.message_of(error)
            number = attempt - crashes
            if number < task.retry.attempts:
                wait = task.retry.wait_before(number + 1)
                _log.info("job %s (%s) attempt %s failed, again in %.1fs: %s", job_id, name, number, wait, message)
                self._finish(job_id, status=JobStatus.QUEUED, error=message, run_after=time.time() + wait)
            else:
                _log.warning("job %s (%s) failed after %s attempts: %s", job_id, name, number, message)
                self._finish(job_id, status=JobStatus.FAILED, error=message)
            return True
        self._finish(job_id)
        return True

    def drain(self) -> int:
        """Run every due job in this thread until none is due (tests, scripts). Answers how many ran."""
        count = 0
        while self.run_one():
            count += 1
        return count

    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                if self.run_one():
                    continue
            except Exception:  # a database hiccup must not end the worker thread
                _log.exception("job worker")
            self._wake.wait(POLL_S)
            self._wake.clear()

    def _heartbeat(self) -> None:
        while not self._stop.wait(_lease() / 3):
            with self._held_lock:
                held = list(self._held)
            if not held:
                continue
            try:
                with session_scope() as db:
                    db.execute(update(_JOBS).where(_JOBS.c.id.in_(held), _JOBS.c.worker == self.worker_id)
                               .values(lease_until=time.time() + _lease()))
            except Exception:
                _log.exception("job lease renewal")

    def start(self, concurrency: int) -> None:
        self._stop.clear()
        self._threads = [threading.Thread(target=self._work, name=f"job-worker-{n}", daemon=True)
                         for n in range(concurrency)]
        self._threads.append(threading.Thread(target=self._heartbeat, name="job-heartbeat", daemon=True))
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join()
        self._threads = []

    # --- reading ------------------------------------------------------------------------------------------

    def depth(self) -> int:
        with session_scope() as db:
            return int(db.execute(select(func.count()).select_from(_JOBS)
                                  .where(_mine(), _JOBS.c.status == JobStatus.QUEUED)).scalar_one())

    def failures(self) -> int:
        with session_scope() as db:
            return int(db.execute(select(func.count()).select_from(_JOBS)
                                  .where(_mine(), _JOBS.c.status == JobStatus.FAILED)).scalar_one())

    def outstanding(self) -> int:
        with session_scope() as db:
            return int(db.execute(select(func.count()).select_from(_JOBS).where(
                _mine(), col(JobRow.status).in_([JobStatus.QUEUED, JobStatus.RUNNING]))).scalar_one())

    def keys(self, prefix: str, *, live_only: bool) -> set[str]:
        """Keys of jobs starting with `prefix`: running under a live lease (live_only), or still to run."""
        with session_scope() as db:
            if live_only:
                where = and_(_JOBS.c.status == JobStatus.RUNNING, _JOBS.c.lease_until >= time.time())
            else:
                where = col(JobRow.status).in_([JobStatus.QUEUED, JobStatus.RUNNING])
            return set(db.execute(select(_JOBS.c.key).where(where, _JOBS.c.key.startswith(prefix))).scalars())
