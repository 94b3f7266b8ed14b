"""A statement that foots (app/funds/footing.py): $100 deposited and six spends of $1.234567, each on a day of its
own. Every row's shown amount is the step between two shown balances, so read bottom to top each row is the one
below it plus its amount, the amounts shown add up to the balance shown, and the exact figures come beside them
in micro-dollars (service, API by entry and by day). Before, each amount was rounded on its own: the rows summed
to $92.62 against a balance of $92.59."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlmodel import Session

from app.funds import ledger
from app.funds import service as funds
from app.funds.footing import shown
from tests.helpers import (
    FOOTING_SPEND,
    FOOTING_SPENDS,
    actor_of,
    bearer_headers,
    statement_to_foot,
    user_by_email,
    walk_pages,
)

AGENCY = "agency@demo.example"
BALANCE = 100_000_000 - FOOTING_SPENDS * FOOTING_SPEND  # 92.592598


@pytest.fixture
def shop(db: Session) -> int:
    return statement_to_foot(db)


def assert_foots(rows: list[dict[str, Any]]) -> None:
    """Rows newest first, as a statement lists them: each row's shown balance is the one below it plus its shown
    amount, the oldest starts from nothing, the amounts add up to the newest balance, and the exact micro-dollars
    add up too, each shown balance being its exact one rounded."""
    assert rows
    below = Decimal("0.00")
    for row in reversed(rows):
        amount, balance = Decimal(row["amount"]), Decimal(row["balance"])
        assert below + amount == balance, f"{below} {amount:+} does not make {balance}"
        below = balance
    assert sum(Decimal(r["amount"]) for r in rows) == Decimal(rows[0]["balance"]) == Decimal("92.59")
    for row in rows:
        assert Decimal(row["balance"]) == shown(row["balance_micros"]), row
        assert abs(Decimal(row["amount"]) - Decimal(row["amount_micros"]) / 1_000_000) < Decimal("0.01"), row
    assert sum(r["amount_micros"] for r in rows) == rows[0]["balance_micros"] == BALANCE


def test_the_statement_foots_by_entry_and_by_day(db: Session, shop: int) -> None:
    actor = actor_of(db, AGENCY)
    entries = [row.model_dump() for row in ledger.payment_history(db, actor=actor, advertiser_id=shop)]
    days = [row.model_dump() for row in ledger.grouped_ledger(db, actor=actor, advertiser_id=shop)]
    assert len(entries) == len(days) == 1 + FOOTING_SPENDS
    assert_foots(entries)
    assert_foots(days)
    assert entries[-1]["amount"] == "100.00"  # an entry of whole cents shows its own amount
    assert {r["amount"] for r in days[:-1]} <= {"-1.23", "-1.24"}


def test_the_api_ledger_foots_and_carries_the_exact_figures(client, db: Session, shop: int) -> None:
    headers = bearer_headers(client, AGENCY)
    for group, limit in (("entry", 50), ("day", 50), ("entry", 3), ("day", 2)):  # the pages together
        assert_foots(walk_pages(client, headers, f"/api/funds/{shop}/ledger", limit, counted=True, group=group))
    assert_foots(client.get(f"/api/agency/payment-history/{shop}", headers=headers).json()["data"])
    balance = client.get(f"/api/funds/{shop}/balance", headers=headers).json()["data"]
    assert balance["balance_micros"] == BALANCE


def test_a_delivery_days_hours_add_up_to_it_with_spend_and_margin_side_by_side(client, db: Session) -> None:
    """A 12.5 % margin on spends of $1.234567: each hour's spend and margin add up to its amount on screen, and the
    hours to the day."""
    from app.access.models import UserSettings

    advertiser = user_by_email(db, "advertiser@demo.example")
    settings = db.get(UserSettings, advertiser.id)
    assert settings is not None
    settings.margin_bps = 1250
    db.add(settings)
    start = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    for hour in range(7):
        funds.charge_delivery(db, charges={advertiser.id: FOOTING_SPEND + hour}, reference=f"hour:{hour}",
                              booked_at=start + timedelta(hours=hour))
    db.commit()
    day = client.get(f"/api/funds/{advertiser.id}/ledger", headers=bearer_headers(client, AGENCY),
                     params={"group": "day"}).json()["data"]["items"][0]
    for figure in ("spend", "margin", "amount"):
        assert sum(Decimal(h[figure]) for h in day["hours"]) == Decimal(day[figure]), figure
    for line in [day, *day["hours"]]:
        assert Decimal(line["spend"]) + Decimal(line["margin"]) == Decimal(line["amount"]), line
        assert line["spend_micros"] + line["margin_micros"] == line["amount_micros"]
