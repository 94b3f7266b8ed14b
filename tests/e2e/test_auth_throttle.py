"""The forgot-password page past the mail limit: it says why and how long to wait, and no more mail leaves."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from app.access.throttle import MAIL_ACCOUNT
from app.kernel.config import get_settings
from app.kernel.db import run
from app.messaging.models import EmailOutbox
from tests.e2e.conftest import screenshot

pytestmark = pytest.mark.e2e
EMAIL = "agency@demo.example"
REFUSED = MAIL_ACCOUNT.format(n=15)


def _mails() -> int:
    return int(run(lambda db: db.exec(select(func.count()).select_from(EmailOutbox)
                                      .where(EmailOutbox.to_address == EMAIL)).one()))


def _until_mails(count: int) -> None:
    deadline = time.monotonic() + 15
    while _mails() < count:
        assert time.monotonic() < deadline, f"still {_mails()} mails, waiting for {count}"
        time.sleep(0.1)


def test_forgot_password_page_refuses_past_the_limit(page: Page) -> None:
    limit = get_settings().mail_max_per_account
    page.goto("/forgot-password")
    page.fill("#field-email", EMAIL)
    page.click("form[name=forgot] button[type=submit]")
    expect(page.locator("#field-otp")).to_be_visible()
    _until_mails(1)
    resend = page.get_by_role("button", name="Send a new code")
    for sent in range(2, limit + 1):
        expect(resend).to_be_enabled()
        resend.click()
        _until_mails(sent)
    expect(resend).to_be_enabled()
    resend.click()
    expect(page.get_by_role("alert")).to_have_text(REFUSED)
    screenshot(page, "forgot-password-throttled")
    # Starting over is refused the same way, on the first step.
    page.goto("/forgot-password")
    page.fill("#field-email", EMAIL)
    page.click("form[name=forgot] button[type=submit]")
    expect(page.get_by_role("alert")).to_have_text(REFUSED)
    expect(page.locator("#field-otp")).to_have_count(0)
    assert _mails() == limit
