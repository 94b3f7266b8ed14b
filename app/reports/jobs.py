"""Report generation and scheduled reports, as jobs of the app's queue (app/jobs).

A run is a ReportRun row plus a job ("reports.run", key "report-run:<id>") written in the same transaction, so
a committed run always has its job and a rolled-back one never runs. Any process's worker may run it.

Schedules: cron calls of the process clock (app/jobs/clock.py), in each report's own time zone, rebuilt from the
Report rows when the clock starts and whenever a report is saved. A firing claims its slot (the clock's one rule:
of every process firing it, one gets it), and in the same transaction inserts the slot's run and its job
("reports.scheduled": generate, then queue "reports.mail"). The clock's own thread does nothing slow.

What a dead process left behind (recover_interrupted, at start-up): a run left running whose job no live worker
holds is failed with results.INTERRUPTED, which its owner reads on the reports page; when the queue hands such a
job to another worker (it does, once the dead worker's lease or heartbeat has expired), the run is failed the
same way instead of being started again. A live process's run is never touched.

A run: rebuild the actors (the report's owner, and whoever asked for the run) from their user rows so their
scope is checked now, not when the run was queued; query the statistics store (10 %), fetch the rows and the
period's totals (70 %), write the CSV into <data dir>/reports (100 %).
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from apscheduler.triggers.cron import CronTrigger
from sqlmodel import Session, col, select, update

from app import jobs
from app.access.models import User, UserStatus
from app.access.policy import Actor, can_see_user
from app.jobs import clock
from app.kernel import csv_exports
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.errors import Invalid, ServiceError
from app.kernel.model_base import utcnow
from app.kernel.storage import get_storage
from app.messaging import mail
from app.reports import results
from app.reports.models import Report, ReportRun, ReportSchedule, RunStatus
from app.statistics import service as statistics
from app.warehouse import get_store
from app.warehouse.base import StatsQuery

_log = logging.getLogger("dsp.reports")


def schedule_trigger(schedule: str) -> dict[str, Any] | None:
    """When a schedule fires, in its report's time zone: DSP_REPORT_SCHEDULE_AT (06:00 by default, after the
    day has closed) every day, on Mondays, or on the 1st; None for no schedule."""
    hour, minute = (int(part) for part in get_settings().report_schedule_at.split(":"))
    at: dict[str, Any] = {"hour": hour, "minute": minute}
    return {ReportSchedule.DAILY: at, ReportSchedule.WEEKLY: {"day_of_week": "mon", **at},
            ReportSchedule.MONTHLY: {"day": 1, **at}}.get(ReportSchedule(schedule))


# Reports by day alone list every day of their period. Hours are left as the store gives them (a night without
# delivery is expected, and local hours have DST gaps), and days beside another dimension too (a zero row for
# every campaign, exchange, ... on every day would bury the rows that delivered).
DAY_ROWS = ("date",)
UNEXPECTED = "The report could not be generated. Please try again."
RUN_KEY = "report-run:"

SLOT = timedelta(minutes=1)  # a schedule's slot: the minute it fires in, however often processes fire it


def submit(db: Session, run_id: int) -> None:
    """Queue a run's generation in `db`'s transaction (the run row is written in it too)."""
    jobs.defer(db, "reports.run", key=f"{RUN_KEY}{run_id}", run_id=run_id)


@jobs.task("reports.run")
def run_job(run_id: int) -> None:
    execute_run(run_id)


@jobs.task("reports.scheduled")
def scheduled_job(run_id: int) -> None:
    """A scheduled slot's run: generate it, then queue its mail (a job of its own: a mail that fails is retried
    without generating the report again)."""
    execute_run(run_id)
    with session_scope() as db:
        jobs.defer(db, "reports.mail", key=f"{RUN_KEY}{run_id}", run_id=run_id)


@jobs.task("reports.mail")
def mail_job(run_id: int) -> None:
    mail_run(run_id)


# --- one run ----------------------------------------------------------------------------------------------

def _actor(db: Session, user_id: int) -> Actor:
    user = db.get(User, user_id)
    if user is None or user.status != UserStatus.ACTIVE:
        raise ServiceError("The account this report runs for is no longer active.")
    return Actor(user=user, stack=(user_id,))


def intersect_scopes(first: tuple[int, ...] | None, second: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if first is None:
        return second
    if second is None:
        return first
    return tuple(sorted(set(first) & set(second)))


def build_run_query(db: Session, report: Report, run: ReportRun) -> StatsQuery:
    """The run's query in the owner's scope, narrowed to the requester's when someone else asked for it."""
    owner = _actor(db, report.owner_id)
    options: dict[str, Any] = {
        "start": run.period_start, "end": run.period_end, "dimensions": list(report.dimensions),
        "metrics": list(report.metrics), "events": list(report.events), "filters": dict(report.filters),
        "advertiser_id": report.advertiser_id, "time_zone": report.time_zone}
    query = statistics.build_query(db, actor=owner, **options)
    if run.requested_by != report.owner_id:
        requester = _actor(db, run.requested_by)
        if not can_see_user(requester, owner.user):
            raise ServiceError(results.REPORT_NOT_FOUND)
        theirs = statistics.build_query(db, actor=requester, **options)
        query = dataclasses.replace(query, advertiser_ids=intersect_scopes(query.advertiser_ids, theirs.advertiser_ids))
    return query


def _update(run_id: int, **values: Any) -> None:
    """Write a run's progress in its own short transaction, so a page polling it sees each step."""
    with session_scope() as db:
        run = db.get(ReportRun, run_id)
        if run is not None:
            for key, value in values.items():
                setattr(run, key, value)
            db.add(run)


def _claim(run_id: int) -> bool:
    """pending -> running, once: one conditional UPDATE, so of two workers (or processes) handed the same run
    exactly one gets it."""
    with session_scope() as db:
        claimed = db.exec(update(ReportRun).where(col(ReportRun.id) == run_id, col(ReportRun.status) == RunStatus.PENDING)
                          .values(status=RunStatus.RUNNING, progress=0, error="", started_at=utcnow(),
                                  attempts=ReportRun.attempts + 1))
        return bool(claimed.rowcount)


def _fail_interrupted(run_id: int) -> bool:
    """running -> failed (interrupted by a restart), once: a run whose process died mid-generation."""
    with session_scope() as db:
        failed = db.exec(update(ReportRun).where(col(ReportRun.id) == run_id, col(ReportRun.status) == RunStatus.RUNNING)
                         .values(status=RunStatus.FAILED, error=results.INTERRUPTED, finished_at=utcnow()))
        return bool(failed.rowcount)


def execute_run(run_id: int) -> str:
    """Generate one run (the "reports.run" job; tests may call it directly). Answers its status, or "" when
    there was nothing to do. The queue hands a job to one live worker at a time, so a run already running when
    its job starts was left so by a dead worker: it is failed (interrupted), not generated twice."""
    if not _claim(run_id):
        return RunStatus.FAILED if _fail_interrupted(run_id) else ""
    try:
        with session_scope() as db:
            run = db.get(ReportRun, run_id)
            report = db.get(Report, run.report_id) if run else None
            if run is None or report is None:
                return ""
            query = build_run_query(db, report, run)
        _update(run_id, progress=10)
        with session_scope() as db:
            rows = statistics.run(db, query)
        if query.dimensions == DAY_ROWS:  # a day without delivery is a row of zeros, not a missing day
            rows = statistics.every_day(rows, query.start, query.end, statistics.zero_row(query.metrics, query.events))
        total = get_store().query(dataclasses.replace(query, dimensions=(), order_by=None, descending=False,
                                                      limit=None))
        totals = {key: value for key, value in (total[0] if total else {}).items()
                  if key in query.metrics or key.startswith("event_")}
        _update(run_id, progress=70)
        columns = list(run.columns) or results.result_columns(report)
        name = f"{secrets.token_urlsafe(18)}.csv"
        with get_storage().writing(results.result_key(name)) as out:  # a reader never sees half a file
            count = csv_exports.write_csv(out, [results.column_label(c) for c in columns],
                                          ([results.format_cell(c, row.get(c)) for c in columns] for row in rows))
        _update(run_id, status=RunStatus.COMPLETED, progress=100, row_count=count, result_file=name,
                totals=totals, columns=columns, finished_at=utcnow())
        return RunStatus.COMPLETED
    except Exception as error:  # noqa: BLE001 - a run always ends with a status the user can read
        if isinstance(error, Invalid):
            message = "; ".join(f"{k}: {v}" for k, v in error.fields.items())
        elif isinstance(error, ServiceError):
            message = error.message
        else:
            _log.exception("report run %s failed", run_id)
            message = UNEXPECTED
        _update(run_id, status=RunStatus.FAILED, error=message, finished_at=utcnow())
        return RunStatus.FAILED


@clock.on_start
def _on_clock_start() -> None:
    """This process's clock started: fail the runs a dead process left running, register the schedules."""
    recover_interrupted()
    register_all_schedules()


def recover_interrupted() -> list[tuple[int, str]]:
    """At start-up: a run left running whose job no live worker holds is failed ("interrupted by a restart");
    a pending run without a job to run gets one. A run a live worker is generating is left alone. Answers
    (run id, "failed" | "queued")."""
    outcome: list[tuple[int, str]] = []
    with session_scope() as db:
        stuck = db.exec(select(ReportRun.id, ReportRun.status)
                        .where(col(ReportRun.status).in_([RunStatus.PENDING, RunStatus.RUNNING]))).all()
    if not stuck:
        return outcome
    # Read after the runs: a job claimed since then belongs to a run read as pending, or was a dead one's.
    live = jobs.keys(RUN_KEY, live_only=True)
    queued = jobs.keys(RUN_KEY)
    for run_id, status in stuck:
        assert run_id is not None
        key = f"{RUN_KEY}{run_id}"
        if status == RunStatus.RUNNING and key not in live and _fail_interrupted(run_id):
            outcome.append((run_id, "failed"))
        elif status == RunStatus.PENDING and key not in queued:
            with session_scope() as db:
                submit(db, run_id)
            outcome.append((run_id, "queued"))
    if outcome:
        _log.warning("report runs a stopped process left behind, at start-up: %s", outcome)
    return outcome


# --- schedules --------------------------------------------------------------------------------------------

def schedule_slot_key(report_id: int) -> str:
    """The clock's key for a report's scheduled slots (app/jobs/clock.py claim)."""
    return f"report-schedule:{report_id}"


def _job_id(report_id: int) -> str:
    return f"schedule-{report_id}"


def sync_schedule(report_id: int) -> None:
    """(Re-)register one report's cron call from its row, or remove it (no schedule, or deleted)."""
    if not clock.running():
        return  # the clock registers every schedule when it starts
    with session_scope() as db:
        report = db.get(Report, report_id)
        spec = schedule_trigger(report.schedule) if report is not None else None
        zone = report.time_zone if report is not None else "UTC"
    if spec is None:
        clock.remove(_job_id(report_id))
        return
    clock.cron(_job_id(report_id), CronTrigger(timezone=zone, **spec), run_scheduled, report_id)


def register_all_schedules() -> int:
    with session_scope() as db:
        ids = [i for i in db.exec(select(col(Report.id)).where(Report.schedule != ReportSchedule.NONE)) if i]
    for report_id in ids:
        sync_schedule(report_id)
    _log.info("schedules registered: %d", len(ids))
    return len(ids)


def run_scheduled(report_id: int, slot: datetime | None = None) -> int | None:
    """A cron firing: claim the slot (once across processes) and queue its job in the same transaction.
    Answers the run id, or None when another process had claimed the slot."""
    slot = slot or utcnow().replace(second=0, microsecond=0)
    with session_scope() as db:
        report = db.get(Report, report_id)
        if report is None or report.schedule == ReportSchedule.NONE:
            return None
        if not clock.claim(db, schedule_slot_key(report_id), slot, next_due=slot + SLOT):
            return None
        start, end = results.resolve_period(report.period, report.start_date, report.end_date,
                                            time_zone=report.time_zone)
        run = ReportRun(report_id=report_id, requested_by=report.owner_id, scheduled_for=slot,
                        period_start=start, period_end=end, columns=results.result_columns(report))
        db.add(run)
        db.flush()
        run_id = run.id
        assert run_id is not None
        jobs.defer(db, "reports.scheduled", key=f"{RUN_KEY}{run_id}", run_id=run_id)
    return run_id


def mail_run(run_id: int) -> int:
    """Mail a scheduled run to its report's recipients: the CSV attached, or why it failed. Answers how many."""
    with session_scope() as db:
        run = db.get(ReportRun, run_id)
        report = db.get(Report, run.report_id) if run else None
        if run is None or report is None:
            return 0
        period = f"{run.period_start} to {run.period_end}"
        attachments = []
        if run.status == RunStatus.COMPLETED and run.result_file:
            data = get_storage().read(results.result_key(run.result_file))
            attachments.append((results.csv_filename(report, run), data, "text/csv"))
            body = (f"Your {report.schedule} report \"{report.name}\" for {period} is attached "
                    f"({run.row_count} rows).")
        else:
            body = f"Your {report.schedule} report \"{report.name}\" for {period} could not be generated: {run.error}"
        for recipient in report.recipients:
            mail.send_mail(db, to=recipient, subject=f"Report: {report.name} ({period})", body=body,
                           attachments=attachments)
        return len(report.recipients)
