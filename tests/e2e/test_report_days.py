""""Last 30 days" in a browser: a report run and the dashboard show the same dates and the same figures, and the
report lists the days without delivery as rows of zeros."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from app.kernel.i18n.formatters import day_range
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from tests.e2e.conftest import login, screenshot
from tests.e2e.test_dashboards import _ingest
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def test_a_report_and_the_dashboard_show_the_same_last_30_days(page: Page, server_url: str,
                                                               demo: dict[str, int]) -> None:
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    delivering = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                          data=CampaignUpdate.model_validate({**SETTINGS, "name": "Delivered"})))
    _ingest(server_url, [{"hour": now.isoformat(), "advertiser_id": demo["advertiser@demo.example"],
                          "campaign_id": delivering.id, "creative_id": 0, "exchange": "Magnite", "os": "iOS", "country": "DE",
                          "app": "com.example.game", "device_type": "phone", "impressions": 700, "clicks": 7,
                          "spend_micros": 1_500_000, "conversions": 0}], "e2e-report-days")  # today's delivery
    report = run(lambda db: reports.create_report(db, actor=actor_of(db, "advertiser@demo.example"),
                                                  report_type="performance",
                                                  data=ReportSettings.model_validate({"name": "Daily", "period": "last_30_days",
                                                        "metrics": ["impressions", "clicks", "spend"]})))
    days = day_range(now.date() - timedelta(days=29), now.date())  # today included

    login(page, "advertiser@demo.example")
    expect(page.locator("[data-dashboard][data-loading=false]")).to_be_visible()
    expect(page.locator("[data-period=shown]")).to_contain_text(days)
    expect(page.locator("[data-kpi=impressions]")).to_have_text("700")
    screenshot(page, "dashboard-last-30-days")

    page.goto(f"/report/view/{report.id}")
    expect(page.locator("[data-page=report-view]")).to_contain_text(f"Last 30 days · {days}")
    page.click("[data-action=run-report]")
    # The run is a background job the page polls: a bound on a hang, not a timing check.
    expect(page.locator("[data-total=impressions]")).to_have_text("700", timeout=60_000)  # today counted too
    expect(page.get_by_text(f"Result {days}")).to_be_visible()
    expect(page.locator(".dsp-grid-count")).to_contain_text("30")  # every day a row, 29 of them zeros
    # Each row's day as the dashboard's day table writes it ("Oct 26, 2026"), not as ISO text ("2026-10-26").
    first_day = now.date() - timedelta(days=29)
    expect(page.locator(".dsp-grid tbody tr:not(.dsp-grid-spacer) td").first).to_have_text(f"{first_day:%b} {first_day.day}, {first_day.year}")
    screenshot(page, "report-last-30-days")
    with page.expect_download() as caught:  # the run's CSV, named by the console after the report and its days
        page.click("[data-action=download-csv]")
    first = (now.date() - timedelta(days=29)).isoformat()
    assert caught.value.suggested_filename == f"Daily-{first}-{now.date().isoformat()}.csv"
    page.goto("/report")  # the list names each report's days too
    expect(page.locator(".dsp-grid tr", has_text="Daily")).to_contain_text(days)
    screenshot(page, "report-list-days")
