"""The client settings page in a real browser: postback URL with field errors, an API key shown once, used on
the API, then revoked; and the page that explains itself when nothing is switched on."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e

GOOD_URL = "https://track.example.com/postback?click_id={click_id}&event={event}"


def _profile_status(server_url: str, token: str) -> int:
    return httpx.get(f"{server_url}/api/auth/profile", headers={"Authorization": f"Bearer {token}"},
                     timeout=10).status_code


def test_advertiser_sets_a_postback_and_manages_an_api_key(page: Page, context: BrowserContext,
                                                           server_url: str) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    login(page, "advertiser@demo.example")
    page.click("[data-dropdown=user] button")
    page.locator("[data-dropdown=user] a.dropdown-item", has_text="Settings").click()
    page.wait_for_url("**/advertiser-settings")
    expect(page.get_by_role("heading", name="Settings", exact=True)).to_be_visible()

    # Postback: a bad URL first, then a good one.
    page.fill("#field-url", "track.example.com/postback")
    page.click("#event-install")
    expect(page.locator("#event-install")).to_be_checked()
    page.click("form[name=postback] button[type=submit]")
    expect(page.locator("[data-field-error=url]")).to_have_text("Please enter a valid URL.")
    page.fill("#field-url", GOOD_URL)
    page.click("#event-purchase")
    expect(page.locator("#event-purchase")).to_be_checked()
    page.click("form[name=postback] button[type=submit]")
    expect(page.locator("[data-toast-kind=success]")).to_contain_text("Postback settings saved.")
    expect(page.locator("[data-field-error=url]")).to_have_count(0)
    expect(page.locator("[data-postback=status]")).to_have_text("Active")

    # API key: generated, shown once with a copy button and a warning.
    page.fill("#field-label", "Reporting server")
    page.click("form[name=api-key] button[type=submit]")
    reveal = page.locator("[data-api-token=reveal]")
    expect(reveal).to_contain_text("You will not see it again")
    expect(page.locator("#api-token-value")).to_have_value(re.compile(r"^dsp_[0-9a-f]{16}\..{40,}$"))
    token = page.input_value("#api-token-value")
    page.click("[data-action=copy-token]")
    expect(page.locator("[data-action=copy-token]")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == token
    screenshot(page, "client-settings-advertiser-new-key")

    key_id = token.removeprefix("dsp_").split(".", 1)[0]
    row = page.locator(f"tr[data-key-id='{key_id}']")
    expect(row).to_contain_text("Reporting server")
    expect(row.locator("[data-scope=read]")).to_have_text("Read only")  # the least scope is the one offered first
    expect(row).to_contain_text("Never used")
    expect(page.locator("[data-api-keys=count]")).to_have_text("1 of 5 active")

    # The key works on the API; the page then shows where it was last used from, and never the token again.
    assert _profile_status(server_url, token) == 200
    page.click("[data-action=dismiss-token]")
    expect(reveal).to_have_count(0)
    page.reload()
    expect(row).to_contain_text("127.0.0.1")
    assert token not in page.content()
    expect(page.locator("#field-url")).to_have_value(GOOD_URL)
    expect(page.locator("#event-purchase")).to_be_checked()

    # Revoke, with confirmation: the key stops working at once.
    row.locator("[data-action=revoke]").click()
    expect(page.get_by_role("dialog")).to_contain_text("Reporting server")
    screenshot(page, "client-settings-advertiser-revoke")
    page.click("[data-confirm=yes]")
    expect(page.locator("[data-toast-kind=success]").last).to_contain_text("API key revoked.")
    expect(row).to_contain_text("Revoked")
    expect(row.locator("[data-action=revoke]")).to_have_count(0)
    assert _profile_status(server_url, token) == 401
    page.locator("[data-api-keys=list]").scroll_into_view_if_needed()
    screenshot(page, "client-settings-advertiser-revoked")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "client-settings-advertiser")


def test_agency_without_postbacks_or_api_sees_an_explanation(page: Page) -> None:
    login(page, "agency@demo.example")
    page.click("[data-dropdown=user] button")
    expect(page.locator("[data-dropdown=user] a.dropdown-item", has_text="Profile")).to_be_visible()
    expect(page.locator("[data-dropdown=user] a.dropdown-item", has_text="Settings")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto("/agency/agency-settings")
    expect(page.locator("[data-client-settings=empty]")).to_contain_text("Ask your account manager")
    expect(page.locator("form[name=postback]")).to_have_count(0)
    screenshot(page, "client-settings-agency-empty")


def test_advertiser_copies_its_conversion_endpoint_and_a_partner_calls_it(page: Page, context: BrowserContext,
                                                                            server_url: str) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    login(page, "advertiser@demo.example")
    page.goto(f"{server_url}/advertiser-settings")
    endpoint = page.locator("#postback-endpoint-value")
    expect(endpoint).to_have_value(re.compile(re.escape(server_url) + r"/api/postback/[\w-]{20,}\?click_id="))
    page.click("[data-action=copy-endpoint]")
    expect(page.locator("[data-action=copy-endpoint]")).to_have_text("Copied")
    screenshot(page, "postback-endpoint")
    address = endpoint.input_value()
    # The partner's call, with the example's macros filled in: a wrong campaign is refused by name.
    reply = httpx.get(address.split("?")[0], params={"click_id": "c1", "event": "install", "campaign_id": "999999",
                                                     "country": "DE"}, timeout=10)
    assert reply.status_code == 422 and "campaign_id" in reply.json()["data"]["fields"]
    assert httpx.get(f"{server_url}/api/postback/wrong-token", timeout=10).status_code == 404
