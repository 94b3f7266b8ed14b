"""In a real browser: a login filled and submitted in one tick (as a password manager does) always lands,
and a configuration change made elsewhere reaches an open tab without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.accounts import user_config
from app.demo.seed import DEMO_PASSWORD
from app.kernel.db import run
from tests.e2e.conftest import ROLE_HOMES, login
from tests.helpers import actor_of, user_by_email

pytestmark = pytest.mark.e2e

# Sets both fields through the value setter React listens to, fires their input events and submits, all
# in one task: the change events and the submit reach the server together.
FILL_AND_SUBMIT = """([email, password]) => {
  const form = document.querySelector('form[name=login]');
  const setValue = (input, value) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
    input.dispatchEvent(new Event('input', {bubbles: true}));
  };
  setValue(form.elements.email, email);
  setValue(form.elements.password, password);
  form.requestSubmit();
}"""


def test_a_login_filled_and_submitted_in_one_tick_always_lands(page: Page) -> None:
    for attempt in range(6):
        email = list(ROLE_HOMES)[attempt % len(ROLE_HOMES)]
        page.context.clear_cookies()
        page.goto("/login")
        expect(page.locator("form[name=login] button[type=submit]")).to_be_enabled()
        page.evaluate(FILL_AND_SUBMIT, [email, DEMO_PASSWORD])
        page.wait_for_url(f"**{ROLE_HOMES[email]}", timeout=15_000)
        expect(page.locator(".dsp-shell")).to_be_visible()


def _set_config(**changes: bool) -> None:
    def change(db):  # type: ignore[no-untyped-def]
        admin = actor_of(db, "admin@demo.example")
        advertiser = user_by_email(db, "advertiser@demo.example")
        current = user_config.get_config(db, actor=admin, user_id=advertiser.id)
        values = {key: getattr(current, key) for key in ("insight_dashboard", "postback_enabled", "api_access",
                                                         "margin", "allowed_exchanges")}
        user_config.update_config(db, actor=admin, user_id=advertiser.id, **{**values, **changes})
    run(change)


def test_a_configuration_change_reaches_an_open_tab_without_a_reload(page: Page) -> None:
    login(page, "advertiser@demo.example")
    api_docs = page.locator(".dsp-sidebar a[href='/docs']")
    view_switch = page.locator(".dsp-view-switch")
    expect(api_docs).to_have_count(1)
    expect(view_switch).to_have_count(1)
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    # Written by this test process, not the server: the database is the only channel between them.
    _set_config(api_access=False, insight_dashboard=False)
    expect(api_docs).to_have_count(0)
    expect(view_switch).to_have_count(0)

    _set_config(api_access=True)
    expect(api_docs).to_have_count(1)
    assert page.evaluate("window.__sameDocument === true"), "the tab reloaded instead of following the change"


def test_a_failed_session_start_after_the_password_says_so(page: Page) -> None:
    page.route("**/api/auth/session", lambda route: route.fulfill(status=503, body="unavailable"))
    page.goto("/login")
    page.fill("#field-email", "agency@demo.example")
    page.fill("#field-password", DEMO_PASSWORD)
    page.click("form[name=login] button[type=submit]")
    expect(page.locator(".dsp-toast, [role=alert]").filter(has_text="could not start the session")).to_be_visible()
    assert page.url.endswith("/login")
