"""Audiences in a real browser: an advertiser creates a device-id audience, uploads a file of ids with a bad line
(over HTTP), sees its size and the invalid line by number, deactivates it, finds the change in its change log,
and picks it in a campaign's targeting; the other roles' audience pages render."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of

pytestmark = pytest.mark.e2e

IDS = (b"device_id\n6D92078A-8246-4BA4-AE5B-76104861E7DC\n{3f2504e0-4f89-11d3-9a0c-0305e82c3301}\n"
       b"not-a-device\n6d92078a-8246-4ba4-ae5b-76104861e7dc\n")


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-toast-kind=success]", has_text=text)).to_be_visible()


def test_an_advertiser_builds_a_device_id_audience(page: Page) -> None:
    campaign_id = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"), data=CampaignUpdate.model_validate({
        "name": "Spring Push", "starts_at": "2026-12-01", "total_budget": "900", "bid": "0.40"})).id)
    login(page, "advertiser@demo.example")
    page.click(".dsp-sidebar a[href='/audience']")
    expect(page.locator("[data-page=audiences] h1")).to_have_text("Audiences")
    page.click("[data-action=new-audience]")
    expect(page.locator("[data-page=audience-create]")).to_be_visible()
    page.click("[data-kind=retargeting]")
    expect(page.locator("#field-lookback_days")).to_have_value("30")
    screenshot(page, "audience-create-retargeting")
    page.click("[data-kind=device_ids]")
    page.fill("#field-name", "App Buyers")
    page.click("[data-page=audience-create] button[type=submit]")
    _toast(page, "Audience App Buyers created.")
    expect(page.locator("[data-page=audience-view] h1")).to_contain_text("App Buyers")
    expect(page.locator("[data-empty=devices]")).to_be_visible()

    page.set_input_files("[data-file-input=devices]", files=[{"name": "buyers.csv", "mimeType": "text/csv",
                                                               "buffer": IDS}])
    _toast(page, "2 ids added, 1 invalid lines.")
    expect(page.locator("[data-size]")).to_have_attribute("data-size", "2")
    expect(page.locator("[data-figure=invalid]")).to_contain_text("1")
    expect(page.locator("[data-figure=duplicates]")).to_contain_text("1")
    expect(page.locator("[data-line='4']")).to_contain_text("not-a-device")
    screenshot(page, "audience-view-advertiser")

    # Used by a campaign: it can be deactivated, not deleted.
    page.select_option(f"[data-campaign='{campaign_id}']", "allow")
    page.click("[data-action=save-campaigns]")
    _toast(page, "Campaigns saved.")
    expect(page.locator("[data-campaigns] [data-mode=allow]")).to_have_text("Target")
    expect(page.locator("[data-action=delete-audience]")).to_be_disabled()

    page.click("[data-action=toggle-status]")
    _toast(page, "App Buyers is inactive.")
    expect(page.locator("[data-page=audience-view]")).to_have_attribute("data-status", "inactive")
    page.click("[data-tab='audience.change_log']")
    log = page.locator("[data-page=audience-change-log]")
    expect(log.locator("tr[data-action=set_status_inactive]")).to_contain_text("Deactivated")
    expect(log.locator("tr[data-action=upload]")).to_contain_text("buyers.csv")
    screenshot(page, "audience-change-log")
    page.fill("#field-since", "2000-01-01")
    page.fill("#field-until", "2000-01-02")
    expect(log.locator("[data-state=empty]")).to_be_visible()

    page.click("[data-tab='audience.view']")
    page.click("[data-action=toggle-status]")
    _toast(page, "App Buyers is active.")
    page.click(".dsp-sidebar a[href='/audience']")
    expect(page.locator("[data-page=audiences]")).to_contain_text("App Buyers")
    expect(page.locator("[data-page=audiences]")).to_contain_text("2 devices")
    screenshot(page, "audience-list-advertiser")

    page.goto(page.url.replace("/audience", f"/campaign/{campaign_id}/"))
    expect(page.locator("[data-card=campaign-audiences]")).to_contain_text("App Buyers")
    page.goto(page.url.replace(f"/campaign/{campaign_id}/", f"/campaignEditForm/{campaign_id}"))
    picker = page.locator("[data-picker=audiences]")
    expect(picker.locator("select")).to_have_value("allow")
    picker.scroll_into_view_if_needed()
    screenshot(page, "audience-campaign-picker")


@pytest.mark.parametrize("email, path", [("agency@demo.example", "/agency/audience"),
                                         ("admin@demo.example", "/admin/audience"),
                                         ("coadmin@demo.example", "/co-admin/audience")])
def test_agency_and_staff_choose_the_advertiser(page: Page, email: str, path: str) -> None:
    login(page, email)
    page.click(f".dsp-sidebar a[href='{path}']")
    expect(page.locator("[data-page=audiences] h1")).to_have_text("Audiences")
    page.click("[data-action=new-audience]")
    expect(page.locator("#field-advertiser_id")).to_be_visible()
    page.fill("#field-name", "Lapsed users")
    page.click("[data-kind=retargeting]")
    # The radio checks itself in the browser at once; the server's render of the click adds the retargeting
    # fields. (Submitting before it arrived sent no look-back field, which the form now reads from its state.)
    expect(page.locator("#field-lookback_days")).to_have_value("30")
    expect(page.locator("#field-name")).to_have_value("Lapsed users")
    page.click("[data-page=audience-create] button[type=submit]")
    view = page.locator("[data-page=audience-view]")
    expect(view.locator("h1")).to_contain_text("Lapsed users", timeout=15_000)
    expect(view).to_contain_text("events in window")
    screenshot(page, f"audience-view-{path.split('/')[1]}")
