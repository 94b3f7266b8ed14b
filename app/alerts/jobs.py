"""The alert checks as a scheduled job of the app's queue (app/jobs), never on a page load.

Every process runs a clock (APScheduler, as the report schedules do) that ticks each DSP_ALERT_CHECK_MINUTES.
A tick claims the slot by moving alert_clock.next_due on in one conditional UPDATE, and queues "alerts.check" in
the same transaction: of all processes ticking, one gets the slot, and its job exists iff the claim committed
(so a crash after the claim loses nothing: the job is durable, a live worker runs it). A check runs only while
it holds the clock's lease, so two never overlap even when one outlasts its interval (the next tick's job finds
the lease held and leaves the work to the running one).

A check: each active advertiser in a transaction of its own (an advertiser whose check fails is logged and
retried at the next tick, the others go on), then the failed report runs and failed DSP pushes.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select, update

from app import jobs
from app.access.models import User, UserStatus
from app.access.roles import Role
from app.alerts import checks, service
from app.alerts.kinds import AlertKind
from app.alerts.models import AlertClock
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.model_base import utcnow

_log = logging.getLogger("dsp.alerts")
TASK = "alerts.check"
KEY = "alerts-check"
ADVERTISER_KINDS = (AlertKind.LOW_BALANCE, AlertKind.NO_SPEND, AlertKind.UNDER_DELIVERY)
TICK_SLACK = timedelta(seconds=5)
LEASE = timedelta(minutes=30)  # a check outlasting this is taken for dead (its process killed): another may run

_lock = threading.Lock()
_scheduler: BackgroundScheduler | None = None


def interval() -> timedelta:
    return timedelta(minutes=get_settings().alert_check_minutes)


# --- the clock ----------------------------------------------------------------------------------------------

def start() -> None:
    """Start this process's alert clock (idempotent; the app's lifespan). DSP_ALERT_CHECK_MINUTES=0: none."""
    global _scheduler
    with _lock:
        if _scheduler is not None or not get_settings().alert_check_minutes:
            return
        _scheduler = BackgroundScheduler(timezone="UTC", job_defaults={"coalesce": True, "max_instances": 1})
        _scheduler.add_job(tick, "interval", seconds=interval().total_seconds(), id="alerts-tick",
                           next_run_time=utcnow())
        _scheduler.start()


def shutdown(*, wait: bool = True) -> None:
    global _scheduler
    with _lock:
        scheduler, _scheduler = _scheduler, None
    if scheduler is not None:
        scheduler.shutdown(wait=wait)


def _clock_row(db: Session, now: datetime) -> None:
    """The clock's one row, made on first need (by whichever process gets there first), due at once."""
    if db.get(AlertClock, 1) is None:
        try:
            with db.begin_nested():
                db.add(AlertClock(id=1, next_due=now))
        except IntegrityError:
            pass


def tick(now: datetime | None = None) -> bool:
    """Claim this slot and queue its check, if no process has yet. Answers whether this call queued it."""
    now = now or utcnow()
    with session_scope() as db:
        _clock_row(db, now)
        # The next slot is due a little before the next tick: a clock firing a few ms early still finds it due.
        claimed = db.exec(update(AlertClock).where(col(AlertClock.id) == 1, col(AlertClock.next_due) <= now)
                          .values(next_due=now + interval() - TICK_SLACK)).rowcount
        if claimed:
            jobs.defer(db, TASK, key=KEY)
        return bool(claimed)


# --- the check ----------------------------------------------------------------------------------------------

def _take_lease(now: datetime) -> bool:
    with session_scope() as db:
        _clock_row(db, now)
        free = (col(AlertClock.lease_until).is_(None)) | (col(AlertClock.lease_until) < now)
        return bool(db.exec(update(AlertClock).where(col(AlertClock.id) == 1, free)
                            .values(lease_until=now + LEASE)).rowcount)


def _release_lease() -> None:
    with session_scope() as db:
        db.exec(update(AlertClock).where(col(AlertClock.id) == 1).values(lease_until=None))


@jobs.task(TASK)
def check_job() -> None:
    run_checks()


def run_checks(now: datetime | None = None) -> int | None:
    """Run every check once, unless another is running (None). Answers how many alerts were raised."""
    now = now or utcnow()
    if not _take_lease(now):
        _log.info("alert check skipped: another is running")
        return None
    try:
        return _check_everything(now)
    finally:
        _release_lease()


def _check_everything(now: datetime) -> int:
    with session_scope() as db:
        advertisers = [i for i in db.exec(select(User.id).where(User.role == Role.ADVERTISER,
                                                                User.status == UserStatus.ACTIVE)) if i]
        thresholds = service.low_balance_days(db, advertisers)
    raised = 0
    for advertiser_id in advertisers:
        try:
            raised += check_advertiser(advertiser_id, now=now, threshold_days=thresholds[advertiser_id])
        except Exception:  # one advertiser's failure must not stop the others' alerts
            _log.exception("alert check of advertiser %s failed", advertiser_id)
    with session_scope() as db:
        service.clear_unchecked(db, kinds=ADVERTISER_KINDS, checked_owner_ids=advertisers, now=now)
        raised += len(service.reconcile(db, checks.failed_report_runs(db), kinds=(AlertKind.REPORT_FAILED,),
                                        now=now)[0])
        raised += len(service.reconcile(db, checks.failed_dsp_pushes(db), kinds=(AlertKind.PUSH_FAILED,), now=now)[0])
    return raised


def check_advertiser(advertiser_id: int, *, now: datetime, threshold_days: int) -> int:
    """One advertiser's checks and their alerts, in one transaction. Answers how many were raised."""
    with session_scope() as db:
        causes = checks.advertiser_causes(db, advertiser_id, now=now, threshold_days=threshold_days)
        return len(service.reconcile(db, causes, kinds=ADVERTISER_KINDS, owner_ids=[advertiser_id], now=now)[0])
