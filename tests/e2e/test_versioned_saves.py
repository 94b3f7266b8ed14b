"""Two people with one campaign's edit form open (issue 38, items 6 and 7): the first saves the bid, the second then
saves the daily budget from the form loaded before that: the second is told who changed what, nothing of the
second save is written, the first's bid stays, and what the second typed is still in the form. The bulk page, the
creative form and a restore from the change log likewise refuse a record saved since the page showed it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.history import change_log
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e
VIEW = re.compile(r"/campaign/(\d+)/$")


@pytest.fixture
def second_person(browser: Browser, server_url: str, context: BrowserContext) -> Iterator[Page]:
    """Another browser (its own cookies) on the same server: the agency."""
    other = browser.new_context(base_url=server_url, viewport={"width": 1440, "height": 900})
    other.set_default_timeout(10_000)
    yield other.new_page()
    other.close()


def test_the_second_of_two_people_saving_one_campaign_is_refused_and_keeps_what_was_typed(
        page: Page, second_person: Page) -> None:
    campaign_id = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                           data=CampaignUpdate.model_validate(SETTINGS)).id)
    login(page, "advertiser@demo.example")
    login(second_person, "agency@demo.example")
    page.goto(f"/campaignEditForm/{campaign_id}")
    second_person.goto(f"/agency/campaignEditForm/{campaign_id}")
    expect(page.locator("#field-bid")).to_have_value("1.75")
    expect(second_person.locator("#field-daily_budget")).to_have_value("40.00")

    second_person.fill("#field-bid", "3.00")  # the agency saves first...
    second_person.click("[data-action=save-campaign]")
    second_person.wait_for_url(re.compile(r"/viewCampaign/\d+$"))

    page.fill("#field-daily_budget", "150.00")  # ...then the advertiser, from the form loaded before that
    page.click("[data-action=save-campaign]")
    refused = page.locator("[data-alert=saved-since] [data-message]")
    expect(refused).to_have_text(re.compile(r"Changed by Agnes Agency at \d\d:\d\d UTC: bid\. "
                                            r"Reload to see the changes\."))
    expect(page.locator("#field-daily_budget")).to_have_value("150.00")  # what was typed stays
    screenshot(page, "campaign-form-saved-since")
    saved = run(lambda db: campaigns.get_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                  campaign_id=campaign_id))
    assert (saved.bid, saved.daily_budget) == ("3.00", "40.00")

    page.reload()  # reloaded, the form shows the agency's bid, and the budget saves over it without touching it
    expect(page.locator("#field-bid")).to_have_value("3.00")
    page.fill("#field-daily_budget", "150.00")
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    saved = run(lambda db: campaigns.get_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                  campaign_id=campaign_id))
    assert (saved.bid, saved.daily_budget) == ("3.00", "150.00")


def test_a_bulk_edit_refuses_the_campaign_saved_since_the_grid_showed_it_and_applies_the_other(page: Page) -> None:
    def make(db: Any) -> list[int]:
        advertiser = actor_of(db, "advertiser@demo.example")
        return [campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(
            {**SETTINGS, "name": name})).id for name in ("Edge Bulk One", "Edge Bulk Two")]

    first, second = run(make)
    login(page, "advertiser@demo.example")
    page.goto(f"/bulk-campaign-edit?ids={first},{second}")
    expect(page.locator(".dsp-grid tbody tr", has_text="Edge Bulk Two")).to_be_visible()
    run(lambda db: campaigns.update_campaign(db, actor=actor_of(db, "agency@demo.example"), campaign_id=first,
                                             data=CampaignUpdate(bid="3.00")))  # saved while the grid shows it
    page.check("#field-change-budget")
    page.fill("#field-total_budget", "1200.00")
    page.fill("#field-daily_budget", "150.00")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "1/2")
    expect(page.locator("tr[data-result=refused]", has_text="Edge Bulk One")).to_contain_text(
        re.compile(r"Changed by Agnes Agency at \d\d:\d\d UTC: bid\. Reload to see the changes\."))
    screenshot(page, "bulk-edit-saved-since")
    budgets = run(lambda db: [campaigns.get_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                     campaign_id=i).daily_budget for i in (first, second)])
    assert budgets == ["40.00", "150.00"]


def test_the_creative_form_saved_since_it_loaded_is_refused_and_the_reload_shows_the_change(page: Page) -> None:
    creative_id = run(lambda db: creatives.create_creative(db, actor=actor_of(db, "advertiser@demo.example"),
                                                           data=CreativeCreate(type="html", name="Edge Tag",
                                                                               html="<b>hi</b>", width=300,
                                                                               height=250)).id)
    login(page, "advertiser@demo.example")
    page.goto(f"/creative/ViewCreative/{creative_id}")
    page.click("[data-action=edit-creative]")
    expect(page.locator("#field-name")).to_have_value("Edge Tag")
    run(lambda db: creatives.update_creative(db, actor=actor_of(db, "agency@demo.example"), creative_id=creative_id,
                                             data=CreativeUpdate(name="Edge Tag B")))
    page.fill("#field-width", "336")
    page.fill("#field-height", "280")
    page.click("[data-action=save-creative]")
    expect(page.locator("[data-alert=saved-since] [data-message]")).to_have_text(
        re.compile(r"Changed by Agnes Agency at \d\d:\d\d UTC: name\. Reload to see the changes\."))
    expect(page.locator("#field-width")).to_have_value("336")  # what was typed stays
    screenshot(page, "creative-form-saved-since")
    page.click("[data-action=reload-changed]")
    expect(page.locator("#field-name")).to_have_value("Edge Tag B")
    page.fill("#field-width", "336")
    page.fill("#field-height", "280")
    page.click("[data-action=save-creative]")
    expect(page.locator("[data-toast-kind=success]")).to_be_visible()
    saved = run(lambda db: creatives.get_creative(db, actor=actor_of(db, "advertiser@demo.example"),
                                                  creative_id=creative_id))
    assert (saved.name, saved.width, saved.height) == ("Edge Tag B", 336, 280)


def test_a_restore_confirmed_after_someone_saved_is_refused_in_the_dialog(page: Page) -> None:
    def make(db: Any) -> tuple[int, int]:
        me = actor_of(db, "advertiser@demo.example")
        made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(
            {**SETTINGS, "name": "Edge Restore"})).id
        campaigns.update_campaign(db, actor=me, campaign_id=made, data=CampaignUpdate(daily_budget="60"))
        return made, change_log.page(db, actor=me, kind="campaign", record_id=made).entries[0].id

    campaign_id, entry = run(make)
    login(page, "advertiser@demo.example")
    page.goto(f"/campaign/changelog/{campaign_id}")
    page.locator(f"[data-entry='{entry}'] [data-action=restore-entry]").click()
    dialog = page.locator("[data-dialog=restore]")
    expect(dialog.locator("[data-restore-field=daily_budget] [data-restored]")).to_have_text("40.00")
    run(lambda db: campaigns.update_campaign(db, actor=actor_of(db, "agency@demo.example"), campaign_id=campaign_id,
                                             data=CampaignUpdate(bid="3.00")))
    dialog.locator("[data-confirm=yes]").click()
    expect(dialog.locator("[data-alert=saved-since] [data-message]")).to_have_text(
        re.compile(r"Changed by Agnes Agency at \d\d:\d\d UTC: bid\. Reload to see the changes\."))
    screenshot(page, "restore-dialog-saved-since")
    dialog.locator("[data-action=reload-changed]").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("tr", has_text="3.00").first).to_be_visible()  # the log now shows the change made since
    assert run(lambda db: campaigns.get_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                 campaign_id=campaign_id).daily_budget) == "60.00"
