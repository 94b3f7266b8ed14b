"""Funds in a real browser: an admin adds funds and the advertiser sees the new balance; each role's funds page
(screenshots land in the artifacts folder)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import at_path, login, screenshot

pytestmark = pytest.mark.e2e


def test_admin_adds_funds_and_the_advertiser_sees_the_new_balance(page: Page, browser: Browser, server_url: str,
                                                                   demo: dict[str, int]) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/funds")
    row = page.locator("[data-page=funds-overview]")
    expect(row.get_by_text("Arlo Advertiser")).to_be_visible()
    page.click("[data-action=add-funds]")
    page.wait_for_url(at_path("/admin/addfund"))
    page.select_option("#field-advertiser_id", str(demo["advertiser@demo.example"]))
    expect(page.locator("[data-kpi=selected_balance]")).to_have_text("$5,000.00")
    page.fill("#field-amount", "12.345")
    page.click("form[name=add-funds] button[type=submit]")
    expect(page.locator("[data-field-error=amount]")).to_have_text("Enter an amount with at most two decimals.")
    page.fill("#field-amount", "250.50")
    page.fill("#field-note", "Wire transfer 7781")
    page.click("form[name=add-funds] button[type=submit]")
    expect(page.get_by_text("Funds added.")).to_be_visible()
    page.wait_for_url(at_path("/admin/funds"))
    expect(page.locator("[data-kpi=total_balance]")).to_have_text("$5,250.50")

    advertiser = browser.new_context(base_url=server_url, viewport={"width": 1440, "height": 900})
    try:
        own = advertiser.new_page()
        login(own, "advertiser@demo.example")
        own.goto("/funds")
        expect(own.locator("[data-kpi=balance]")).to_have_text("$5,250.50")
        expect(own.locator("[data-kpi=deposits]")).to_have_text("$5,250.50")
        expect(own.get_by_text("Wire transfer 7781")).to_be_visible()
        expect(own.locator("[data-balance]")).to_contain_text("$5,250.50")  # the top bar agrees
    finally:
        advertiser.close()


@pytest.mark.parametrize(("email", "path"), [("admin@demo.example", "/admin/funds"),
                                             ("admin@demo.example", "/admin/addfund"),
                                             ("coadmin@demo.example", "/co-admin/funds"),
                                             ("agency@demo.example", "/agency/funds"),
                                             ("advertiser@demo.example", "/funds")])
def test_each_roles_funds_page_shows_its_figures(page: Page, email: str, path: str) -> None:
    login(page, email)
    page.click(f"a[href='{path}']") if path != "/admin/addfund" else page.goto(path)
    page.wait_for_url(at_path(path))
    expect(page.locator("[data-kpi]").first).to_be_visible()
    expect(page.locator("[data-kpi]").first).not_to_have_text("")
    screenshot(page, "funds-" + path.strip("/").replace("/", "-"))
