"""The ledger a person reads (ledger.grouped_ledger, GET /api/funds/{id}/ledger?group=day): a day's delivery
charges in one row that opens to its hours, deposits and adjustments as single rows, the balance after each row,
every cent accounted for; another tenant's ledger out of reach."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlmodel import Session, select

from app.access.models import UserSettings
from app.demo import simulator
from app.demo.advertising import approve_demo_exchanges, seed_demo_advertising
from app.funds import ledger
from app.funds import service as funds
from app.funds.models import LedgerEntry
from app.kernel.errors import NotFound
from tests.helpers import actor_of, bearer_headers, other_tenant, user_by_email

ADMIN, AGENCY, ADVERTISER = "admin@demo.example", "agency@demo.example", "advertiser@demo.example"
# A UTC midnight after the demo's opening deposit (booked 31 days ago).
DAY_ONE = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=10)
DAY_TWO = DAY_ONE + timedelta(days=1)


def _charge_hours(db: Session, advertiser_id: int, first_hour: datetime, hours: int, spend_micros: int) -> None:
    """One statistics batch an hour, booked at the hour it delivered in (as the simulator does)."""
    for n in range(hours):
        hour = first_hour + timedelta(hours=n)
        funds.charge_delivery(db, charges={advertiser_id: spend_micros + n * 1_111}, reference=f"t:{hour:%Y%m%d%H}",
                              booked_at=hour)


@pytest.fixture
def two_days(db: Session) -> int:
    """The demo advertiser (agency margin 12.5 %): its $5,000 opening deposit, 24 charged hours on day one, and on
    day two 10 hours, a $300 deposit, 6 more hours."""
    advertiser = user_by_email(db, ADVERTISER)
    assert advertiser.id is not None
    settings = db.get(UserSettings, advertiser.id)
    assert settings is not None
    settings.margin_bps = 1250
    db.add(settings)
    _charge_hours(db, advertiser.id, DAY_ONE, 24, 1_234_567)
    _charge_hours(db, advertiser.id, DAY_TWO, 10, 2_345_678)
    funds.append_entry(db, advertiser_id=advertiser.id, amount_micros=300_000_000, kind="deposit", note="Wire 7",
                       reference=None, booked_at=DAY_TWO + timedelta(hours=10, minutes=30))
    _charge_hours(db, advertiser.id, DAY_TWO + timedelta(hours=11), 6, 3_456_789)
    db.flush()
    return advertiser.id


CENT = Decimal("0.01")


def _rounded(micros: int) -> Decimal:
    return (Decimal(micros) / 1_000_000).quantize(CENT)


def _cents(text: object) -> Decimal:
    value = Decimal(str(text))
    assert value == value.quantize(CENT) and isinstance(text, str)  # dollars as text, to the cent
    return value


def test_a_day_of_delivery_is_one_row_whose_hours_add_up_to_it(db: Session, two_days: int) -> None:
    rows = ledger.grouped_ledger(db, actor=actor_of(db, ADVERTISER), advertiser_id=two_days)
    entries = db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == two_days)).all()
    assert len(entries) == 1 + 2 * 40 + 1  # opening deposit, spend and margin for 40 hours, one more deposit
    # Newest first: day two's last 6 hours, the deposit that split day two, day two's first 10 hours, day one,
    # the opening deposit.
    assert [(r.kind, r.date[:10], len(getattr(r, "hours", []))) for r in rows] == [
        ("delivery", f"{DAY_TWO:%Y-%m-%d}", 6), ("deposit", f"{DAY_TWO:%Y-%m-%d}", 0),
        ("delivery", f"{DAY_TWO:%Y-%m-%d}", 10), ("delivery", f"{DAY_ONE:%Y-%m-%d}", 24),
        ("deposit", rows[-1].date[:10], 0)]
    for row in rows:
        if row.kind != "delivery":
            continue
        hours = row.hours
        # The entries the row stands for, read straight from the ledger: its hours' entries.
        day = [e for e in entries if e.kind in ("spend", "margin") and
               (e.created_at.replace(tzinfo=UTC) if e.created_at.tzinfo is None else e.created_at).isoformat()[:13]
               in {h.hour[:13] for h in hours}]
        assert row.entries == len(day) == 2 * len(hours)
        # Its total, spend and margin are theirs exactly in micro-dollars, and within a cent in dollars (each
        # shown amount is a step between shown balances, app/funds/footing.py); spend and margin add up to it.
        assert row.amount_micros == sum(e.amount_micros for e in day)
        assert row.spend_micros == sum(e.amount_micros for e in day if e.kind == "spend")
        assert row.margin_micros == sum(e.amount_micros for e in day if e.kind == "margin")
        assert abs(_cents(row.amount) - _rounded(row.amount_micros)) <= CENT
        assert _cents(row.margin) == _rounded(row.margin_micros)
        assert _cents(row.spend) + _cents(row.margin) == _cents(row.amount)
        # Its hours' shown figures add up to it, to the cent.
        for figure in ("amount", "spend", "margin"):
            assert sum(_cents(getattr(h, figure)) for h in hours) == _cents(getattr(row, figure)), figure
        assert all(_cents(h.spend) + _cents(h.margin) == _cents(h.amount) for h in hours)
        # An hour a line, newest first, each with its balance; the last hour's is the row's.
        assert [h.hour for h in hours] == sorted((h.hour for h in hours), reverse=True)
        assert hours[0].balance == row.balance
        for later, earlier in zip(hours, hours[1:], strict=False):
            assert _cents(later.balance) - _cents(earlier.balance) == _cents(later.amount)
    day_one = rows[3]
    assert day_one.hours[-1].hour.startswith(f"{DAY_ONE:%Y-%m-%d}T00:00")
    # 1.234567 of spend and 0.154321 of margin (12.5 %) take the balance from 5000.00 to 4998.611112: the line
    # shows the margin rounded, -0.15, and the spend as the rest of -1.39, -1.24 (-1.23 would not add up).
    assert [getattr(day_one.hours[-1], k) for k in ("spend", "margin", "amount", "balance")] == [
        "-1.24", "-0.15", "-1.39", "4998.61"]
    assert (day_one.hours[-1].margin_micros, day_one.hours[-1].balance_micros) == (-154_321, 4_998_611_112)


def test_each_row_shows_the_balance_after_it(db: Session, two_days: int) -> None:
    actor = actor_of(db, ADVERTISER)
    rows = ledger.grouped_ledger(db, actor=actor, advertiser_id=two_days)
    assert rows[0].balance == ledger.advertiser_balance(db, actor=actor, advertiser_id=two_days).balance
    entries = db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == two_days)).all()
    booked = sorted(entries, key=lambda e: (e.created_at, e.id))
    for n, row in enumerate(rows):  # the balance after a row: every entry booked up to its last one
        entries_up_to_it = sum(int(r.entries) for r in rows[n:])
        assert _cents(row.balance) == _rounded(sum(e.amount_micros for e in booked[:entries_up_to_it]))
    for later, earlier in zip(rows, rows[1:], strict=False):
        assert _cents(later.balance) - _cents(earlier.balance) == _cents(later.amount)
    assert rows[-1].amount == rows[-1].balance == "5000.00" and rows[-1].note == "Opening deposit"
    assert rows[1].note == "Wire 7" and rows[1].amount == "300.00"
    assert sum(int(r.entries) for r in rows) == 82


def test_another_tenants_ledger_is_out_of_reach(db: Session, two_days: int) -> None:
    _rival_agency, rival_advertiser = other_tenant(db)
    assert rival_advertiser.id is not None
    for email in (AGENCY, ADVERTISER):
        with pytest.raises(NotFound):
            ledger.grouped_ledger(db, actor=actor_of(db, email), advertiser_id=rival_advertiser.id)
    with pytest.raises(NotFound):  # a rival advertiser cannot read the demo's either
        ledger.grouped_ledger(db, actor=actor_of(db, "rival-adv@other.example"), advertiser_id=two_days)
    with pytest.raises(NotFound):  # an agency's own id is no advertiser's ledger
        ledger.grouped_ledger(db, actor=actor_of(db, ADMIN), advertiser_id=user_by_email(db, AGENCY).id)


def test_the_api_offers_the_day_rows_and_keeps_the_entries_by_default(client, db: Session, two_days: int) -> None:
    db.commit()  # the API reads in its own transactions
    headers = bearer_headers(client, AGENCY)
    grouped = client.get(f"/api/funds/{two_days}/ledger", params={"group": "day"}, headers=headers)
    assert grouped.status_code == 200
    rows = grouped.json()["data"]["items"]
    assert [r["kind"] for r in rows] == ["delivery", "deposit", "delivery", "delivery", "deposit"]
    assert _cents(rows[3]["amount"]) < 0 and len(rows[3]["hours"]) == 24
    entries = client.get(f"/api/funds/{two_days}/ledger", headers=headers, params={"limit": 500}).json()["data"]["items"]
    assert len(entries) == 82 and {e["kind"] for e in entries} == {"deposit", "spend", "margin"}
    assert client.get(f"/api/agency/payment-history/{two_days}", headers=headers).json()["data"] == entries
    assert client.get(f"/api/funds/{two_days}/ledger", params={"group": "week"}, headers=headers).status_code == 422

    rival = other_tenant(db)[1].id
    db.commit()
    assert client.get(f"/api/funds/{rival}/ledger", params={"group": "day"}, headers=headers).status_code == 404


def test_simulated_days_read_as_a_row_per_campaign_and_day(db: Session) -> None:
    """The demo's 30 days made 411 rows: the simulator books each hour's charge at that hour, by campaign."""
    advertiser = actor_of(db, ADVERTISER)
    seed_demo_advertising(db, actor=advertiser)
    approve_demo_exchanges(db, actor=actor_of(db, ADMIN))
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    result = simulator.simulate(db, days=3, seed=3, now=now)
    assert result["batches_written"] > 24
    rows = ledger.grouped_ledger(db, actor=advertiser, advertiser_id=advertiser.id)
    delivery = [r for r in rows if r.kind == "delivery"]
    assert 3 <= len({r.date for r in delivery}) <= 4  # the days the three days' hours fall on
    assert len({(r.date, r.campaign_id) for r in delivery}) == len(delivery)  # a row per campaign and day
    assert all(r.campaign_id and r.campaign for r in delivery)  # the simulator knows its campaigns
    assert len({r.campaign_id for r in delivery}) > 1
    charged_hours = {h.hour for r in delivery for h in r.hours}  # type: ignore[attr-defined]
    assert len(charged_hours) == result["batches_written"]
