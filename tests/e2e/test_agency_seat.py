"""The agency seat acts itself, in a browser: it selects campaigns of two of its advertisers on its campaign list and
bulk-edits them, and moves money from one advertiser's balance to another's on its funds pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from app.access.models import User
from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of, user_by_email
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def _two_advertisers_with_campaigns() -> None:
    def make(db: Session) -> None:
        agency = actor_of(db, "agency@demo.example")
        trail = User(email="trail@demo.example", password_hash="-", role=Role.ADVERTISER, agency_id=agency.id,
                     company_name="Trail Co", first_name="Tess", last_name="Trail")
        db.add(trail)
        db.flush()
        acme = user_by_email(db, "advertiser@demo.example").id
        for name, advertiser_id in (("Acme Winter", acme), ("Trail Winter", trail.id), ("Trail Spring", trail.id)):
            campaigns.create_campaign(db, actor=agency, advertiser_id=advertiser_id,
                                      data=CampaignUpdate.model_validate({**SETTINGS, "name": name}))
    run(make)


def test_the_agency_bulk_edits_across_advertisers_and_moves_money_between_them(page: Page) -> None:
    _two_advertisers_with_campaigns()
    login(page, "agency@demo.example")
    page.goto("/agency/campaign")
    grid = page.locator(".dsp-grid")
    for name in ("Acme Winter", "Trail Winter"):
        grid.locator("tr", has_text=name).locator("input[data-select]").check()
    expect(page.locator("[data-selection]")).to_have_attribute("data-selection", "2")
    screenshot(page, "agency-campaign-selection")
    page.click("[data-bulk='campaign.bulk_edit']")
    page.wait_for_url("**/agency/bulk-campaign-edit?ids=*")
    page.click("[data-group=bids] input[type=checkbox]")
    page.fill("#field-bid", "1.90")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "2/2")

    page.goto("/agency/funds")
    expect(page.locator("[data-action=transfer-funds]")).to_have_text("Move money")
    screenshot(page, "agency-funds-overview")
    page.click("[data-action=transfer-funds]")
    page.wait_for_url("**/agency/funds/transfer")
    page.select_option("#field-from_advertiser_id", label="Acme Outdoor · $5,000.00")
    page.select_option("#field-to_advertiser_id", label="Trail Co · $0.00")
    page.fill("#field-amount", "6000")
    page.click("form[name=transfer-funds] button[type=submit]")
    expect(page.locator("#field-amount + .invalid-feedback, .invalid-feedback")).to_contain_text(
        "At most $5,000.00 can be moved: the balance of Acme Outdoor.")
    page.fill("#field-amount", "1250.50")
    page.click("form[name=transfer-funds] button[type=submit]")
    expect(page.locator("[data-kpi=from_balance]")).to_have_text("$3,749.50")
    expect(page.locator("[data-kpi=to_balance]")).to_have_text("$1,250.50")
    screenshot(page, "agency-transfer-funds")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "agency-transfer-funds-phone")
