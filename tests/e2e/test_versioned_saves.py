"""Two people with one campaign's edit form open (issue 38, items 6 and 7): the first saves the bid, the second then
saves the daily budget from the form loaded before that: the second is told who changed what, nothing of the
second save is written, the first's bid stays, and what the second typed is still in the form."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
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
