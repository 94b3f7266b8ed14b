"""The alert checks as a scheduled job of the app's queue (app/jobs), never on a page load.

The process clock (app/jobs/clock.py) queues "alerts.check" once each DSP_ALERT_CHECK_MINUTES across every
process (0: never). A check runs only while it holds the key's lease, so two never overlap even when one
outlasts its interval (the next slot's job finds the lease held and leaves the work to the running one).

A check: the active advertisers a chunk at a time, each chunk's facts read in a few set-based reads
(app/alerts/checks.read_facts); each advertiser whose alerts change is written in a transaction of its own (an
advertiser, or a chunk, whose check fails is logged and retried at the next slot, the others go on); then the
failed report runs and failed DSP pushes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import select

from app import jobs
from app.access.models import User, UserStatus
from app.access.roles import Role
from app.alerts import checks, service
from app.alerts.kinds import AlertKind
from app.jobs import clock
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.model_base import utcnow

_log = logging.getLogger("dsp.alerts")
TASK = "alerts.check"
KEY = "alerts-check"
ADVERTISER_KINDS = (AlertKind.LOW_BALANCE, AlertKind.NO_SPEND, AlertKind.UNDER_DELIVERY)
LEASE = timedelta(minutes=30)  # a check outlasting this is taken for dead (its process killed): another may run
CHUNK = 2000  # advertisers read together: bounds a pass's memory and its IN lists, not its number of reads


def interval() -> timedelta:
    return timedelta(minutes=get_settings().alert_check_minutes)


clock.every(KEY, TASK, interval)


def tick(now: datetime | None = None) -> bool:
    """Claim this slot and queue its check, if no process has yet. Answers whether this call queued it."""
    return clock.tick(KEY, now)


# --- the check ----------------------------------------------------------------------------------------------

@jobs.task(TASK)
def check_job() -> None:
    run_checks()


def run_checks(now: datetime | None = None) -> int | None:
    """Run every check once, unless another is running (None). Answers how many alerts were raised."""
    now = now or utcnow()
    with clock.lease(KEY, now, LEASE) as held:
        if not held:
            _log.info("alert check skipped: another is running")
            return None
        return _check_everything(now)


def _check_everything(now: datetime) -> int:
    with session_scope() as db:
        advertisers = [i for i in db.exec(select(User.id).where(User.role == Role.ADVERTISER,
                                                                User.status == UserStatus.ACTIVE)) if i]
    raised = 0
    for first in range(0, len(advertisers), CHUNK):
        chunk = advertisers[first:first + CHUNK]
        try:
            raised += check_advertisers(chunk, now=now)
        except Exception:  # one chunk's failure must not stop the others' alerts
            _log.exception("alert check of advertisers %s to %s failed", chunk[0], chunk[-1])
    with session_scope() as db:
        service.clear_unchecked(db, kinds=ADVERTISER_KINDS, checked_owner_ids=advertisers, now=now)
        raised += len(service.reconcile(db, checks.failed_report_runs(db), kinds=(AlertKind.REPORT_FAILED,),
                                        now=now)[0])
        raised += len(service.reconcile(db, checks.failed_dsp_pushes(db), kinds=(AlertKind.PUSH_FAILED,), now=now)[0])
    return raised


def check_advertisers(advertiser_ids: Sequence[int], *, now: datetime) -> int:
    """These advertisers' checks: their facts in a few reads, then a transaction for each advertiser whose open
    alerts are not what its causes say (an unchanged one writes nothing). Answers how many alerts were raised."""
    with session_scope() as db:
        facts = checks.read_facts(db, advertiser_ids, now)
        thresholds = service.low_balance_days(db, advertiser_ids)
        open_keys = service.open_keys(db, kinds=ADVERTISER_KINDS, owner_ids=advertiser_ids)
    raised = 0
    for advertiser_id in advertiser_ids:
        try:
            causes = checks.advertiser_causes(advertiser_id, facts, now=now, threshold_days=thresholds[advertiser_id])
            if {cause.key for cause in causes} == open_keys.get(advertiser_id, set()):
                continue
            with session_scope() as db:
                raised += len(service.reconcile(db, causes, kinds=ADVERTISER_KINDS, owner_ids=[advertiser_id],
                                                now=now)[0])
        except Exception:  # one advertiser's failure must not stop the others' alerts
            _log.exception("alert check of advertiser %s failed", advertiser_id)
    return raised
