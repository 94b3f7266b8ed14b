"""Issue 21 in a real browser: a retired exchange shows marked on the campaign and its form and the buyer removes
it by unticking; the clone page says which archived lists the clone leaves out; activating without money says to
add funds and links to the role's funds page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from app.reference import metadata
from app.supply import app_lists
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of, other_tenant
from tests.test_campaign_rules import ADMIN, ADVERTISER, settings, value_id

pytestmark = pytest.mark.e2e
VIEW = re.compile(r"/campaign/(\d+)/$")


def _campaign_with_a_retired_exchange(db: Session) -> dict[str, Any]:
    me = actor_of(db, ADVERTISER)
    adx, openx = value_id(db, "exchange", "Google AdX"), value_id(db, "exchange", "OpenX")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Retired Exchange Test", targeting={
        "exchanges": [adx, openx]})))
    metadata.set_retired(db, actor=actor_of(db, ADMIN), value_id=adx, retired=True)
    return {"id": made.id, "adx": adx, "openx": openx}


def test_a_retired_exchange_shows_marked_and_unticking_it_in_the_form_removes_it(page: Page) -> None:
    made = run(_campaign_with_a_retired_exchange)
    login(page, ADVERTISER)
    page.goto(f"/campaign/{made['id']}/")
    expect(page.locator("[data-stale-note]")).to_be_visible()
    expect(page.locator("[data-page=campaign-view] [data-stale=retired]")).to_have_text("retired")

    page.goto(f"/campaignEditForm/{made['id']}")
    box = page.locator(f"#exchanges-{made['adx']}")
    expect(box).to_be_checked()
    expect(page.locator(f"label[for=exchanges-{made['adx']}] [data-stale=retired]")).to_be_visible()
    box.scroll_into_view_if_needed()
    screenshot(page, "campaign-form-retired-exchange")
    box.click()  # the server re-renders the box: a click, then wait for the state
    expect(box).not_to_be_checked()
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    expect(page.locator("[data-toast-kind=success]", has_text="Retired Exchange Test was saved.")).to_be_visible()
    expect(page.locator("[data-stale-note]")).to_have_count(0)
    saved = run(lambda db: campaigns.get_campaign(db, actor=actor_of(db, ADVERTISER), campaign_id=made["id"]))
    assert saved.targeting.exchanges == [made["openx"]]


def _campaign_with_an_archived_list(db: Session) -> int:
    me = actor_of(db, ADVERTISER)
    gone = app_lists.create_list(db, actor=me, name="Old apps", kind="allow", entries="").list
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Autumn Promo", targeting={
        "inventory_lists": {"allow": [gone.id], "block": []}})))
    app_lists.set_status(db, actor=me, applist_id=gone.id, status="archived")
    return int(made.id)


def test_the_clone_page_says_what_the_clone_leaves_out(page: Page) -> None:
    campaign_id = run(_campaign_with_an_archived_list)
    login(page, ADVERTISER)
    page.goto(f"/campaignClone/{campaign_id}")
    expect(page.locator("[data-note=left-out]")).to_contain_text("Old apps")
    expect(page.locator("#field-name")).to_have_value("Autumn Promo copy")
    screenshot(page, "campaign-clone-notes")
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    expect(page.locator("[data-page=campaign-view] h1")).to_contain_text("Autumn Promo copy")


def _rival_draft(db: Session) -> int:
    agency, advertiser = other_tenant(db)
    return int(campaigns.create_campaign(db, actor=actor_of(db, agency.email), data=CampaignUpdate.model_validate(settings(name="No Money Yet")),
                                         advertiser_id=advertiser.id).id)


def test_activating_without_money_says_add_funds_and_links_there(page: Page) -> None:
    campaign_id = run(_rival_draft)
    login(page, "rival-agency@other.example", lands_on="/agency/dashboard")
    page.goto(f"/agency/campaign/viewCampaign/{campaign_id}")
    expect(page.locator("[data-move=active]")).to_be_visible()
    page.click("[data-move=active]")
    refusal = page.locator("[data-refusal=status]")
    expect(refusal).to_contain_text("Add funds before activating this campaign")
    expect(refusal.locator("[data-action=add-funds]")).to_have_attribute("href", "/agency/funds")
    expect(page.locator("[data-status=draft]")).to_be_visible()
    screenshot(page, "campaign-activation-needs-funds")


def test_the_list_switch_says_why_a_campaign_cannot_be_activated(page: Page) -> None:
    run(_rival_draft)
    login(page, "rival-agency@other.example", lands_on="/agency/dashboard")
    page.goto("/agency/campaign")
    switch = page.locator(".dsp-grid tr", has_text="No Money Yet").locator("[data-action=toggle_active]")
    expect(switch).not_to_be_checked()
    switch.click()
    expect(page.locator("[data-toast-kind=error]", has_text="Add funds before activating this campaign")).to_be_visible()
    expect(switch).not_to_be_checked()
    expect(page.locator(".dsp-grid tr", has_text="No Money Yet").locator(".badge", has_text="Draft")).to_be_visible()
