"""Restore from history in a real browser: on a campaign's change log, an advertiser restores an edit's daily budget
and bid; the dialog shows each field's value now and the value restored, a refusal by today's rules names the field,
and the restore appears as a new entry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.history import change_log
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS
from tests.test_campaign_rules import end_flight

pytestmark = pytest.mark.e2e
ADVERTISER = "advertiser@demo.example"


def _edited_campaign() -> tuple[int, int, int]:
    """A campaign whose bid and daily budget were edited, then whose flight, ended since, was extended: (id, the
    edit, the extension)."""
    def make(db: Session) -> tuple[int, int, int]:
        me = actor_of(db, ADVERTISER)
        campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(
            {**SETTINGS, "name": "Restore Me"}))
        ids = []
        for fields in ({"bid": "2.25", "daily_budget": "60"},
                       {"ends_at": (datetime.now(UTC) + timedelta(days=30)).date().isoformat()}):
            if "ends_at" in fields:
                end_flight(db, campaign.id)
            campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate(fields))
            ids.append(change_log.page(db, actor=me, kind="campaign", record_id=campaign.id).entries[0].id)
        return campaign.id, ids[0], ids[1]
    return run(make)


def test_an_advertiser_restores_an_edit_from_the_change_log(page: Page) -> None:
    campaign_id, edited, extended = _edited_campaign()
    login(page, ADVERTISER)
    page.goto(f"/campaign/changelog/{campaign_id}")
    entry = page.locator(f"[data-entry='{edited}']")
    expect(entry.locator("[data-action=restore-entry]")).to_be_visible()
    screenshot(page, "restore-change-log")

    entry.locator("[data-action=restore-entry]").click()
    dialog = page.locator("[data-dialog=restore]")
    expect(dialog.locator("[data-restore-field=bid] [data-now]")).to_have_text("2.25")
    expect(dialog.locator("[data-restore-field=bid] [data-restored]")).to_have_text("1.75")
    expect(dialog.locator("[data-restore-field=daily_budget] [data-restored]")).to_have_text("40.00")
    screenshot(page, "restore-dialog")
    dialog.locator("[data-confirm=yes]").click()
    expect(page.locator("[data-toast-kind=success]", has_text="Values restored.")).to_be_visible()
    newest = page.locator("tr[data-action=restore]")
    expect(newest).to_have_count(1)
    expect(newest).to_contain_text("1.75")
    screenshot(page, "restore-recorded")

    # Restoring the end the flight was extended from would put it in the past: refused, naming the field.
    page.locator(f"[data-entry='{extended}'] [data-action=restore-entry]").click()
    expect(dialog.locator("[data-restore-field=ends_at]")).to_be_visible()
    dialog.locator("[data-confirm=yes]").click()
    expect(dialog.locator("[data-field-error=ends_at]")).to_contain_text("This end date has passed")
    screenshot(page, "restore-refused")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("tr[data-action=restore]")).to_have_count(1)
