"""The shell in a real browser: each role's landing page and menu, redirects, sessions across tabs,
the inactivity prompt, languages and the advertiser's balance."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from components.pages import menu_pages
from tests.e2e.conftest import ROLE_HOMES, at_path, login, screenshot, wait_for_value
from tests.helpers import actor_of, user_by_email
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("email", list(ROLE_HOMES))
def test_each_role_lands_on_its_dashboard_and_every_menu_link_works(page: Page, email: str, db) -> None:
    login(page, email)
    expect(page.locator("[data-dashboard]")).to_be_visible()
    role = user_by_email(db, email).role
    from app.access.roles import Role

    for menu_page in menu_pages(Role(role)):
        page.locator(f".dsp-sidebar a[href='{menu_page.path}']").click()
        page.wait_for_url(f"**{menu_page.path}")
        expect(page.locator(".dsp-content")).not_to_be_empty()
    page.goto("/profile-that-does-not-exist")
    page.wait_for_url(f"**{ROLE_HOMES[email]}")
    expect(page.locator("[data-dashboard]")).to_be_visible()
    screenshot(page, f"shell-{role.lower()}")


def test_menu_extras_follow_settings_and_brand(page: Page) -> None:
    login(page, "advertiser@demo.example")
    api_docs = page.locator(".dsp-sidebar a[href='/docs']")
    expect(api_docs).to_have_attribute("target", "_blank")
    expect(page.locator(".dsp-sidebar a[href='https://support.northwind.example/']")).to_be_visible()
    page.context.clear_cookies()
    login(page, "agency@demo.example")  # no api_access
    expect(page.locator(".dsp-sidebar a[href='/docs']")).to_have_count(0)


def test_logged_out_users_only_get_public_pages(page: Page) -> None:
    for path in ("/admin/dashboard", "/dashboard", "/agency/profile", "/no/such/page"):
        page.goto(path)
        page.wait_for_url("**/login")
    for path in ("/register", "/forgot-password", "/documentation/general", "/documentation/console", "/maintenance"):
        page.goto(path)
        expect(page.locator(f"[data-page='{path}']")).to_be_visible()  # the page itself rendered
        assert urlsplit(page.url).path == path
    expect(page.locator("h1")).to_contain_text("Site is Under Maintenance")
    expect(page.get_by_text("Please contact support team")).to_be_visible()


def test_roles_cannot_open_other_roles_pages(page: Page) -> None:
    login(page, "advertiser@demo.example")
    for path in ("/admin/dashboard", "/co-admin/dashboard", "/agency/dashboard", "/admin/settings", "/login"):
        page.goto(path)
        page.wait_for_url(at_path("/dashboard"))
        expect(page.locator("[data-page='/dashboard']")).to_be_visible()


def test_logout_in_one_tab_logs_out_every_tab(page: Page) -> None:
    login(page, "agency@demo.example")
    other = page.context.new_page()
    other.goto("/agency/profile")
    other.wait_for_selector(".dsp-shell")
    page.click("[data-dropdown=user] button")
    page.click("[data-action=logout]")
    page.wait_for_url("**/login")
    other.wait_for_url("**/login", timeout=2500)


def test_login_in_another_tab_is_picked_up(page: Page) -> None:
    page.goto("/login")
    page.wait_for_selector("form[name=login]")
    other = page.context.new_page()
    login(other, "advertiser@demo.example")
    page.wait_for_url("**/dashboard", timeout=3000)


def test_clearing_site_storage_logs_out(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.evaluate("window.localStorage.clear()")
    page.wait_for_url("**/login", timeout=2500)
    page.goto("/dashboard")
    page.wait_for_url("**/login")


def test_inactivity_prompt_on_edit_pages(page: Page) -> None:
    campaign = run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                                        data=CampaignUpdate.model_validate(SETTINGS)))
    page.clock.install()  # the browser's timers, moved on below instead of waited for
    login(page, "advertiser@demo.example")
    dialog = page.get_by_text("This tab was inactive for some time!")
    page.clock.fast_forward("05:10")  # past the 5 minutes, on a page that is not an edit page
    page.wait_for_timeout(600)  # the agent's half-second path check has run
    expect(dialog).to_have_count(0)
    page.click(".dsp-sidebar a[href='/campaign']")
    page.locator(".dsp-grid tr", has_text="Autumn Push").locator("[data-action='campaign.edit']").click()
    page.wait_for_url(f"**/campaignEditForm/{campaign.id}")
    # Loaded and still: a page changing under the pointer makes Chromium send mouse moves, which are activity.
    expect(page.locator("#field-name")).to_have_value("Autumn Push")
    page.wait_for_timeout(600)
    page.clock.fast_forward("04:50")
    page.wait_for_timeout(600)
    expect(dialog).to_have_count(0)  # not yet five minutes on the edit page
    page.clock.fast_forward("00:20")
    expect(dialog).to_be_visible()
    page.get_by_role("button", name="Refresh").click()
    page.wait_for_load_state("load")
    expect(dialog).to_have_count(0)


def test_language_switch_translates_and_is_remembered(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.click("[data-dropdown=language] button")
    page.click("[data-language=gr]")
    expect(page.locator(".dsp-sidebar a[href='/dashboard']")).to_contain_text("Dashboard")  # German keeps the word
    expect(page.locator("[data-dropdown=user]").get_by_role("button", name="Konto")).to_be_visible()
    wait_for_value(page, "localStorage.getItem('language')", "gr")  # written by the client before the reload
    page.reload()
    expect(page.locator("[data-dropdown=user]").get_by_role("button", name="Konto")).to_be_visible()
    page.click("[data-dropdown=language] button")
    page.click("[data-language=sp]")
    expect(page.locator("[data-dropdown=user]").get_by_role("button", name="Cuenta")).to_be_visible()


def test_advertiser_sees_balance_and_others_do_not(page: Page) -> None:
    login(page, "advertiser@demo.example")
    expect(page.locator("[data-balance]")).to_have_text("Balance$5,000.00")
    page.context.clear_cookies()
    page.evaluate("localStorage.clear()")
    login(page, "agency@demo.example")
    expect(page.locator("[data-balance]")).to_have_count(0)


def test_the_sidebar_runs_the_whole_page_and_nothing_floats_over_the_content(page: Page) -> None:
    """Issue 24's visual defects: the sidebar's colour ended where the window did on a long page, and a floating
    theme button covered the last column of wide tables; theme settings now sit in the top bar."""
    login(page, "advertiser@demo.example")
    page.goto(page.url.split("/dashboard")[0] + "/campaignForm")
    expect(page.locator("[data-page='/campaignForm']")).to_be_visible()
    expect(page.get_by_text("Dayparting")).to_be_visible()  # far down the form: the page is several windows long
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    body, sidebar = page.locator(".dsp-body").bounding_box(), page.locator(".dsp-sidebar").bounding_box()
    assert body is not None and sidebar is not None and body["height"] > 2 * 900
    assert sidebar["height"] == body["height"]
    covering = page.evaluate("""() => {
        const content = document.querySelector('.dsp-content').getBoundingClientRect();
        return [...document.querySelectorAll('body *')].filter((node) => {
            const style = getComputedStyle(node);
            // The top bar is above the content, toasts come and go; hidden things cover nothing.
            if (style.position !== 'fixed' || style.visibility === 'hidden' || style.display === 'none'
                || node.closest('.dsp-topbar, .dsp-toasts')) return false;
            const box = node.getBoundingClientRect();
            return box.width > 0 && box.height > 0 && box.left < content.right && box.right > content.left
                && box.top < window.innerHeight && box.bottom > 64;
        }).map((node) => node.className);
    }""")
    assert covering == []
    page.locator(".dsp-topbar .dsp-theme-button").click()
    expect(page.get_by_role("dialog", name="Theme settings")).to_be_visible()
