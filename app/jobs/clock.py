"""The process's one clock: an APScheduler BackgroundScheduler that every feature's periodic work hangs on.

APScheduler 3 is the clock because report schedules are cron triggers in each report's own time zone, rebuilt
from rows at start-up and whenever a report is saved (procrastinate's periodic tasks are static, declared in
code, and the SQLite queue has none). The clock only decides *when*; the work itself is a job of the queue
(app/jobs), so the clock's own thread does nothing slow.

Every process runs the clock, so every process fires every slot. The one rule that makes a slot run once across
processes lives here, in claim(): a slot is taken by one conditional UPDATE of its key's ClockSlot row (moving
next_due past it), in the same transaction as the job it queues. Of all processes firing, one gets the slot, and
its job exists iff the claim committed (a crash after the claim loses nothing: the job is durable).

Features register at import (app/jobs/tasks.TASK_MODULES, which start() loads):
- every(key, task, interval): queue `task` (job key `key`) once an interval across every process;
- on_start(fn): run once the clock is up (reports: fail the runs a dead process left, register the schedules);
- cron(job_id, trigger, fn, *args) / remove(job_id): this process's own timed calls (report
  schedules; each firing claims its slot with claim()).
lease(key, now, length) lets periodic work run only while it holds its key's lease, so two runs never overlap even
when one outlasts its interval.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.base import BaseTrigger
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, update

from app import jobs
from app.jobs import tasks
from app.jobs.models import ClockSlot
from app.kernel.db import session_scope
from app.kernel.model_base import utcnow

# The next interval slot is due a little before the next tick: a clock firing a few ms early still finds it due.
TICK_SLACK = timedelta(seconds=5)


@dataclass(frozen=True)
class Periodic:
    task: str  # the queue's task each slot queues
    interval: Callable[[], timedelta]  # read at start (settings); zero: not run


_lock = threading.Lock()
_scheduler: BackgroundScheduler | None = None
_periodic: dict[str, Periodic] = {}
_starters: list[Callable[[], None]] = []


# --- registration (at import) ---------------------------------------------------------------------------------

def every(key: str, task: str, interval: Callable[[], timedelta]) -> None:
    """Queue `task` (job key `key`) once every interval() across all processes, from the clock's start on."""
    _periodic[key] = Periodic(task, interval)


def on_start(fn: Callable[[], None]) -> Callable[[], None]:
    """Call `fn` (no arguments, in the starting thread) each time this process's clock starts."""
    if fn not in _starters:
        _starters.append(fn)
    return fn


# --- the clock ------------------------------------------------------------------------------------------------

def start() -> BackgroundScheduler:
    """Start this process's clock (idempotent; the app's lifespan): the periodic slots, then each on_start."""
    global _scheduler
    tasks.load_all()  # the features' modules, which register their periodic work when imported
    with _lock:
        if _scheduler is not None:
            return _scheduler
        scheduler = BackgroundScheduler(
            timezone="UTC", executors={"default": ThreadPoolExecutor(1)},  # a firing is one short write
            # A slot missed while the process was busy is fired once, not once per missed slot.
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600})
        for key, periodic in _periodic.items():
            seconds = periodic.interval().total_seconds()
            if seconds > 0:
                scheduler.add_job(tick, "interval", seconds=seconds, args=[key], id=f"every-{key}",
                                  next_run_time=utcnow())
        scheduler.start()
        _scheduler = scheduler
    for starter in _starters:
        starter()
    return scheduler


def shutdown(*, wait: bool = True) -> None:
    """Stop the clock (the app's lifespan end, and tests)."""
    global _scheduler
    with _lock:
        scheduler, _scheduler = _scheduler, None
    if scheduler is not None:
        scheduler.shutdown(wait=wait)


def running() -> bool:
    return _scheduler is not None


def cron(job_id: str, trigger: BaseTrigger, fn: Callable[..., Any], *args: Any) -> None:
    """(Re-)register this process's timed call `job_id`; nothing while the clock is stopped (a feature
    registers its calls from on_start)."""
    scheduler = _scheduler
    if scheduler is not None:
        scheduler.add_job(fn, trigger, args=list(args), id=job_id, replace_existing=True)


def remove(job_id: str) -> None:
    scheduler = _scheduler
    if scheduler is not None and scheduler.get_job(job_id):
        scheduler.remove_job(job_id)


# --- one slot a key, across processes -------------------------------------------------------------------------

def _slot_row(db: Session, key: str, due: datetime) -> None:
    """The key's row, made on first need (by whichever process gets there first), due at `due`."""
    if db.get(ClockSlot, key) is None:
        try:
            with db.begin_nested():
                db.add(ClockSlot(key=key, next_due=due))
        except IntegrityError:
            pass


def forget(db: Session, key: str) -> None:
    """Drop the key's row, in `db`'s transaction: its thing is gone (a deleted report's schedule), so no slot of it
    will be claimed again. A process that still fires it makes the row anew and claims nothing to run."""
    db.exec(delete(ClockSlot).where(col(ClockSlot.key) == key))


def claim(db: Session, key: str, slot: datetime, *, next_due: datetime) -> bool:
    """Take the slot `slot` of `key` for this process, in `db`'s transaction: true for exactly one of every
    process claiming it. The key's next slot is due at `next_due` (a slot at or after it can be claimed)."""
    _slot_row(db, key, slot)
    return bool(db.exec(update(ClockSlot).where(col(ClockSlot.key) == key, col(ClockSlot.next_due) <= slot)
                        .values(next_due=next_due)).rowcount)


def tick(key: str, now: datetime | None = None) -> bool:
    """A periodic slot: claim it and queue its task, if no process has yet. Answers whether this call queued."""
    now = now or utcnow()
    periodic = _periodic[key]
    with session_scope() as db:
        claimed = claim(db, key, now, next_due=now + periodic.interval() - TICK_SLACK)
        if claimed:
            jobs.defer(db, periodic.task, key=key)
        return claimed


@contextlib.contextmanager
def lease(key: str, now: datetime, length: timedelta) -> Iterator[bool]:
    """Hold `key`'s lease for the block, if no one holds it (yields whether this call got it). A lease not given
    back within `length` is taken for dead (its process killed): another may take it."""
    with session_scope() as db:
        _slot_row(db, key, now)
        free = col(ClockSlot.lease_until).is_(None) | (col(ClockSlot.lease_until) < now)
        held = bool(db.exec(update(ClockSlot).where(col(ClockSlot.key) == key, free)
                            .values(lease_until=now + length)).rowcount)
    try:
        yield held
    finally:
        if held:
            with session_scope() as db:
                db.exec(update(ClockSlot).where(col(ClockSlot.key) == key).values(lease_until=None))
