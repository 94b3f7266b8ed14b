"""Explain a figure in a browser (issue 27): a click on a dashboard card, a report total or a report row opens
what its figure is made of — the rows and the batches they came in — and the rows download as a CSV."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns.models import Campaign, CampaignStatus
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from app.kernel.i18n.formatters import day as formatted_day
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from tests.e2e.conftest import login, screenshot
from tests.e2e.test_dashboards import _ingest
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def _campaign(name: str) -> int:
    """A new campaign of the demo advertiser's."""
    made = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                    data=CampaignUpdate.model_validate({**SETTINGS, "name": name})))
    assert made.id is not None
    return made.id


def _fact(advertiser: int, campaign: int, hour: datetime, exchange: str, *, impressions: int, clicks: int,
          spend_micros: int, conversions: int = 0) -> dict[str, object]:
    """One hour of delivery as the batch API takes it (the placement other than the exchange is fixed)."""
    return {"hour": hour.isoformat(), "advertiser_id": advertiser, "campaign_id": campaign, "creative_id": 0,
            "exchange": exchange, "os": "iOS", "country": "DE", "app": "com.example.game", "device_type": "phone",
            "impressions": impressions, "clicks": clicks, "spend_micros": spend_micros, "conversions": conversions}


def _yesterday() -> datetime:
    """10:00 UTC yesterday: the tests read the same at any time of day."""
    return datetime.now(UTC).replace(hour=10, minute=0, second=0, microsecond=0) - timedelta(days=1)


def test_a_click_on_a_card_opens_its_rows_and_batches(page: Page, server_url: str, demo: dict[str, int]) -> None:
    advertiser, campaign, yesterday = demo["advertiser@demo.example"], _campaign("Explained"), _yesterday()

    def rows(exchange: str, days: int, spend: int) -> list[dict[str, object]]:
        return [_fact(advertiser, campaign, yesterday - timedelta(days=d), exchange, impressions=1000, clicks=12,
                      spend_micros=spend, conversions=1) for d in range(days)]

    _ingest(server_url, rows("Magnite", 3, 2_500_001), "e2e-explain-magnite")
    _ingest(server_url, rows("Google AdX", 2, 1_250_000), "e2e-explain-adx")

    login(page, "advertiser@demo.example")
    expect(page.locator("[data-dashboard][data-loading=false]")).to_be_visible()
    expect(page.locator("[data-kpi=spend]")).to_have_text("$10.00")  # 3 x 2.500001 + 2 x 1.25
    screenshot(page, "explain-kpi-cards")
    page.click("[data-explain-open=spend]")

    dialog = page.get_by_role("dialog", name="Spend: what the figure is made of")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("$10.00, summed from 5 rows")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("2 ingestion batches")
    expect(dialog.locator("[data-explain=rows]")).to_contain_text("Explained")
    expect(dialog.locator("[data-explain=rows]")).to_contain_text("Google AdX")
    batches = dialog.locator("[data-explain=batches]")
    expect(batches).to_contain_text("e2e-explain-magnite")
    expect(batches).to_contain_text("e2e-explain-adx")
    screenshot(page, "explain-figure")

    with page.expect_download() as caught:
        dialog.locator("[data-action=explain-export]").click()
    assert caught.value.suggested_filename == "Explanation.csv"
    lines = Path(caught.value.path()).read_text(encoding="utf-8-sig").strip().splitlines()
    assert len(lines) == 1 + 5 and "Explained" in lines[1]

    # The header's close button: the download's toasts may cover the footer's, at the bottom right.
    dialog.locator(".modal-header .btn-close").click()
    expect(dialog).to_have_count(0)


def test_a_figure_in_a_dashboard_table_opens_the_rows_of_its_row(page: Page, server_url: str,
                                                                   demo: dict[str, int]) -> None:
    """Any number on the dashboard, not only the cards: a day's spend in the day table opens that day's rows and
    batches; an exchange's spend in its breakdown opens that exchange's rows."""
    advertiser, campaign, yesterday = demo["advertiser@demo.example"], _campaign("Tabled"), _yesterday()
    _ingest(server_url, [_fact(advertiser, campaign, yesterday - timedelta(days=d), "Magnite", impressions=1000,
                               clicks=12, spend_micros=2_500_001) for d in range(3)], "e2e-table-magnite")
    _ingest(server_url, [_fact(advertiser, campaign, yesterday - timedelta(days=d), "Google AdX", impressions=500,
                               clicks=5, spend_micros=1_250_000) for d in range(2)], "e2e-table-adx")
    login(page, "advertiser@demo.example")
    expect(page.locator("[data-dashboard][data-loading=false]")).to_be_visible()

    page.click(f"[data-table=by-day] [data-explain-cell=spend][data-explain-row='{yesterday.date().isoformat()}']")
    dialog = page.get_by_role("dialog", name="Spend: what the figure is made of")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("$3.75, summed from 2 rows")
    expect(dialog).to_contain_text(f"This row: {formatted_day(yesterday.date())}")
    expect(dialog.locator("[data-explain=batches]")).to_contain_text("e2e-table-adx")
    screenshot(page, "explain-day-row")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    page.locator("[data-breakdown=exchange] tr", has_text="Magnite").locator("[data-explain-cell=impressions]").click()
    dialog = page.get_by_role("dialog", name="Impressions: what the figure is made of")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("3,000, summed from 3 rows")
    expect(dialog).to_contain_text("This row: Magnite")
    batches = dialog.locator("[data-explain=batches]")
    expect(batches).to_contain_text("e2e-table-magnite")
    expect(batches).not_to_contain_text("e2e-table-adx")


def test_a_campaigns_pacing_spend_on_insight360_opens_its_rows(page: Page, server_url: str,
                                                                 demo: dict[str, int]) -> None:
    """Insight360's pacing rows: a campaign's spend over its flight opens the rows it sums."""
    advertiser, campaign, yesterday = demo["advertiser@demo.example"], _campaign("Paced"), _yesterday()

    def running(db: Session) -> None:  # live since last week (the form's settings start it in December)
        made = db.get(Campaign, campaign)
        assert made is not None
        made.status, made.starts_at, made.ends_at = CampaignStatus.ACTIVE, yesterday - timedelta(days=7), None
        db.add(made)

    run(running)
    _ingest(server_url, [_fact(advertiser, campaign, yesterday - timedelta(hours=h), "Magnite", impressions=800,
                               clicks=4, spend_micros=2_500_000) for h in range(2)], "e2e-pacing")
    login(page, "advertiser@demo.example")
    page.get_by_role("button", name="Insight360").click()
    expect(page.locator("[data-dashboard=insight360][data-loading=false]")).to_be_visible()
    page.click(f"[data-explain-pacing='{campaign}']")
    dialog = page.get_by_role("dialog", name="Spend: what the figure is made of")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("$5.00, summed from 1 row ")  # two hours, one day
    expect(dialog).to_contain_text("This row: Paced")
    expect(dialog.locator("[data-explain=batches]")).to_contain_text("e2e-pacing")
    screenshot(page, "explain-pacing")


def test_a_report_total_opens_its_rows(page: Page, server_url: str, demo: dict[str, int]) -> None:
    advertiser, campaign, day = demo["advertiser@demo.example"], _campaign("Reported"), _yesterday()
    # Two hours of one day: one row a day.
    _ingest(server_url, [_fact(advertiser, campaign, day + timedelta(hours=h), "PubMatic", impressions=700, clicks=7,
                               spend_micros=1_500_000) for h in range(2)], "e2e-explain-report")
    report = run(lambda db: reports.create_report(
        db, actor=actor_of(db, "advertiser@demo.example"), report_type="performance",
        data=ReportSettings.model_validate({"name": "Explained totals", "period": "last_7_days",
                                            "metrics": ["impressions", "clicks", "ctr", "spend"]})))

    login(page, "advertiser@demo.example")
    page.goto(f"/report/view/{report.id}")
    page.click("[data-action=run-report]")
    # The run is a background job the page polls: a bound on a hang, not a timing check.
    expect(page.locator("[data-total=spend]")).to_have_text("$3.00", timeout=60_000)
    page.click("[data-explain-open=ctr]")
    dialog = page.get_by_role("dialog", name="CTR: what the figure is made of")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("1.00%, summed from 1 row (")
    expect(dialog.locator("[data-explain=rows]")).to_contain_text("PubMatic")
    expect(dialog.locator("[data-explain=batches]")).to_contain_text("e2e-explain-report")
    screenshot(page, "explain-report-total")

    # Escape closes it, though the focus is still on the card's button behind the dialog.
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


def test_a_report_row_opens_the_rows_and_batches_behind_it(page: Page, server_url: str, demo: dict[str, int]) -> None:
    """A row's "Explain this row" opens the rows and batches behind that row only; any of its figures can be
    chosen; Escape closes the dialog."""
    advertiser, campaign, day = demo["advertiser@demo.example"], _campaign("Row one"), _yesterday()

    def rows(exchange: str, spend: int) -> list[dict[str, object]]:
        return [_fact(advertiser, campaign, day + timedelta(hours=h), exchange, impressions=400, clicks=4,
                      spend_micros=spend) for h in range(2)]

    _ingest(server_url, rows("Magnite", 1_250_000), "e2e-row-magnite")
    _ingest(server_url, rows("PubMatic", 2_000_000), "e2e-row-pubmatic")
    report = run(lambda db: reports.create_report(
        db, actor=actor_of(db, "advertiser@demo.example"), report_type="performance",
        data=ReportSettings.model_validate({"name": "Explained rows", "period": "last_7_days",
                                            "dimensions": ["date", "exchange"],
                                            "metrics": ["spend", "impressions", "ctr"]})))

    login(page, "advertiser@demo.example")
    page.goto(f"/report/view/{report.id}")
    page.click("[data-action=run-report]")
    # The run is a background job the page polls: a bound on a hang, not a timing check.
    expect(page.locator("[data-total=spend]")).to_have_text("$6.50", timeout=60_000)
    screenshot(page, "explain-report-row-action")
    page.locator("[data-row]", has_text="Magnite").locator("[data-action=explain-row]").click()

    dialog = page.get_by_role("dialog", name="Spend: what the figure is made of")
    expect(dialog.locator("[data-explain=narrowed]")).to_contain_text(f"This row: {formatted_day(day.date())} · Magnite")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("$2.50, summed from 1 row (")
    expect(dialog.locator("[data-explain=rows]")).to_contain_text("Magnite")
    expect(dialog.locator("[data-explain=rows]")).not_to_contain_text("PubMatic")
    expect(dialog.locator("[data-explain=batches]")).to_contain_text("e2e-row-magnite")
    expect(dialog.locator("[data-explain=batches]")).not_to_contain_text("e2e-row-pubmatic")

    # Any figure of the row: the chooser holds the run's metrics.
    dialog.locator("select[data-explain=metric]").select_option("impressions")
    dialog = page.get_by_role("dialog", name="Impressions: what the figure is made of")
    expect(dialog.locator("[data-explain=summary]")).to_contain_text("800, summed from 1 row (")
    screenshot(page, "explain-report-row")

    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
