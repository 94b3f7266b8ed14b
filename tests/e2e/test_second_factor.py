"""Two-factor sign-in in Chromium: set up an authenticator app on the profile page (the QR code and the key; a code
from the app confirms it; the recovery codes show once), sign out, sign in with the password and then a code that
pyotp makes from the key the page showed."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from playwright.sync_api import Page, expect

from app.access.models import SignInPolicy
from app.demo.seed import DEMO_PASSWORD
from app.kernel.db import run
from app.kernel.model_base import utcnow
from tests.e2e.conftest import at_path, login, screenshot

pytestmark = pytest.mark.e2e
EMAIL = "agency@demo.example"


def test_enrol_on_the_profile_then_sign_in_with_a_code(page: Page) -> None:
    login(page, EMAIL)
    page.goto("/agency/profile")
    page.get_by_role("button", name="Set up authenticator app").click()
    expect(page.get_by_role("img", name="QR code for your authenticator app")).to_be_visible()
    secret = page.locator("[data-secret]").get_attribute("data-secret")
    assert secret
    totp = pyotp.TOTP(secret)
    screenshot(page, "second-factor-enrolment")
    confirmed_at = utcnow()
    page.fill("form[name=second-factor-confirm] #field-code", totp.at(confirmed_at))
    page.click("form[name=second-factor-confirm] button[type=submit]")
    codes = page.locator(".dsp-recovery-codes li")
    expect(codes).to_have_count(10)
    first_codes = codes.all_inner_texts()
    screenshot(page, "second-factor-recovery-codes")
    page.get_by_role("button", name="I have saved them").click()
    expect(page.locator(".dsp-2fa-badge")).to_have_text("On")

    page.click("[data-dropdown=user] button")
    page.click("[data-action=logout]")
    page.wait_for_url("**/login")
    page.fill("#field-email", EMAIL)
    page.fill("#field-password", DEMO_PASSWORD)
    page.click("form[name=login] button[type=submit]")
    expect(page.get_by_role("heading", name="Two-step verification")).to_be_visible()
    screenshot(page, "second-factor-prompt")
    page.fill("form[name=second-factor] #field-code", "000000")
    page.click("form[name=second-factor] button[type=submit]")
    expect(page.locator("#field-code.is-invalid")).to_be_visible()
    # A code works once: the current one if its step is past the confirming one, else the next step's (the server
    # accepts a step either side of its clock).
    page.fill("form[name=second-factor] #field-code", totp.at(max(utcnow(), confirmed_at + timedelta(seconds=30))))
    page.click("form[name=second-factor] button[type=submit]")
    page.wait_for_url(at_path("/agency/dashboard"), timeout=15_000)
    page.wait_for_selector(".dsp-shell")

    # New recovery codes, with the password (the phone put away): ten new ones, shown once.
    page.goto("/agency/profile")
    expect(page.locator("[data-recovery-codes-left]")).to_contain_text("10 recovery codes left")
    page.click("[data-action=renew-recovery-codes]")
    page.click("[data-action=renew-proof]")
    page.fill("form[name=renew-recovery-codes] #field-password", DEMO_PASSWORD)
    screenshot(page, "second-factor-renew-codes")
    page.click("form[name=renew-recovery-codes] button[type=submit]")
    renewed = page.locator(".dsp-recovery-codes li")
    expect(renewed).to_have_count(10)
    assert not set(renewed.all_inner_texts()) & set(first_codes)
    page.get_by_role("button", name="I have saved them").click()
    expect(page.locator("[data-recovery-codes-left]")).to_contain_text("10 recovery codes left")
    screenshot(page, "second-factor-card")


def test_a_co_admin_without_a_factor_is_taken_to_set_one_up_when_the_policy_requires_it(page: Page) -> None:
    run(lambda db: db.add(SignInPolicy(id=1, staff_second_factor=True)))
    page.goto("/login")
    page.fill("#field-email", "coadmin@demo.example")
    page.fill("#field-password", DEMO_PASSWORD)
    page.click("form[name=login] button[type=submit]")
    expect(page.get_by_role("heading", name="Set up two-factor sign-in")).to_be_visible()
    secret = page.locator("[data-secret]").get_attribute("data-secret")
    assert secret
    screenshot(page, "second-factor-required-enrolment")
    page.fill("form[name=second-factor] #field-code", pyotp.TOTP(secret).now())
    page.click("form[name=second-factor] button[type=submit]")
    expect(page.locator(".dsp-recovery-codes li")).to_have_count(10)
    page.get_by_role("button", name="Continue to the console").click()
    page.wait_for_url(at_path("/co-admin/dashboard"), timeout=15_000)
