"""Dashboards add up to the ingested rows, compare with the previous period, rank the top rows, and flag
the campaigns that need attention; an agency's dashboard holds only its advertisers."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlmodel import select

from app.campaigns.models import Campaign, CampaignStatus
from app.funds.models import LedgerEntry
from app.statistics import dashboards
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of

TODAY = datetime.now(UTC).date()


def _campaign(db, advertiser_id: int, name: str, *, days_ago: int, budget_micros: int) -> Campaign:
    campaign = Campaign(advertiser_id=advertiser_id, name=name, status=CampaignStatus.ACTIVE,
                        starts_at=datetime.combine(TODAY - timedelta(days=days_ago), datetime.min.time(), UTC),
                        ends_at=datetime.combine(TODAY + timedelta(days=days_ago), datetime.min.time(), UTC),
                        total_budget_micros=budget_micros, bid_micros=2_000_000)
    db.add(campaign)
    db.flush()
    return campaign


def _rows(advertiser_id: int, campaign_id: int, day: date, *, impressions: int, spend_micros: int,
          exchange: str = "Google AdX") -> list[FactRow]:
    return [FactRow(hour=datetime.combine(day, datetime.min.time()).replace(hour=12), advertiser_id=advertiser_id,
                    campaign_id=campaign_id, creative_id=0, exchange=exchange, os="Android", country="US",
                    app="com.example", device_type="phone", impressions=impressions, clicks=impressions // 100,
                    spend_micros=spend_micros)]


def test_figures_add_up_and_trend_against_the_previous_period(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    steady = _campaign(db, advertiser, "Steady", days_ago=10, budget_micros=200_000_000)
    db.commit()
    rows = []
    for n in range(14):  # the last 14 days: 7 in the period, 7 before it
        rows += _rows(advertiser, steady.id, TODAY - timedelta(days=n), impressions=1000 if n < 7 else 500,
                      spend_micros=2_000_000, exchange="Google AdX" if n % 2 else "Magnite")
    get_store().ingest("dash-1", rows, source="test")

    actor = actor_of(db, "advertiser@demo.example")
    board = dashboards.dashboard(db, actor=actor, start=TODAY - timedelta(days=6), end=TODAY)
    assert board.totals["impressions"] == 7000 and board.totals["spend_micros"] == 14_000_000
    assert board.previous["impressions"] == 3500
    assert board.trend["impressions"] == 100.0 and board.trend["spend"] == 0.0
    assert [d["impressions"] for d in board.by_day] == [1000] * 7
    by_exchange = {r["exchange"]: r["impressions"] for r in board.breakdowns["exchange"]}
    assert by_exchange == {"Magnite": 4000, "Google AdX": 3000}
    assert board.breakdowns["campaign"][0]["campaign_name"] == "Steady"
    assert "advertiser" not in board.breakdowns  # an advertiser has no "by advertiser" table

    # A campaign filter narrows every figure.
    empty = dashboards.dashboard(db, actor=actor, start=TODAY - timedelta(days=6), end=TODAY, campaign_ids=[999_999])
    assert empty.totals["impressions"] == 0 and empty.breakdowns["campaign"] == []


def test_insight_flags_under_delivery_no_spend_and_low_balance(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    for campaign in db.exec(select(Campaign)).all():
        db.delete(campaign)
    slow = _campaign(db, advertiser, "Slow", days_ago=9, budget_micros=1_000_000_000)
    silent = _campaign(db, advertiser, "Silent", days_ago=9, budget_micros=100_000_000)
    db.commit()
    rows = []
    for n in range(10):
        rows += _rows(advertiser, slow.id, TODAY - timedelta(days=n), impressions=100, spend_micros=1_000_000)
    rows += _rows(advertiser, silent.id, TODAY - timedelta(days=5), impressions=100, spend_micros=1_000_000)
    get_store().ingest("dash-2", rows, source="test")

    actor = actor_of(db, "advertiser@demo.example")
    found = dashboards.insight(db, actor=actor)
    reasons = {(a.campaign_name, a.reason) for a in found.attention}
    assert ("Silent", "no_spend") in reasons
    assert ("Slow", "under_delivery") in reasons  # $10 of the $500 an even pace would have spent by now
    assert ("Slow", "low_balance") not in reasons  # $5,000 covers far more than three days of $1
    slow_pacing = next(p for p in found.pacing if p.campaign_name == "Slow")
    assert slow_pacing.spent == 10.0 and slow_pacing.budget == 1000.0

    db.add(LedgerEntry(advertiser_id=advertiser, amount_micros=-4_999_000_000, kind="adjustment", note="test"))
    db.commit()
    reasons = {(a.campaign_name, a.reason) for a in dashboards.insight(db, actor=actor).attention}
    assert ("Slow", "low_balance") in reasons
    assert found.attention[0].reason == "no_spend"  # worst first


def test_an_agency_sees_only_its_advertisers(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("dash-3", _rows(advertiser, 0, TODAY, impressions=10, spend_micros=1)
                       + _rows(987_654, 0, TODAY, impressions=5, spend_micros=1), source="test")
    agency = dashboards.dashboard(db, actor=actor_of(db, "agency@demo.example"), start=TODAY, end=TODAY)
    assert agency.totals["impressions"] == 10
    assert [r["advertiser_id"] for r in agency.breakdowns["advertiser"]] == [advertiser]
    admin = dashboards.dashboard(db, actor=actor_of(db, "admin@demo.example"), start=TODAY, end=TODAY)
    assert admin.totals["impressions"] == 15


def test_the_api_answers_under_the_spec_names_in_scope(client, db, demo_ids) -> None:
    from tests.helpers import bearer_headers

    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("dash-api", _rows(advertiser, 0, TODAY, impressions=40, spend_micros=3_000_000,
                                         exchange="Magnite"), source="test")
    headers = bearer_headers(client, "advertiser@demo.example")
    overview = client.get("/api/dashboard/overview", headers=headers).json()
    assert overview["success"] and overview["data"]["totals"]["impressions"] == 40
    by_exchange = client.get("/api/dashboard/performanceByExchangeAdvertiser", headers=headers).json()["data"]
    assert [(r["exchange"], r["spend"]) for r in by_exchange] == [("Magnite", "3.00")]
    days = client.get("/api/dashboard/performance/day", params={"start": TODAY.isoformat(), "end": TODAY.isoformat()},
                      headers=headers).json()["data"]
    assert [d["impressions"] for d in days] == [40]
    bad = client.get("/api/dashboard/chart", params={"start": "2026-02-30"}, headers=headers)
    assert bad.status_code == 422 and "start" in bad.json()["data"]["fields"]
    # The admin/ family is staff's; an advertiser asking is refused.
    assert client.get("/api/admin/dashboard/overview", headers=headers).status_code == 403
    agency = bearer_headers(client, "agency@demo.example")
    assert client.get("/api/agency/dashboard/overview", headers=agency).json()["data"]["totals"]["impressions"] == 40
    other = client.get("/api/agency/dashboard/overview", params={"advertiser_id": demo_ids["admin@demo.example"]},
                       headers=agency)
    assert other.status_code == 404
