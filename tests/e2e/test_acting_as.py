"""Acting as another user from the user lists, and the Back buttons, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session

from app.accounts import users
from app.kernel.db import run
from app.settings import api_credentials
from tests.e2e.conftest import at_path, login, screenshot
from tests.helpers import actor_of, other_tenant, user_by_email

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
    page.wait_for_url(at_path("/dashboard"))
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "advertiser@demo.example")
    expect(page.locator("[data-balance]")).to_have_text("Balance$5,000.00")
    screenshot(page, "acting-as-advertiser")

    page.click("[data-back=AGENCY]")
    page.wait_for_url("**/agency/advertiser")
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "agency@demo.example")
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url(at_path("/dashboard"))
    page.click("[data-back=ADMIN]")  # drops both lower sessions at once
    page.wait_for_url("**/admin/users")
    expect(page.locator("[data-acting]")).to_have_count(0)
    expect(page.locator("[data-back]")).to_have_count(0)


def test_agency_enters_its_advertiser_and_returns(page: Page) -> None:
    login(page, "agency@demo.example")
    page.goto("/agency/advertiser")
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url(at_path("/dashboard"))
    page.click("[data-back=AGENCY]")
    page.wait_for_url("**/agency/advertiser")
    expect(page.locator("[data-back]")).to_have_count(0)


def test_a_move_sends_the_agencys_tab_acting_as_the_advertiser_back_to_the_agency(page: Page, browser: Browser,
                                                                                   server_url: str) -> None:
    """Issue 37: an admin moves the advertiser to another agency while the old agency's tab acts as it. The tab's
    next click must not act as the advertiser (before: it opened the advertiser's campaigns, the page keeping the
    actor it was drawn for while the session went on as the agency); it comes back as the agency, told why. The
    key the agency had made for the advertiser is shown to the advertiser as ended by the move."""
    login(page, "agency@demo.example")
    page.goto("/agency/advertiser")
    _login_as(page, "Arlo Advertiser")
    page.wait_for_url(at_path("/dashboard"))
    expect(page.locator("[data-acting]")).to_have_attribute("data-acting", "advertiser@demo.example")

    def move(db: Session) -> str:  # through the services, from this (another) process: the server reads it back
        advertiser_id = user_by_email(db, "advertiser@demo.example").id
        key = api_credentials.generate(db, actor=actor_of(db, "agency@demo.example"), user_id=advertiser_id,
                                       label="Agency reporting")
        rival, _advertiser = other_tenant(db)
        users.assign_advertisers(db, actor=actor_of(db, "admin@demo.example"), advertiser_ids=[advertiser_id],
                                 agency_id=rival.id)
        return key.key_id
    key_id = run(move)

    page.click(".dsp-sidebar a[href='/campaign']")
    page.wait_for_url("**/agency/dashboard")
    expect(page.locator("[data-toast-kind=info]")).to_contain_text(
        "The advertiser you were acting as no longer belongs to your agency")
    expect(page.locator("[data-acting]")).to_have_count(0)
    expect(page.locator("[data-back]")).to_have_count(0)
    screenshot(page, "moved-advertiser-tab-back-to-agency")

    advertiser = browser.new_context(base_url=server_url, viewport={"width": 1440, "height": 900}).new_page()
    login(advertiser, "advertiser@demo.example")
    advertiser.goto("/advertiser-settings")
    ended = advertiser.locator(f"tr[data-key-id='{key_id}'] [data-key-ended=moved]")
    expect(ended).to_contain_text("Ended by the move")
    expect(ended).to_contain_text("The account moved away from the agency that made this key.")
    expect(advertiser.locator(f"tr[data-key-id='{key_id}'] [data-action=revoke]")).to_have_count(0)
    ended.scroll_into_view_if_needed()
    screenshot(advertiser, "moved-advertiser-key-ended")
    advertiser.context.close()


def test_disable_needs_confirmation_and_locks_the_account_out(page: Page, browser, server_url) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/users")
    row = page.locator("tr", has_text="Arlo Advertiser")
    row.locator("[data-action=disable]").click()
    dialog = page.get_by_role("dialog", name="Disable this account?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(row.locator("[data-action=disable]")).to_have_count(1)
    row.locator("[data-action=disable]").click()
    screenshot(page, "users-confirm-disable")
    page.click("[data-confirm=yes]")
    expect(page.locator("[data-toast-kind=success]")).to_contain_text("Arlo Advertiser is disabled.")
    expect(row.locator("[data-action=enable]")).to_have_count(1)
    expect(row.locator("[data-action=login_as]")).to_have_count(0)

    other = browser.new_context(base_url=server_url).new_page()
    other.goto("/login")
    other.fill("#field-email", "advertiser@demo.example")
    other.fill("#field-password", "demo-Pass-2026")
    other.click("form[name=login] button[type=submit]")
    expect(other.get_by_role("alert")).to_have_text("This account is disabled. Please contact support.")
    other.context.close()
