"""The simulator: the demo's active campaigns deliver inside their flights and budgets, charged to a balance
that stays positive, with plausible rates; the same seed gives the same numbers, and a second run adds
nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session, select

from app.campaigns.models import Campaign, CampaignStatus
from app.demo import simulator
from app.demo.advertising import approve_demo_exchanges, seed_demo_advertising
from app.funds import ledger
from app.warehouse import get_store
from app.warehouse.base import StatsQuery
from tests.helpers import actor_of

NOW = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)


def by_campaign_day(days: int = 3) -> dict[tuple[int, Any], dict[str, Any]]:
    query = StatsQuery(start=(NOW - timedelta(days=days)).date(), end=NOW.date(),
                       dimensions=("campaign_id", "date"), metrics=("impressions", "clicks", "spend", "ctr", "ecpm"))
    return {(r["campaign_id"], r["date"]): r for r in get_store().query(query)}


@pytest.fixture
def demo(db: Session) -> dict[str, Any]:
    advertiser = actor_of(db, "advertiser@demo.example")
    seed_demo_advertising(db, actor=advertiser)
    approve_demo_exchanges(db, actor=actor_of(db, "admin@demo.example"))  # delivery runs on approved exchanges only
    return {"advertiser": advertiser, "admin": actor_of(db, "admin@demo.example"),
            "campaigns": {c.name: c for c in db.exec(select(Campaign).where(Campaign.advertiser_id == advertiser.id))}}


def test_two_days_of_delivery_follow_the_campaigns(db: Session, demo: dict[str, Any]) -> None:
    before = ledger.balance_micros(db, actor=demo["admin"], advertiser_id=demo["advertiser"].id)
    result = simulator.simulate(db, days=2, seed=7, now=NOW)
    assert result["rows"] > 0 and result["spend_micros"] > 0
    rows = by_campaign_day()
    campaigns = demo["campaigns"]
    active = {c.id for c in campaigns.values() if c.status == CampaignStatus.ACTIVE}
    assert {campaign_id for campaign_id, _ in rows} == active  # paused, draft and completed ones deliver nothing
    for (campaign_id, _day), row in rows.items():
        campaign = next(c for c in campaigns.values() if c.id == campaign_id)
        # A UTC day may hold parts of two local days: at most two daily budgets.
        assert row["spend_micros"] <= 2 * campaign.daily_budget_micros
        assert 0.1 <= row["ctr"] <= 2.0 and 0.5 <= row["ecpm"] <= 8.0
    total = sum(r["spend_micros"] for r in rows.values())
    assert total == result["spend_micros"]
    after = ledger.balance_micros(db, actor=demo["admin"], advertiser_id=demo["advertiser"].id)
    assert after == before - total and after > 0

    again = simulator.simulate(db, days=2, seed=99, now=NOW)  # the same hours: nothing new, nothing charged
    assert again["batches_written"] == 0
    assert ledger.balance_micros(db, actor=demo["admin"], advertiser_id=demo["advertiser"].id) == after


def test_flights_and_balance_bound_delivery(db: Session, demo: dict[str, Any]) -> None:
    installs = demo["campaigns"]["App Install Push US"]  # no dayparting: it delivers every hour of its flight
    installs.starts_at = NOW - timedelta(hours=5)  # began five hours ago: no delivery before that
    db.add(installs)
    db.flush()
    simulator.simulate(db, days=2, seed=3, now=NOW)
    query = StatsQuery(start=(NOW - timedelta(days=3)).date(), end=NOW.date(), dimensions=("hour",),
                       filters={"campaign_id": (installs.id,)}, metrics=("impressions",))
    hours = [r["hour"] for r in get_store().query(query)]
    start = (NOW - timedelta(hours=5)).replace(tzinfo=None)
    assert hours == [start + timedelta(hours=h) for h in range(5)]  # up to, not including, the current hour


def test_the_same_seed_gives_the_same_numbers(db: Session, demo: dict[str, Any]) -> None:
    simulator.simulate(db, days=1, seed=11, now=NOW)
    first = by_campaign_day()
    get_store().clear()
    simulator.simulate(db, days=1, seed=11, now=NOW)
    assert by_campaign_day() == first
    get_store().clear()
    simulator.simulate(db, days=1, seed=12, now=NOW)
    assert by_campaign_day() != first


def test_an_empty_balance_stops_delivery(db: Session, demo: dict[str, Any]) -> None:
    from app.funds import service as funds

    funds.append_entry(db, advertiser_id=demo["advertiser"].id, amount_micros=-4_990_000_000, kind="adjustment",
                       note="test", reference=None)
    simulator.simulate(db, days=2, seed=5, now=NOW)
    balance = ledger.balance_micros(db, actor=demo["admin"], advertiser_id=demo["advertiser"].id)
    assert 0 < balance < 1_000_000  # spent down to (nearly) nothing, never below zero


def test_a_flight_delivers_from_its_start_hour_until_its_end(db: Session, demo: dict[str, Any]) -> None:
    installs = demo["campaigns"]["App Install Push US"]  # no dayparting: it delivers every hour of its flight
    installs.starts_at, installs.ends_at = NOW - timedelta(hours=5), NOW - timedelta(hours=2)
    db.add(installs)
    db.flush()
    simulator.simulate(db, days=1, seed=3, now=NOW)
    query = StatsQuery(start=(NOW - timedelta(days=2)).date(), end=NOW.date(), dimensions=("hour",),
                       filters={"campaign_id": (installs.id,)}, metrics=("impressions",))
    start = (NOW - timedelta(hours=5)).replace(tzinfo=None)
    assert [r["hour"] for r in get_store().query(query)] == [start + timedelta(hours=h) for h in range(3)]


def test_the_total_budget_holds_across_runs(db: Session, demo: dict[str, Any]) -> None:
    installs = demo["campaigns"]["App Install Push US"]
    installs.total_budget_micros = 3_000_000  # $3 in all, a fraction of one day's $150
    db.add(installs)
    db.flush()
    query = StatsQuery(start=(NOW - timedelta(days=3)).date(), end=NOW.date(), filters={"campaign_id": (installs.id,)},
                       metrics=("spend",))
    simulator.simulate(db, days=1, seed=3, now=NOW - timedelta(days=1))
    first = get_store().query(query)[0]["spend_micros"]
    assert 2_990_000 <= first <= 3_000_000  # spent to the cent
    simulator.simulate(db, days=1, seed=3, now=NOW)  # a later run knows what was spent before
    assert get_store().query(query)[0]["spend_micros"] == first


def test_the_agency_margin_never_takes_the_balance_below_zero(db: Session, demo: dict[str, Any]) -> None:
    from app.access.models import UserSettings
    from app.funds import service as funds

    settings = db.get(UserSettings, demo["advertiser"].id)
    assert settings is not None
    settings.margin_bps = 1500
    db.add(settings)
    funds.append_entry(db, advertiser_id=demo["advertiser"].id, amount_micros=-4_990_000_000, kind="adjustment",
                       note="test", reference=None)
    simulator.simulate(db, days=2, seed=5, now=NOW)
    balance = ledger.balance_micros(db, actor=demo["admin"], advertiser_id=demo["advertiser"].id)
    assert 0 < balance < 1_000_000
