"""Selections that follow the list, in a browser: after a bulk Apply the campaigns it archived are no longer chosen
(the page says how many), the grid's "Clear selection" drops every chosen row at once, and on the agency assignment
page another "from" agency clears the choice."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of, user_by_email
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e
NAMES = ("Tide One", "Tide Two", "Tide Three")


def _three_active_campaigns() -> list[int]:
    def make(db: Session) -> list[int]:
        advertiser = actor_of(db, "advertiser@demo.example")
        made = [campaigns.create_campaign(db, actor=advertiser,
                                          data=CampaignUpdate.model_validate({**SETTINGS, "name": name})).id
                for name in NAMES]
        for campaign_id in made:
            campaigns.set_status(db, actor=advertiser, campaign_id=campaign_id, status="active")
        return made
    return run(make)


def _row(page: Page, name: str) -> Locator:
    return page.locator(".dsp-grid tbody tr", has_text=name)


def test_archived_campaigns_leave_the_selection_and_clear_drops_the_rest(page: Page) -> None:
    made = _three_active_campaigns()
    login(page, "admin@demo.example")
    page.goto(f"/admin/bulk-campaign-status?ids={','.join(str(i) for i in made)}")
    apply = page.locator("[data-action=apply-bulk]")
    expect(apply).to_have_text("Apply to 3 selected")
    _row(page, "Tide Three").locator("input[data-select]").uncheck()
    expect(apply).to_have_text("Apply to 2 selected")
    page.select_option("#field-status", "archived")
    apply.click()
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "2/2")
    # The two archived campaigns are gone from the list, and so from the selection: nothing left to apply to.
    expect(page.locator("[data-unselected]")).to_have_text("2 of these rows left the list, so they are no longer selected.")
    expect(apply).to_have_text("Select rows in the list")
    expect(apply).to_be_disabled()
    expect(page.locator(".dsp-grid [data-selected-count]")).to_have_count(0)
    screenshot(page, "bulk-selection-after-archive")

    # Chosen again and cleared at once with the footer's button.
    _row(page, "Tide Three").locator("input[data-select]").check()
    expect(page.locator(".dsp-grid [data-selected-count]")).to_have_text("· 1 selected")
    expect(apply).to_have_text("Apply to 1 selected")
    screenshot(page, "bulk-selection-clear-button")
    page.click(".dsp-grid [data-action=clear-selection]")
    expect(apply).to_have_text("Select rows in the list")
    expect(_row(page, "Tide Three").locator("input[data-select]")).not_to_be_checked()
    expect(page.locator(".dsp-grid [data-action=clear-selection]")).to_have_count(0)


def test_another_from_agency_clears_the_advertisers_chosen(page: Page) -> None:
    agency_id = run(lambda db: user_by_email(db, "agency@demo.example").id)
    login(page, "admin@demo.example")
    page.goto(f"/admin/assignAdvertiser?from={agency_id}")
    box = _row(page, "advertiser@demo.example").locator("input[data-select]")
    box.check()
    expect(page.locator("[data-move-count]")).to_have_text("1 selected")
    expect(page.locator("[data-action=move]")).to_be_enabled()
    page.select_option("#field-from", label="All agencies")
    expect(page.locator("[data-move-count]")).to_have_text("0 selected")
    expect(page.locator("[data-action=move]")).to_be_disabled()
    expect(box).not_to_be_checked()
    expect(page.locator(".dsp-grid [data-selected-count]")).to_have_count(0)
    expect(page.get_by_text("Choosing another agency here clears the selection.")).to_be_visible()
    screenshot(page, "assign-advertiser-filter-clears")
