"""In a real browser (issue 21): once an admin switches Insight360 off for an advertiser whose dashboard is on
it, the advertiser's dashboard falls back to the classic view, on the open tab and after signing in again, and
the view switch is gone; a stored 'new' choice does not hold them in Insight360."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e

ADVERTISER = "advertiser@demo.example"
CLASSIC, INSIGHT = "[data-dashboard=classic][data-loading=false]", "[data-dashboard=insight360][data-loading=false]"


def test_switching_insight360_off_brings_the_advertiser_back_to_the_classic_dashboard(
        page: Page, browser: Browser, server_url: str, demo: dict[str, int]) -> None:
    login(page, ADVERTISER)
    page.get_by_role("button", name="Insight360").click()
    expect(page.locator(INSIGHT)).to_be_visible()

    admin_context = browser.new_context(base_url=server_url, viewport={"width": 1440, "height": 900})
    try:
        admin = admin_context.new_page()
        login(admin, "admin@demo.example")
        admin.goto(f"/admin/user-config/{demo[ADVERTISER]}")
        switch = admin.locator("form[name=user-config] input[name=insight_dashboard]")
        expect(switch).to_be_checked()
        switch.uncheck()
        admin.locator("form[name=user-config] button[type=submit]").click()
        expect(admin.get_by_text("The configuration was saved.")).to_be_visible()
    finally:
        admin_context.close()

    # The open tab follows the change: classic, and no switch to go back with.
    expect(page.locator(CLASSIC)).to_be_visible()
    expect(page.locator(".dsp-view-switch")).to_have_count(0)

    # Signing in again (the stored choice is still 'new') shows the classic dashboard too.
    page.context.clear_cookies()
    login(page, ADVERTISER)
    expect(page.locator(CLASSIC)).to_be_visible()
    expect(page.locator(INSIGHT)).to_have_count(0)
    expect(page.locator(".dsp-view-switch")).to_have_count(0)
