"""The statement (an advertiser's grouped ledger) pages on the server in its grids — /funds for the advertiser, the
payment list for staff and its agency — through components/ui/cursor_pages.py: the next page shows the older rows,
the balance and entry count beside it cover the whole ledger, and another agency's advertiser is not found."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlmodel import Session, select

from app.funds.ledger import statement_figures
from app.funds.models import LedgerEntry
from app.kernel.errors import NotFound
from app.kernel.money import MICROS_PER_DOLLAR
from components.funds.advertiser_funds import FundsPage
from components.funds.ledger import PAGE_SIZE
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.render import deliver_in_turn, grid_view, paged_grid, render_model, signed_in_console, to_page

ADVERTISER = "advertiser@demo.example"
START = datetime(2026, 1, 1, 12, tzinfo=UTC)


def _deposits(db: Session, advertiser_id: int, count: int) -> list[LedgerEntry]:
    """`count` deposits of $1, $2, ... booked a day apart (the newest last), and then the whole ledger."""
    db.add_all([LedgerEntry(advertiser_id=advertiser_id, amount_micros=n * MICROS_PER_DOLLAR, kind="deposit",
                            note=f"Deposit {n}", created_at=START + timedelta(days=n)) for n in range(1, count + 1)])
    db.commit()
    return list(db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == advertiser_id)))


def _amounts(model: dict[str, Any]) -> list[Decimal]:
    return [Decimal(str(row["amount"]).replace("$", "").replace(",", "")) for row in paged_grid(model)["rows"]]


def test_the_advertisers_statement_shows_a_page_then_the_older_rows(db: Session) -> None:
    advertiser = user_by_email(db, ADVERTISER)
    ledger = _deposits(db, advertiser.id or 0, 55)
    first = render_model(FundsPage, signed_in_console(ADVERTISER), "/funds")
    (second,) = deliver_in_turn(FundsPage, signed_in_console(ADVERTISER), "/funds", [to_page(2)])
    assert (paged_grid(first)["page"], paged_grid(first)["total"], len(paged_grid(first)["rows"])) == (
        1, len(ledger), PAGE_SIZE)
    assert Decimal(55) in _amounts(first) and Decimal(1) not in _amounts(first)  # newest first
    assert (paged_grid(second)["page"], len(paged_grid(second)["rows"])) == (2, len(ledger) - PAGE_SIZE)
    assert Decimal(55) not in _amounts(second) and Decimal(1) in _amounts(second)  # the oldest deposits


def test_the_payment_lists_figures_cover_every_entry_not_the_page(db: Session) -> None:
    """The figures beside the paged statement (the payment list's balance and entry count) are the whole
    ledger's; another agency's advertiser is not found for the agency."""
    advertiser = user_by_email(db, ADVERTISER)
    ledger = _deposits(db, advertiser.id or 0, 55)
    figures = statement_figures(db, actor=actor_of(db, "admin@demo.example"), advertiser_id=advertiser.id or 0)
    assert figures == (sum(e.amount_micros for e in ledger), len(ledger))
    _agency, rival = other_tenant(db)
    _deposits(db, rival.id or 0, 3)
    with pytest.raises(NotFound):
        statement_figures(db, actor=actor_of(db, "agency@demo.example"), advertiser_id=rival.id or 0)


def test_the_statement_searches_the_whole_ledger_on_the_server_and_keeps_its_balances(db: Session) -> None:
    """The search box finds rows on every page, not only the shown one (a word in any order, each somewhere in
    the row), starts again from the first page, and each row keeps the balance the whole statement gives it."""
    advertiser = user_by_email(db, ADVERTISER)
    _deposits(db, advertiser.id or 0, 55)
    walk = [to_page(2), grid_view(query="5 DEPOSIT")]
    _second, searched = deliver_in_turn(FundsPage, signed_in_console(ADVERTISER), "/funds", walk)
    grid = paged_grid(searched)
    fives = [n for n in range(55, 0, -1) if "5" in str(n)]  # newest first: 55, 54, ... 50, 45, 35, 25, 15, 5
    assert (grid["page"], grid["total"]) == (1, len(fives))
    assert [row["note"] for row in grid["rows"]] == [f"Deposit {n}" for n in fives]
    balances = {row["note"]: Decimal(str(row["balance"]).replace("$", "").replace(",", "")) for row in grid["rows"]}
    assert balances["Deposit 5"] == sum(range(1, 6)) and balances["Deposit 55"] == sum(range(1, 56))
    nothing = paged_grid(deliver_in_turn(FundsPage, signed_in_console(ADVERTISER), "/funds",
                                         [grid_view(query="refund")])[0])
    assert (nothing["rows"], nothing["total"]) == ([], 0)
