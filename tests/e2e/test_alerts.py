"""Alerts in the browser: a raised alert in the notifications dropdown, and the profile's Alerts card saving a
subscription (screenshots: alerts-dropdown.png, alerts-settings.png)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

import components.pages  # noqa: F401  (the route table answers the alert's fix link here, as in the running console)
from app.alerts import service as alerts
from app.alerts.checks import Cause
from app.alerts.kinds import AlertKind
from app.alerts.models import AlertSubscription
from app.kernel.db import session_scope
from tests.e2e.conftest import at_path, login, screenshot

TITLE = "Low balance: about 1.6 days of spend left"


def test_a_raised_alert_is_in_the_dropdown_and_the_profile_saves_alert_settings(page: Page, demo: dict[str, int]) -> None:
    advertiser = demo["advertiser@demo.example"]
    with session_scope() as db:
        alerts.reconcile(db, [Cause(AlertKind.LOW_BALANCE, f"advertiser:{advertiser}", advertiser, TITLE,
                                    "Balance $480.00, spending $300.00 a day over the last 7 days; your alert is set "
                                    "at 3 days. Add funds to keep campaigns delivering.")],
                         kinds=(AlertKind.LOW_BALANCE,), owner_ids=[advertiser])
    login(page, "advertiser@demo.example")
    page.click("[data-dropdown=notifications] > button")
    alert = page.locator(".dsp-notification", has_text=TITLE)
    expect(alert).to_be_visible()
    screenshot(page, "alerts-dropdown")
    # Its fix: where this advertiser adds funds.
    alert.locator("[data-notification-fix]").click()
    page.wait_for_url(at_path("/funds"))
    expect(page.locator("[data-dropdown=notifications] .dsp-notification")).to_have_count(0)  # the menu closed

    page.goto("/profile")
    page.check("#field-email_low_balance")
    page.fill("#field-low_balance_days", "5")
    page.locator("form[name=alerts]").scroll_into_view_if_needed()
    screenshot(page, "alerts-settings")
    page.click("form[name=alerts] button[type=submit]")
    expect(page.get_by_text("Alert settings saved")).to_be_visible()

    with session_scope() as db:
        row = db.get(AlertSubscription, advertiser)
        assert row is not None and row.email_kinds == ["low_balance"] and row.low_balance_days == 5
