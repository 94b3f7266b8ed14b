"""Creatives in a real browser: an advertiser creates one of each type in the list's dialog (files uploaded
over HTTP, their size read from the file, the spec's messages on a bad click URL), previews each, assigns
one to a campaign from the creative's side, and pauses and archives from the list; an agency sees a campaign's
creatives on its own page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.media_files import image_bytes, mp4_bytes
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-toast-kind=success]", has_text=text)).to_be_visible()


def _open_dialog(page: Page, kind: str) -> None:
    page.click("[data-action=new-creative]")
    expect(page.locator("[data-dialog=new-creative] [data-form=creative]")).to_be_visible()
    page.select_option("[data-dialog=new-creative] #field-type", kind)
    expect(page.locator("[data-dialog=new-creative] [data-form=creative]")).to_have_attribute("data-type", kind)


def _upload(page: Page, field: str, name: str, mime: str, content: bytes) -> None:
    page.set_input_files(f"[data-asset={field}] input[type=file]",
                         files=[{"name": name, "mimeType": mime, "buffer": content}])
    expect(page.locator(f"[data-asset={field}] [data-file=set]")).to_be_visible()


def _save(page: Page, name: str) -> None:
    page.click("[data-dialog=new-creative] [data-action=save-creative]")
    _toast(page, f"{name} was created.")
    expect(page.locator("[data-dialog=new-creative]")).to_have_count(0)


def test_an_advertiser_creates_a_creative_of_each_type(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.click(".dsp-sidebar a[href='/creatives']")
    expect(page.locator("[data-page=creatives] h1")).to_have_text("Creatives")

    _open_dialog(page, "image")
    page.fill("#field-name", "Banner 300x250")
    page.fill("#field-click_url", "not a url")
    _upload(page, "asset_id", "banner.png", "image/png", image_bytes(300, 250))
    expect(page.locator("[data-asset=asset_id]")).to_contain_text("300 × 250")
    expect(page.locator("[data-preview=image] img")).to_be_visible()
    page.click("[data-dialog=new-creative] [data-action=save-creative]")
    expect(page.locator("[data-field-error=click_url]")).to_have_text("Please enter a valid URL.")
    expect(page.locator("#field-name")).to_have_value("Banner 300x250")
    screenshot(page, "creative-new-image")
    page.fill("#field-click_url", "https://shop.example/spring/")
    page.fill("#field-pixel_urls", "https://pixel.example/a/, https://pixel.example/b/")
    _save(page, "Banner 300x250")

    _open_dialog(page, "video")
    page.fill("#field-name", "Spring Spot")
    page.fill("#field-click_url", "https://shop.example/video/")
    _upload(page, "asset_id", "spot.mp4", "video/mp4", mp4_bytes(duration_ms=15_000))
    expect(page.locator("[data-asset=asset_id]")).to_contain_text("15 s")
    _save(page, "Spring Spot")

    _open_dialog(page, "native")
    page.fill("#field-name", "Feed Card")
    page.click("[data-dialog=new-creative] [data-action=save-creative]")
    expect(page.locator("[data-field-error=click_url]")).to_have_text("Click URL is mandatory")
    page.fill("#field-title", "Spring sale")
    page.fill("#field-description", "Everything outdoors, 30% off this week.")
    page.fill("#field-call_to_action", "Shop now")
    page.fill("#field-click_url", "https://shop.example/native/")
    _upload(page, "main_image_asset_id", "main.jpg", "image/jpeg", image_bytes(1200, 627, "JPEG"))
    expect(page.locator("[data-preview=native]")).to_contain_text("Shop now")
    screenshot(page, "creative-new-native")
    _save(page, "Feed Card")

    _open_dialog(page, "html")
    page.click("[data-dialog=new-creative] [data-action=save-creative]")
    expect(page.locator("[data-field-error=name]")).to_have_text("Creative name cannot be empty.")
    page.fill("#field-name", "Rich Media")
    page.fill("#field-html", "<div id='ad' style='background:#fd0'>Spring!</div>"
                             "<script>document.getElementById('ad').textContent='Ran in the sandbox'</script>")
    page.fill("#field-width", "300")
    page.fill("#field-height", "250")
    frame = page.frame_locator("[data-dialog=new-creative] [data-preview=html] iframe")
    expect(frame.locator("#ad")).to_have_text("Ran in the sandbox")
    _save(page, "Rich Media")

    grid = page.locator("[data-page=creatives] .dsp-grid")
    expect(grid.locator("tbody tr")).to_have_count(4)
    expect(grid.locator("tr", has_text="Banner 300x250")).to_contain_text("300 × 250")
    expect(grid.locator("tr", has_text="Spring Spot")).to_contain_text("0:15")
    screenshot(page, "creative-list")
    # The markup never reaches the console's own page, only the sandboxed frame.
    assert "Ran in the sandbox" not in page.locator("body").inner_text()


def test_a_creative_is_previewed_assigned_paused_and_archived(page: Page) -> None:
    def prepare(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
        asset = creatives.upload_asset(db, actor=advertiser, filename="b.png", content=image_bytes(320, 50))
        creative = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "image", "name": "Mobile Leaderboard", "click_url": "https://shop.example/", "asset_id": asset.id}))
        return campaign.id, creative.id

    campaign_id, creative_id = run(prepare)
    login(page, "advertiser@demo.example")
    page.goto("/creatives")
    page.locator(".dsp-grid tr", has_text="Mobile Leaderboard").click()
    page.wait_for_url(f"**/creative/ViewCreative/{creative_id}")
    expect(page.locator("[data-preview=image] img")).to_be_visible()
    page.click(f"#creative_campaigns-{campaign_id}")
    expect(page.locator(f"#creative_campaigns-{campaign_id}")).to_be_checked()
    page.click("[data-action=save-campaigns]")
    _toast(page, "The campaign's creatives were saved.")
    expect(page.locator("[data-assigned]")).to_contain_text("Autumn Push")
    screenshot(page, "creative-view")
    page.click("[data-move=paused]")
    expect(page.locator("[data-status=paused]")).to_be_visible()
    page.click("[data-tab='creative.change_log']")
    expect(page.locator("[data-action=assign_campaigns]")).to_be_visible()
    page.goto(f"/campaign/{campaign_id}/")
    expect(page.locator("#campaign_creatives-" + str(creative_id))).to_be_checked()
    page.goto("/creatives")
    grid = page.locator(".dsp-grid")
    grid.locator("tr", has_text="Mobile Leaderboard").locator("[data-action=more]").click()
    page.click(".dsp-grid-menu [data-action=archive]")
    page.click("[data-confirm=yes]")
    _toast(page, "Mobile Leaderboard is archived.")
    expect(grid.locator("tbody tr", has_text="Mobile Leaderboard")).to_have_count(0)


def test_an_agency_lists_a_campaigns_creatives(page: Page) -> None:
    def prepare(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
        creative = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "html", "name": "Html Box", "html": "<p>hi</p>", "width": 300, "height": 250}))
        creatives.set_campaign_creatives(db, actor=advertiser, campaign_id=campaign.id, creative_ids=[creative.id])
        return campaign.id

    campaign_id = run(prepare)
    login(page, "agency@demo.example")
    page.goto(f"/agency/campaign/viewCampaign/{campaign_id}")
    page.click("[data-tab='campaign.creatives']")
    page.wait_for_url(f"**/agency/CampaignList/creativeList/{campaign_id}")
    expect(page.locator(".dsp-grid tr", has_text="Html Box")).to_be_visible()
    screenshot(page, "agency-campaign-creatives")


def test_bulk_creative_edit_and_the_admins_bulk_status(page: Page) -> None:
    def prepare(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        asset = creatives.upload_asset(db, actor=advertiser, filename="b.png", content=image_bytes(300, 250))
        creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "image", "name": "Square One", "click_url": "https://shop.example/", "asset_id": asset.id}))
        creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "html", "name": "Html Two", "html": "<p>hi</p>", "width": 300, "height": 250}))

    run(prepare)
    login(page, "advertiser@demo.example")
    page.goto("/creatives")
    page.locator(".dsp-grid thead input[data-select=all]").check()
    page.click("[data-bulk='creative.bulk_edit']")
    page.wait_for_url("**/creative/bulk-creative-edit?ids=*")
    page.fill("#field-click_url", "https://shop.example/new/")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "1/2")  # html creatives have no click URL
    expect(page.locator("[data-result=refused]")).to_contain_text("Html Two")
    page.context.clear_cookies()
    login(page, "admin@demo.example")
    page.goto("/admin/creative")
    page.locator(".dsp-grid thead input[data-select=all]").check()
    page.click("[data-bulk='creative.bulk_status']")
    page.wait_for_url("**/admin/bulk-creative-status?ids=*")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "2/2")
    expect(page.locator(".dsp-grid .badge", has_text="Paused")).to_have_count(2)
    screenshot(page, "admin-bulk-creative-status")


def test_a_banner_of_no_slot_size_is_refused_in_the_form_naming_the_sizes(page: Page) -> None:
    """Issue 38 item 9: the form refuses a 1000x10 banner beside its file, with the sizes allowed."""
    login(page, "advertiser@demo.example")
    page.click(".dsp-sidebar a[href='/creatives']")
    _open_dialog(page, "image")
    page.fill("#field-name", "Thin Strip")
    page.fill("#field-click_url", "https://shop.example/spring/")
    _upload(page, "asset_id", "strip.png", "image/png", image_bytes(1000, 10))
    page.click("[data-dialog=new-creative] [data-action=save-creative]")
    error = page.locator("[data-field-error=asset_id]")
    expect(error).to_contain_text("1000x10 is not a banner size.")
    expect(error).to_contain_text("300x250")
    screenshot(page, "creative-size-refused")
