"""Acting as another user from the user lists, and the Back buttons, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


def _login_as(page: Page, name: str) -> None:
    page.locator("tr", has_text=name).locator("[data-action=login_as]").click()


def test_admin_to_agency_to_advertiser_and_back(page: Page) -> None:
    login(page, "admin@demo.example")
    page.click(".dsp-sidebar a[href='/admin/users']")
    page.wait_for_url("**/admin/users")
    # staff accounts cannot be entered: no button on their rows
    expect(page.locator("tr", has_text="Colin Coadmin").locator("[data-action=login_as]")).to_have_count(0)
    _login_as(page, "Agnes Agency")
    page.wait_for_url("**/agency/dashboard")
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "agency@demo.example")
    expect(page.locator("[data-back]")).to_have_count(1)

    page.click(".dsp-sidebar a[href='/agency/advertiser']")
    page.wait_for_url("**/agency/advertiser")
    expect(page.locator("tbody tr", has_text="@")).to_have_count(1)  # only its own advertiser
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url("**/dashboard")
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "advertiser@demo.example")
    expect(page.locator("[data-balance]")).to_have_text("Balance$5,000.00")
    screenshot(page, "acting-as-advertiser")

    page.click("[data-back=AGENCY]")
    page.wait_for_url("**/agency/advertiser")
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "agency@demo.example")
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url("**/dashboard")
    page.click("[data-back=ADMIN]")  # drops both lower sessions at once
    page.wait_for_url("**/admin/users")
    expect(page.locator("[data-acting]")).to_have_count(0)
    expect(page.locator("[data-back]")).to_have_count(0)


def test_agency_enters_its_advertiser_and_returns(page: Page) -> None:
    login(page, "agency@demo.example")
    page.goto("/agency/advertiser")
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url("**/dashboard")
    page.click("[data-back=AGENCY]")
    page.wait_for_url("**/agency/advertiser")
    expect(page.locator("[data-back]")).to_have_count(0)
