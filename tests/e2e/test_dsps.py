"""DSP connections in a real browser: an admin adds a DSP through New DSP against a local fake DSP (a wrong key
fails the connection test, Back fixes it, the test passes), sees it in the list and on its page with the key shown
only as set, syncs a campaign to it from the campaign's page (queued, then delivered by the server's job queue) and
reads the associate id the DSP gave; a failing DSP's error shows on the campaign page while the next attempt is
queued, and that attempt delivers once the DSP answers again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate
from app.kernel.db import run
from tests.e2e.conftest import at_path, login, screenshot
from tests.fake_dsp import running_fake_dsp
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e
SECRET = "sk_live_dsp_e2e_Hn3vL8sK1"


def _next(page: Page, step: str) -> None:
    page.click("[data-action=next]")
    expect(page.locator(f"[data-step={step}]")).to_have_attribute("data-state", "current")


def test_an_admin_adds_a_dsp_step_by_step_and_syncs_a_campaign(page: Page) -> None:
    campaign = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                        data=CampaignUpdate.model_validate(dict(SETTINGS))))
    with running_fake_dsp(SECRET) as fake:
        login(page, "admin@demo.example")
        page.click(".dsp-sidebar a[href='/admin/newdsp']")
        expect(page.locator("[data-page=dsp-new] h1")).to_have_text("Add a DSP")
        page.click("[data-action=next]")
        expect(page.locator("[data-field-error=name]")).to_have_text("This field is required.")
        page.fill("#field-name", "Acme Bidder")
        page.fill("#field-endpoint_url", fake.url)
        screenshot(page, "dsp-new-1-details")
        _next(page, "credentials")

        page.fill("#field-seat_id", "seat 7")
        page.fill("#field-api_key", "a-wrong-key")
        page.click("[data-action=next]")
        expect(page.locator("[data-field-error=seat_id]")).to_have_text("Use only letters, digits, _ and -.")
        screenshot(page, "dsp-new-2-credentials")
        page.fill("#field-seat_id", "seat-7")
        page.fill("#field-api_key", "a-wrong-key")
        _next(page, "test")
        expect(page.locator("[data-action=next]")).to_be_disabled()  # test first
        page.click("[data-action=test-connection]")
        expect(page.locator("[data-test-outcome=failed]")).to_contain_text("The DSP refused the API key (HTTP 401).")
        screenshot(page, "dsp-new-3-test-failed")
        page.click("[data-action=back]")
        expect(page.locator("[data-credentials=set]")).to_be_visible()
        page.click("[data-action=replace-key]")
        page.fill("#field-api_key", SECRET)
        _next(page, "test")
        page.click("[data-action=test-connection]")
        expect(page.locator("[data-test-outcome=ok]")).to_contain_text("Connected")
        screenshot(page, "dsp-new-3-test-ok")
        _next(page, "exchanges")
        page.locator("input[name='exchange_ids[]']").first.check()
        screenshot(page, "dsp-new-4-exchanges")
        page.click("[data-action=next]")  # Create DSP

        page.wait_for_url(lambda url: "/admin/viewdsp/" in url)
        view = page.locator("[data-page=dsp-view]")
        expect(view.locator("h1")).to_contain_text("Acme Bidder")
        expect(view.locator("[data-credentials=set]")).to_be_visible()
        expect(view.locator("[data-test-result=ok]")).to_be_visible()  # the test ran again on the saved DSP
        expect(view.locator("[data-exchanges='1']")).to_be_visible()
        expect(view).to_contain_text("seat-7")
        assert SECRET not in page.content()
        screenshot(page, "dsp-view")
        page.click("[data-tab='dsp.edit']")
        expect(page.locator("[data-page=dsp-edit] [data-action=replace-key]")).to_be_visible()
        screenshot(page, "dsp-edit")

        page.click(".dsp-sidebar a[href='/admin/dsplist']")
        expect(page.locator("[data-page=dsps]")).to_contain_text("Acme Bidder")
        expect(page.locator("[data-page=dsps]")).to_contain_text("Connected")
        screenshot(page, "dsp-list")
        page.click("[data-action=create-dsp]")
        page.wait_for_url(at_path("/admin/createdsp"))
        expect(page.locator("[data-page=dsp-create] #field-api_key")).to_be_visible()
        screenshot(page, "dsp-create")

        page.goto(f"/admin/campaign/viewCampaign/{campaign.id}")
        card = page.locator("[data-dsp='Acme Bidder']")
        expect(card.locator("[data-associate-id]")).to_have_text("Not synced")
        card.locator("[data-action=sync-dsp]").click()
        expect(page.locator("[data-toast-kind=info]", has_text="Queued for Acme Bidder")).to_be_visible()
        # The push runs as a job of the server's queue; the card reloads while it is queued.
        expect(card.locator("[data-push-state=delivered]")).to_be_visible(timeout=15_000)
        expect(card.locator("[data-associate-id]")).to_have_text("cam-0001")
        assert fake.objects["cam-0001"]["name"] == SETTINGS["name"]
        assert fake.objects["cam-0001"]["seat_id"] == "seat-7"

        fake.mode = "error_500"
        card.locator("[data-action=sync-dsp]").click()
        # The first attempt failed: the card says why and that another attempt follows (pushes.BACKOFF_S later).
        expect(card.locator("[data-sync-error]")).to_contain_text("The DSP answered HTTP 503.", timeout=15_000)
        expect(card.locator("[data-push-state=queued]")).to_be_visible()
        expect(card.locator("[data-associate-id]")).to_have_text("cam-0001")  # the last good id stays
        screenshot(page, "dsp-campaign-sync-error")
        fake.mode = "ok"
        expect(card.locator("[data-push-state=delivered]")).to_be_visible(timeout=20_000)
        expect(card.locator("[data-sync-error]")).to_have_count(0)
        expect(page.locator("[data-page=campaign-view] h1")).to_contain_text(SETTINGS["name"])
        screenshot(page, "dsp-campaign-synced")


def test_the_dsp_form_explains_a_refused_seat_id_under_the_field_and_saves_nothing(page: Page) -> None:
    dsp = run(lambda db: dsps.create_dsp(db, actor=actor_of(db, "admin@demo.example"), data=DspCreate(**{
        "name": "Seated Bidder", "endpoint_url": "https://bidder.example/api", "api_key": SECRET, "seat_id": "s-1"})))
    login(page, "admin@demo.example")
    page.goto(f"/admin/editdsp/{dsp.id}")
    expect(page.locator("#field-seat_id")).to_have_value("s-1")
    page.fill("#field-seat_id", "s/2")
    page.click("form[name=dsp] button[type=submit]")
    expect(page.locator("[data-field-error=seat_id]")).to_have_text("Use only letters, digits, _ and -.")
    screenshot(page, "dsp-edit-bad-seat")
    assert run(lambda db: dsps.get_dsp(db, actor=actor_of(db, "admin@demo.example"), dsp_id=dsp.id)).seat_id == "s-1"
    page.fill("#field-seat_id", "s_2")
    page.click("form[name=dsp] button[type=submit]")
    page.wait_for_url(at_path(f"/admin/viewdsp/{dsp.id}"))
    expect(page.locator("[data-page=dsp-view]")).to_contain_text("s_2")
    page.click("[data-tab='dsp.change_log']")  # the edit is in its change log, field by field
    edited = page.locator("[data-page=dsp-change-log] tr[data-action=update]")
    expect(edited).to_contain_text("Seat ID")
    expect(edited).to_contain_text("s_2")
    expect(page.locator("[data-page=dsp-change-log] tr[data-action=create]")).to_be_visible()
    screenshot(page, "dsp-change-log")


def test_co_admin_has_no_dsp_pages(page: Page) -> None:
    login(page, "coadmin@demo.example")
    expect(page.locator(".dsp-sidebar a[href*='dsp']")).to_have_count(0)
    page.goto("/admin/dsplist")
    expect(page.locator("[data-page=dsps]")).to_have_count(0)
