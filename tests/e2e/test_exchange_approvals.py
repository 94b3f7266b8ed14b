"""Exchange approvals in a browser: an admin rejects one request with a reason and approves another in bulk,
then the advertiser sees each exchange's state and the reason on the campaign."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignRead, CampaignUpdate
from app.kernel.db import run
from app.reference.models import ReferenceValue
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def _campaign_asking_for(*names: str) -> CampaignRead:
    def make(db):  # type: ignore[no-untyped-def]
        ids = [r.id for r in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange",
                                                                  ReferenceValue.name.in_(names)))]  # type: ignore[attr-defined]
        return campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                         data=CampaignUpdate.model_validate({**SETTINGS, "name": "Harbour Lights", "targeting": {"exchanges": ids}}))
    return run(make)


def test_an_admin_decides_in_bulk_and_the_advertiser_sees_why(page: Page, browser, server_url: str) -> None:
    made = _campaign_asking_for("Magnite", "Xandr")
    login(page, "admin@demo.example")
    page.click(".dsp-sidebar a[href='/admin/exchange-approval']")
    grid = page.locator("[data-page=exchange-approvals] .dsp-grid")
    expect(grid.locator("tbody tr", has_text="Harbour Lights")).to_have_count(2)
    screenshot(page, "exchange-approvals")

    grid.locator("tr", has_text="Xandr").locator("input[data-select]").check()
    expect(page.locator("[data-selection]")).to_have_attribute("data-selection", "1")
    page.click("[data-bulk='exchange.bulk_approval']")
    page.wait_for_url("**/admin/bulk-exchange-approval?ids=*")
    page.select_option("#field-decision", "rejected")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-field-error=reason]")).to_have_text("Give a reason for the rejection.")
    page.fill("#field-reason", "Not brand safe for this advertiser")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "1/1")

    page.goto("/admin/exchange-approval")
    grid.locator("tr", has_text="Magnite").locator("input[data-select]").check()
    page.click("[data-bulk='exchange.bulk_approval']")
    page.wait_for_url("**/admin/bulk-exchange-approval?ids=*")
    page.click("[data-action=apply-bulk]")  # approve is the default decision
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "1/1")
    screenshot(page, "exchange-bulk-approval")

    advertiser = browser.new_page(base_url=server_url, viewport={"width": 1440, "height": 900})
    login(advertiser, "advertiser@demo.example")
    advertiser.goto(f"/campaign/{made.id}/")
    card = advertiser.locator("[data-exchanges=campaign]")
    expect(card.locator("[data-exchange=Magnite] [data-status=approved]")).to_be_visible()
    expect(card.locator("[data-exchange=Xandr] [data-status=rejected]")).to_be_visible()
    expect(card.locator("[data-reason=Xandr]")).to_have_text("Not brand safe for this advertiser")
    screenshot(advertiser, "campaign-exchanges")
    advertiser.close()

    page.goto(f"/admin/exchange-approval/change-log/{made.id}")
    expect(page.locator("[data-page=exchange-approval-change-log] tr[data-action=reject]")).to_contain_text("Xandr")


def test_the_request_grid_pages_on_the_server(page: Page) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import insert

    from app.campaigns.models import Campaign, ExchangeApproval

    def make(db):  # type: ignore[no-untyped-def]
        advertiser_id = actor_of(db, "advertiser@demo.example").id
        exchange = db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange")).first()
        now = datetime.now(UTC)
        db.execute(insert(Campaign), [{
            "advertiser_id": advertiser_id, "name": f"Queue {n:02d}", "objective": "traffic", "status": "draft",
            "starts_at": now, "ends_at": None, "time_zone": "UTC", "total_budget_micros": 1_000_000_000,
            "daily_budget_micros": None, "pacing": "even", "bid_strategy": "cpm", "bid_micros": 2_000_000,
            "traffic_type": "app", "goal_metric": "none", "goal_target": "", "targeting": {}, "created_at": now,
            "updated_at": now} for n in range(1, 61)])
        ids = dict(db.exec(select(Campaign.name, Campaign.id).where(Campaign.name.startswith("Queue "))).all())  # type: ignore[attr-defined]
        db.execute(insert(ExchangeApproval), [
            {"campaign_id": ids[f"Queue {n:02d}"], "exchange_id": exchange.id, "status": "pending", "reason": "",
             "requested_at": now + timedelta(minutes=n)} for n in range(1, 61)])
    run(make)
    login(page, "admin@demo.example")
    page.goto("/admin/exchange-approval")
    grid = page.locator("[data-page=exchange-approvals] .dsp-grid")
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 1 of")  # the demo's own requests may add a page
    expect(grid.locator("tbody tr[data-row]").first).to_contain_text("Queue 60")  # newest first
    grid.locator("[data-action=next-page]").click()
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 2 of")
    expect(grid.locator("tbody tr[data-row]", has_text="Queue")).to_have_count(10)
    expect(grid.locator("tbody tr[data-row]", has_text="Queue").first).to_contain_text("Queue 10")
    screenshot(page, "exchange-approvals-page-2")
    # Searched in SQL, from the first page, each word anywhere: Queue 03, 13, 23, 30 to 39, 43 and 53.
    page.fill(".dsp-grid-search input", "3 queue")
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 15")
