"""Scheduled report runs: when each schedule is due (06:00 in the report's time zone: every day, Mondays, the
1st), that taking the schedule off stops it, that a slot runs once however often it fires within its minute,
that a run is generated once, and that a run which cannot be generated fails with a reason the recipients
are mailed instead of a file."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlmodel import select

from app import jobs
from app.access.models import UserStatus
from app.jobs import clock
from app.jobs.models import ClockSlot
from app.kernel.config import Settings, get_settings
from app.kernel.db import session_scope
from app.reports import jobs as report_jobs
from app.reports import service as reports
from app.reports.models import ReportRun
from app.reports.schemas import ReportSettings
from tests.helpers import actor_of, user_by_email
from tests.test_mail import smtp_server  # noqa: F401  (the fake SMTP server fixture)

NOON_TUESDAY = datetime(2030, 1, 1, 12, tzinfo=UTC)  # 1 January 2030 is a Tuesday


@pytest.fixture(autouse=True)
def stop_scheduler():
    yield
    clock.shutdown()  # no scheduler thread outlives a test


def _scheduled(db, schedule: str, time_zone: str = "UTC") -> dict[str, Any]:
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, report_type="performance", data=ReportSettings.model_validate({
        "name": f"{schedule.title()} digest", "period": "last_7_days", "schedule": schedule, "time_zone": time_zone,
        "recipients": ["boss@example.com"], "metrics": ["impressions", "clicks"]}))
    db.commit()
    return report


def _next_run(report_id: int, after: datetime) -> datetime | None:
    job = clock.start().get_job(f"schedule-{report_id}")
    return job.trigger.get_next_fire_time(None, after) if job else None


@pytest.mark.parametrize(("schedule", "due"), [
    ("daily", datetime(2030, 1, 2, 11, tzinfo=UTC)),  # 06:00 in New York is 11:00 UTC in winter
    ("weekly", datetime(2030, 1, 7, 11, tzinfo=UTC)),  # the next Monday
    ("monthly", datetime(2030, 2, 1, 11, tzinfo=UTC)),  # the next 1st
])
def test_each_schedule_is_due_at_six_in_the_reports_time_zone(db, demo_ids, schedule: str, due: datetime) -> None:
    report = _scheduled(db, schedule, time_zone="America/New_York")
    assert _next_run(report.id, NOON_TUESDAY) == due


def test_taking_the_schedule_off_stops_the_report(db, demo_ids) -> None:
    report = _scheduled(db, "daily")
    assert _next_run(report.id, NOON_TUESDAY) is not None
    reports.update_report(db, actor=actor_of(db, "advertiser@demo.example"), report_id=report.id,
                          data=ReportSettings.model_validate({"schedule": "none", "recipients": []}))
    db.commit()
    assert _next_run(report.id, NOON_TUESDAY) is None
    # A firing already queued for it finds no schedule and makes no run.
    assert report_jobs.run_scheduled(report.id, slot=NOON_TUESDAY) is None
    with session_scope() as check:
        assert check.exec(select(ReportRun).where(ReportRun.report_id == report.id)).all() == []


def test_a_slot_fired_twice_within_its_minute_runs_once(db, demo_ids, smtp_server, monkeypatch) -> None:  # noqa: F811
    report = _scheduled(db, "daily")
    clock = [datetime(2030, 1, 1, 6, 0, 1, tzinfo=UTC)]
    monkeypatch.setattr(report_jobs, "utcnow", lambda: clock[0])
    assert report_jobs.run_scheduled(report.id) is not None
    clock[0] = datetime(2030, 1, 1, 6, 0, 42, 5, tzinfo=UTC)  # another process fires later in the same minute
    assert report_jobs.run_scheduled(report.id) is None
    jobs.drain()
    assert len(smtp_server.messages) == 1


def test_a_finished_run_is_never_generated_again(db, demo_ids) -> None:
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, report_type="geo", data=ReportSettings.model_validate({
        "name": "Geo check", "period": "last_7_days", "metrics": ["impressions"]}))
    run = ReportRun(report_id=report.id, requested_by=actor.id, period_start=datetime(2030, 1, 1).date(),
                    period_end=datetime(2030, 1, 1).date(), columns=["country", "impressions"])
    db.add(run)
    db.commit()
    assert report_jobs.execute_run(run.id) == "completed"
    assert report_jobs.execute_run(run.id) == ""  # handed the same run again: nothing to do
    with session_scope() as check:
        assert check.get(ReportRun, run.id).attempts == 1


def test_a_report_whose_owner_was_disabled_fails_and_the_recipients_are_told_why(db, demo_ids,
                                                                                   smtp_server) -> None:  # noqa: F811
    report = _scheduled(db, "daily")
    owner = user_by_email(db, "advertiser@demo.example")
    owner.status = UserStatus.DISABLED
    db.add(owner)
    db.commit()
    run_id = report_jobs.run_scheduled(report.id, slot=NOON_TUESDAY)
    jobs.drain()
    with session_scope() as check:
        run = check.get(ReportRun, run_id)
        assert (run.status, run.error, run.result_file) == (
            "failed", "The account this report runs for is no longer active.", "")
    message = email.message_from_string(smtp_server.messages[0][2])
    assert not [part for part in message.walk() if part.get_filename()]  # no file attached
    body = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    assert "could not be generated: The account this report runs for is no longer active." in \
        body.get_payload(decode=True).decode()


def test_the_operator_chooses_the_time_of_day_reports_go_out(db, demo_ids, monkeypatch) -> None:
    monkeypatch.setattr(get_settings(), "report_schedule_at", "07:30")
    report = _scheduled(db, "weekly", time_zone="Europe/Berlin")
    assert _next_run(report.id, NOON_TUESDAY) == datetime(2030, 1, 7, 6, 30, tzinfo=UTC)  # Monday 07:30 in Berlin


def test_a_time_of_day_that_is_not_hh_mm_refuses_to_start() -> None:
    for wrong in ("7:30", "24:00", "06:60", "noon"):
        with pytest.raises(ValueError, match="report_schedule_at"):
            Settings(report_schedule_at=wrong)


def test_a_deleted_reports_schedule_leaves_no_slot_behind(db, demo_ids) -> None:
    """The clock keeps a row per scheduled report to claim its slots across processes; deleting the report drops
    it (it would otherwise stay for good, one per report ever scheduled)."""
    report = _scheduled(db, "daily")
    assert report_jobs.run_scheduled(report.id, slot=NOON_TUESDAY) is not None
    key = report_jobs.schedule_slot_key(report.id)
    with session_scope() as check:
        assert check.get(ClockSlot, key) is not None
    reports.delete_report(db, actor=actor_of(db, "advertiser@demo.example"), report_id=report.id)
    db.commit()
    with session_scope() as check:
        assert check.get(ClockSlot, key) is None
