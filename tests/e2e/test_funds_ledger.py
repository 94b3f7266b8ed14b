"""The ledger in a real browser: three days of hourly delivery charges for two campaigns read as a row per
campaign and day, and a click on a campaign's day opens its hours, naming the campaign with a link to its page
(the advertiser's /funds and the agency's payment list alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from playwright.sync_api import Locator, Page, expect

from app.campaigns.models import Campaign, CampaignStatus
from app.funds import service as funds
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import FOOTING_SPENDS, statement_to_foot

pytestmark = pytest.mark.e2e
DAYS = 3


def _three_days_of_delivery(advertiser_id: int) -> tuple[datetime, int]:
    """72 hourly charges of $1.00 to campaign "Alpha" and $0.50 to "Beta" ($36.00 a day), booked at their
    hours, ending yesterday; the first day and Alpha's id."""
    first = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=DAYS)

    def charge(db):  # type: ignore[no-untyped-def]
        alpha, beta = (Campaign(advertiser_id=advertiser_id, name=name, status=CampaignStatus.ACTIVE,
                                starts_at=first - timedelta(days=1), total_budget_micros=1_000_000_000,
                                bid_micros=1_000_000) for name in ("Alpha", "Beta"))
        db.add_all([alpha, beta])
        db.flush()
        for n in range(DAYS * 24):
            hour = first + timedelta(hours=n)
            funds.charge_delivery(db, charges={advertiser_id: {alpha.id: 1_000_000, beta.id: 500_000}},
                                  reference=f"e2e:{hour:%Y%m%d%H}", booked_at=hour)
        return alpha.id
    return first, run(charge)


def _open_the_middle_days_alpha(page: Page, day: datetime) -> Locator:
    """The hours of campaign Alpha on the middle day, opened from its row; the dialog."""
    expect(page.get_by_text(f"Rows: {2 * DAYS + 1}")).to_be_visible()  # two campaigns a day, the opening deposit
    expect(page.get_by_text("24 hourly charges")).to_have_count(2 * DAYS)
    rows = page.get_by_role("row").filter(has_text="24 hourly charges")
    expect(rows.filter(has_text="Alpha")).to_have_count(DAYS)
    rows.filter(has_text="Alpha").nth(1).click()  # newest first: the middle day
    dialog = page.locator(f"[data-ledger-hours='{day:%Y-%m-%d}']")
    expect(dialog.get_by_role("heading")).to_have_text(f"Delivery on {day:%Y-%m-%d}, hour by hour (UTC)")
    expect(dialog.locator("[data-ledger-campaign]")).to_have_text("Alpha")
    expect(dialog.locator("tbody tr")).to_have_count(24)
    expect(dialog.locator("tbody tr").first).to_contain_text("23:00–00:00")
    expect(dialog.locator("tfoot")).to_contain_text("-$24.00")
    expect(dialog.locator("tfoot td").nth(3)).to_have_attribute("title", "-24.000000")  # exact, to the micro-dollar
    # A day's rows are counted in the order shown: Alpha, on top, comes last, so its balance is the day's.
    expect(dialog.locator("tfoot")).to_contain_text("$4,928.00")  # 5,000 - 36 - 36 after the middle day
    return dialog


def test_a_campaigns_day_of_delivery_is_one_row_that_opens_to_its_hours(page: Page, demo: dict[str, int]) -> None:
    first, alpha = _three_days_of_delivery(demo["advertiser@demo.example"])
    login(page, "advertiser@demo.example")
    page.goto("/funds")
    expect(page.locator("[data-kpi=balance]")).to_have_text("$4,892.00")
    screenshot(page, "funds-ledger")
    _open_the_middle_days_alpha(page, first + timedelta(days=1))
    screenshot(page, "funds-ledger-hours")
    page.get_by_role("button", name="Close").click()
    expect(page.locator("[data-ledger-hours]")).to_have_count(0)
    _open_the_middle_days_alpha(page, first + timedelta(days=1)).get_by_role("link", name="Alpha").click()
    page.wait_for_url(f"**/campaign/{alpha}/")


def test_the_agencys_payment_list_reads_the_same(page: Page, demo: dict[str, int]) -> None:
    advertiser = demo["advertiser@demo.example"]
    first, _alpha = _three_days_of_delivery(advertiser)
    login(page, "agency@demo.example")
    page.goto(f"/agency/advertiser/payment-list/{advertiser}")
    expect(page.locator("[data-payment-balance]")).to_have_text("$4,892.00")
    _open_the_middle_days_alpha(page, first + timedelta(days=1))
    page.get_by_role("button", name="Close").click()
    # The statement's search runs over the whole ledger on the server: one campaign's days, balances unchanged.
    page.fill(".dsp-grid-search input", "beta")
    expect(page.get_by_text(f"Rows: {DAYS}")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text="Alpha")).to_have_count(0)
    # Yesterday's Beta row keeps its place in the whole statement: counted before Alpha's, $4,928.00 - $12.00.
    expect(page.get_by_role("row").filter(has_text="Beta").first).to_contain_text("$4,916.00")
    screenshot(page, "payment-list-searched")


def _dollars(text: str) -> Decimal:
    """A money cell as the grid shows it ("-$1,234.50") as a number."""
    return Decimal(text.strip().replace("$", "").replace(",", ""))


def test_the_statement_shown_foots_row_by_row_and_adds_up_to_the_balance(page: Page, demo: dict[str, int]) -> None:
    """$100 and six spends of $1.234567: read bottom to top, every row's balance is the one below it plus its amount,
    and the amounts shown add up to the balance on the card (app/funds/footing.py)."""
    run(statement_to_foot)
    login(page, "footing@shop.example", lands_on="/dashboard")
    page.goto("/funds")
    expect(page.get_by_text(f"Rows: {1 + FOOTING_SPENDS}")).to_be_visible()
    expect(page.locator("[data-kpi=balance]")).to_have_text("$92.59")
    screenshot(page, "funds-statement-foots")
    rows = page.locator(".dsp-grid tbody tr")
    expect(rows).to_have_count(1 + FOOTING_SPENDS)
    expect(rows.filter(has_text="margin")).to_have_count(0)  # no agency margin: a rounding step never reads as one
    header = [text.strip().casefold() for text in page.locator(".dsp-grid thead th").all_inner_texts()]
    amount, balance = header.index("amount"), header.index("balance after")
    shown = [(_dollars(cells[amount]), _dollars(cells[balance]))
             for cells in (row.locator("td").all_inner_texts() for row in rows.all())]
    below = Decimal("0.00")
    for row_amount, row_balance in reversed(shown):  # newest first on the page
        assert below + row_amount == row_balance, shown
        below = row_balance
    assert sum(a for a, _b in shown) == shown[0][1] == Decimal("92.59")
