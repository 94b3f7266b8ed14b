"""The campaign form's forecast in a real browser: with a history of the advertiser's delivery (sent through the
ingestion API to the server's own store), the summary shows impressions, spend and reach a day as ranges, and
changing the daily budget changes the forecast shown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.demo.seed import DEMO_PASSWORD
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def _history(server_url: str, advertiser_id: int, campaign_id: int) -> None:
    """The 14 days before today: US phone delivery at a $2 eCPM, 8,000 to 34,000 impressions a day (mean 21,000,
    $42) over 40 devices a day (of 200 that come back)."""
    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    rows = [{"hour": (today - timedelta(days=14 - day)).isoformat().replace("+00:00", "Z"), "advertiser_id": advertiser_id,
             "campaign_id": campaign_id, "creative_id": 0, "exchange": "Magnite", "os": "Android", "country": "US",
             "app": "com.example.game", "device_type": "phone", "impressions": 50 * (day + 4), "clicks": 1,
             "spend_micros": 100 * (day + 4) * 1000, "conversions": 0, "device": f"{(day * 13 + n) % 200:016x}"}
            for day in range(14) for n in range(40)]
    token = httpx.post(f"{server_url}/api/auth/login/", json={"email": "admin@demo.example", "password": DEMO_PASSWORD},
                       timeout=30).json()["data"]["token"]
    reply = httpx.post(f"{server_url}/api/statistics/batches", json={"batch_id": "forecast-e2e", "rows": rows},
                       headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert reply.status_code == 200, reply.text


def test_the_forecast_follows_the_daily_budget(page: Page, server_url: str, demo: dict[str, int]) -> None:
    advertiser = demo["advertiser@demo.example"]
    campaign = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                        data=CampaignUpdate.model_validate(SETTINGS)))
    _history(server_url, advertiser, campaign.id)
    login(page, "advertiser@demo.example")
    page.goto("/campaignForm")
    panel = page.locator("[data-forecast-panel]")
    expect(panel.locator("[data-forecast=needs-values]")).to_be_visible()  # no bid yet
    page.fill("#field-starts_at", "2027-01-01")
    page.fill("#field-ends_at", "2027-01-14")  # through the 14th: 14 days
    page.fill("#field-total_budget", "5000")
    page.fill("#field-bid", "3.00")
    spend = panel.locator("[data-forecast-row=spend]")
    expect(spend).to_contain_text("about $42.00")  # the mean of 14 days of $16..$68
    expect(panel.locator("[data-forecast-row=impressions]")).to_contain_text("about 21K")
    expect(panel.locator("[data-forecast-row=reach]")).to_contain_text("devices")
    page.fill("#field-daily_budget", "10")
    expect(spend).to_contain_text("about $10.00")  # capped by the daily budget
    expect(panel).to_contain_text("Capped by the budget.")
    low, high = (int(n) for n in panel.locator("[data-forecast-row=reach] dd").inner_text().split()[0].split("–"))
    assert low <= high
    panel.scroll_into_view_if_needed()
    screenshot(page, "campaign-forecast")
    page.fill("#field-bid", "1.00")  # below every price the history cleared at
    expect(panel).to_contain_text("below every price")
