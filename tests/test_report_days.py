"""Reports and dashboards count days alike: a report by day lists every day of its period, a day without
delivery as a row of zeros, and "last 30 days" is the same 30 days (today included) with the same figures on a
report and on a dashboard."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest

from app.jobs import clock
from app.kernel.i18n.formatters import day_range
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.models import ReportRun
from app.reports.schemas import ReportSettings
from app.statistics import dashboards
from app.statistics import service as statistics
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, stored_csv_text, wait_for_run


@pytest.fixture(autouse=True)
def stop_scheduler():
    yield
    clock.shutdown()  # no scheduler thread outlives a test


def _delivery(advertiser: int, day: date, impressions: int, spend_micros: int) -> FactRow:
    return FactRow(hour=datetime(day.year, day.month, day.day, 10), advertiser_id=advertiser, campaign_id=0,
                   creative_id=0, exchange="Google AdX", os="Android", country="US", app="com.example.game",
                   device_type="phone", impressions=impressions, clicks=1, spend_micros=spend_micros)


def _csv(run: ReportRun) -> list[list[str]]:
    return list(csv.reader(io.StringIO(stored_csv_text(report_results.result_key(run.result_file)), newline="")))


def test_last_30_days_is_one_window_with_every_day_listed(db, demo_ids) -> None:
    today = datetime.now(UTC).date()
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("days", [_delivery(advertiser, today, 100, 1_000_000),  # today counts on both
                                _delivery(advertiser, today - timedelta(days=3), 50, 500_000)], source="test")
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, report_type="performance", data=ReportSettings.model_validate({
        "name": "Daily", "period": "last_30_days", "metrics": ["impressions", "clicks", "ctr", "spend"]}))
    run = reports.start_run(db, actor=actor, report_id=report.id)
    db.commit()  # the job starts once the run is committed
    done = wait_for_run(run.id)
    assert done.status == "completed"

    board = dashboards.overview(db, actor=actor)  # the dashboard's default: last 30 days
    first = today - timedelta(days=29)
    assert (done.period_start, done.period_end) == (first, today)
    assert (board.period.start, board.period.end) == (first.isoformat(), today.isoformat())
    assert done.totals["impressions"] == board.totals["impressions"] == 150
    assert done.totals["spend"] == pytest.approx(board.totals["spend"]) == pytest.approx(1.5)

    rows = _csv(done)
    assert rows[0] == ["Date", "Impressions", "Clicks", "CTR (%)", "Spend ($)"]
    assert [row[0] for row in rows[1:]] == [(first + timedelta(days=n)).isoformat() for n in range(30)]
    by_day = {row[0]: row[1:] for row in rows[1:]}
    assert by_day[today.isoformat()] == ["100", "1", "1.0000", "1"]
    assert by_day[(today - timedelta(days=1)).isoformat()] == ["0", "0", "", "0"]  # no delivery: zeros, no CTR
    assert sum(row[1] == "0" for row in rows[1:]) == 28
    assert [row["impressions"] for row in dashboards.by_day(db, actor=actor)][-4:] == [50, 0, 0, 100]


def test_every_report_preset_reads_its_days_in_the_reports_time_zone() -> None:
    today = date(2026, 11, 30)
    assert report_results.resolve_period("last_7_days", None, None, time_zone="UTC", today=today) == (date(2026, 11, 24), today)
    assert report_results.resolve_period("last_30_days", None, None, time_zone="UTC", today=today) == (date(2026, 11, 1), today)
    assert report_results.resolve_period("yesterday", None, None, time_zone="UTC", today=today) == (date(2026, 11, 29),) * 2
    assert report_results.resolve_period("last_month", None, None, time_zone="UTC", today=today) == (date(2026, 10, 1),
                                                                                             date(2026, 10, 31))
    assert statistics.parse_period(None, None) == statistics.last_days(30)


def test_a_period_reads_as_days_in_the_users_language() -> None:
    assert day_range(date(2026, 11, 1), "2026-11-30") == "Nov 1, 2026 – Nov 30, 2026"
    assert day_range("2026-01-05", "2026-02-01", language="sp") == "5 ene 2026 – 1 feb 2026"
