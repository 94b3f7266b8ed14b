"""The ledger in a real browser: three days of hourly delivery charges read as three rows, and a click on a day
opens its hours (the advertiser's /funds and the agency's payment list alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from app.db import run
from app.services import funds
from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e
DAYS = 3


def _three_days_of_delivery(advertiser_id: int) -> datetime:
    """72 hourly charges of $1.50 ($36.00 a day), booked at their hours, ending yesterday; the first day."""
    first = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=DAYS)

    def charge(db):  # type: ignore[no-untyped-def]
        for n in range(DAYS * 24):
            hour = first + timedelta(hours=n)
            funds.charge_delivery(db, charges={advertiser_id: 1_500_000}, reference=f"e2e:{hour:%Y%m%d%H}",
                                  booked_at=hour)
    run(charge)
    return first


def _open_the_middle_day(page: Page, day: datetime) -> None:
    expect(page.get_by_text(f"Rows: {DAYS + 1}")).to_be_visible()  # three days and the opening deposit
    expect(page.get_by_text("24 hourly charges")).to_have_count(DAYS)
    page.get_by_text("24 hourly charges").nth(1).click()  # newest first: the middle day
    dialog = page.locator(f"[data-ledger-hours='{day:%Y-%m-%d}']")
    expect(dialog.get_by_role("heading")).to_have_text(f"Delivery on {day:%Y-%m-%d}, hour by hour (UTC)")
    expect(dialog.locator("tbody tr")).to_have_count(24)
    expect(dialog.locator("tbody tr").first).to_contain_text("23:00–00:00")
    expect(dialog.locator("tfoot")).to_contain_text("-$36.00")
    expect(dialog.locator("tfoot")).to_contain_text("$4,928.00")  # 5,000 - 36 - 36 after the middle day


def test_a_day_of_delivery_is_one_row_that_opens_to_its_hours(page: Page, demo: dict[str, int]) -> None:
    first = _three_days_of_delivery(demo["advertiser@demo.example"])
    login(page, "advertiser@demo.example")
    page.goto("/funds")
    expect(page.locator("[data-kpi=balance]")).to_have_text("$4,892.00")
    _open_the_middle_day(page, first + timedelta(days=1))
    screenshot(page, "funds-ledger-hours")
    page.get_by_role("button", name="Close").click()
    expect(page.locator("[data-ledger-hours]")).to_have_count(0)


def test_the_agencys_payment_list_reads_the_same(page: Page, demo: dict[str, int]) -> None:
    advertiser = demo["advertiser@demo.example"]
    first = _three_days_of_delivery(advertiser)
    login(page, "agency@demo.example")
    page.goto(f"/agency/advertiser/payment-list/{advertiser}")
    expect(page.locator("[data-payment-balance]")).to_have_text("$4,892.00")
    _open_the_middle_day(page, first + timedelta(days=1))
