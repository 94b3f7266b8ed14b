"""The dashboard page rendered headless: what a date preset sends to the browser."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from app.campaigns.models import Campaign, CampaignStatus
from app.warehouse import get_store
from app.warehouse.base import FactRow
from components.statistics.dashboard_page import DashboardPage
from tests.render import deliver_and_settle, handler_target, signed_in_console, walk

TODAY = datetime.now(UTC).date()


def _widget(model: dict, **data: str) -> dict:
    """The figure table whose <table> carries these data attributes (tableData)."""
    found = [node for node in walk(model) if node.get("attributes", {}).get("tableData") == data]
    assert len(found) == 1, data
    return found[0]["attributes"]


def test_a_date_preset_sends_each_table_as_rows_of_data_not_as_cells(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    campaign = Campaign(advertiser_id=advertiser, name="Spring Sale", status=CampaignStatus.ACTIVE,
                        starts_at=datetime.now(UTC) - timedelta(days=60), total_budget_micros=500_000_000, bid_micros=2_000_000)
    db.add(campaign)
    db.commit()
    get_store().ingest("dashboard-page", [
        FactRow(hour=datetime.combine(TODAY - timedelta(days=days), datetime.min.time()).replace(hour=9),
                advertiser_id=advertiser, campaign_id=campaign.id, creative_id=0, exchange="Magnite", os="iOS",
                country="US", app="com.example", device_type="phone", impressions=1000 * (days + 1),
                clicks=10, spend_micros=1_000_000 * (days + 1))
        for days in (1, 45)], source="test")

    def last_90_days(model: dict) -> tuple[str, list]:
        button = next(node for node in walk(model) if node.get("attributes", {}).get("data-preset") == 90)
        return button["eventHandlers"]["onClick"]["target"], [{}]

    model, sent = deliver_and_settle(DashboardPage, signed_in_console("advertiser@demo.example"), "/dashboard",
                                     last_90_days)

    by_day = _widget(model, table="by-day")
    assert len(by_day["rows"]) == 90  # every day of the new period, the one 45 days ago among them
    assert {"date": (TODAY - timedelta(days=45)).isoformat(), "impressions": 46_000, "clicks": 10, "ctr": 0.0217,
            "spend": 46.0, "ecpm": 1.0, "conversions": 0, "cpa": None} in by_day["rows"]
    by_campaign = _widget(model, breakdown="campaign")
    assert by_campaign["rows"][0]["label"] == "Spring Sale"
    assert by_campaign["rows"][0]["href"] == f"/campaign/{campaign.id}/"  # the row leads to its campaign
    assert by_campaign["rows"][0]["spend"] == 48.0
    # No table crossed the websocket as elements: a 90-day table of cells was ~60 KB and ~45 ms a click.
    assert not [node for update in sent for node in walk(update["model"]) if node.get("tagName") in ("tr", "td")]
    # The rows as data (~59 KB for 90 days and five breakdowns), with each table's explain props and its
    # breakdown rows' values to explain by (~1 KB, issue 27).
    assert sum(len(json.dumps(update)) for update in sent) < 62_000
    assert handler_target(model, "onClick")  # the page is still live
