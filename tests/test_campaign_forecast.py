"""Forecast while editing (app/campaigns/forecast.py): figures from a known history of the advertiser's own
delivery, as ranges; the budgets' caps; a bid below every cleared price; "no history for this targeting"; row
scope (another tenant's advertiser is not found); and POST /api/campaigns/forecast."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session

from app.campaigns.forecast import forecast
from app.campaigns.forecast_schemas import ForecastDraft
from app.kernel.db import run
from app.kernel.errors import Invalid, NotFound
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers, other_tenant

TODAY = date(2026, 11, 20)
DAYS = 10  # the advertiser delivered on the 10 days before TODAY


def history(advertiser_id: int, today: date = TODAY) -> None:
    """Day k (0..9, oldest first): in the US 1000 * (k + 1) impressions at a $2 eCPM over 4 devices (of 20 that
    come back on other days); in DE 500 impressions at $6, with no device id."""
    rows = []
    for k in range(DAYS):
        hour = datetime.combine(today - timedelta(days=DAYS - k), datetime.min.time()) + timedelta(hours=12)
        place = {"hour": hour, "advertiser_id": advertiser_id, "campaign_id": 1, "creative_id": 0,
                 "exchange": "Magnite", "os": "Android", "app": "com.example.game", "device_type": "phone"}
        for device in range(4):
            impressions = 250 * (k + 1)
            rows.append(FactRow(**place, country="US", impressions=impressions, spend_micros=impressions * 2000,
                                device=f"{(k * 2 + device) % 20:016x}"))
        rows.append(FactRow(**place, country="DE", impressions=500, spend_micros=500 * 6000))
    get_store().ingest("forecast-history", rows, source="test")


@pytest.fixture
def advertiser(db: Session) -> Any:
    me = actor_of(db, "advertiser@demo.example")
    history(me.id)
    return me


def ask(db: Session, actor: Any, **draft: Any) -> Any:
    body = {"bid": "5.00", "starts_at": "2026-12-01", "ends_at": "2026-12-10", **draft}
    return forecast(db, actor=actor, draft=ForecastDraft.model_validate(body), today=TODAY)


def test_the_forecast_is_the_spread_of_the_matching_days(db: Session, advertiser: Any) -> None:
    answer = ask(db, advertiser, targeting={"countries": ["US"], "languages": ["en"]})
    assert (answer.no_history, answer.history_days, answer.history_end) == (False, DAYS, TODAY - timedelta(days=1))
    # Days of 1,000 .. 10,000 impressions: the 10th and 90th percentiles and the mean; $2 per thousand.
    assert answer.impressions_per_day.model_dump() == {"low": 1900, "expected": 5500, "high": 9100}
    assert answer.spend_per_day.model_dump() == {"low": "3.80", "expected": "11.00", "high": "18.20"}
    assert (answer.bid_share, answer.cleared_price, answer.capped_by) == (1.0, "2.00", [])
    assert answer.not_applied == ["languages"]  # delivery does not record a language: said, not ignored silently
    # Over a flight as long as the history, reach is the history's distinct devices (20); a day's are 4.
    assert answer.reach_days == 10 and 18 <= answer.reach.expected <= 22
    one_day = ask(db, advertiser, targeting={"countries": ["US"]}, ends_at="2026-12-01")
    assert one_day.reach.model_dump() == {"low": 4, "expected": 4, "high": 4}


def test_budgets_cap_spend_and_impressions_alike(db: Session, advertiser: Any) -> None:
    daily = ask(db, advertiser, targeting={"countries": ["US"]}, daily_budget="5.00")
    assert daily.spend_per_day.model_dump() == {"low": "3.80", "expected": "5.00", "high": "5.00"}
    assert daily.impressions_per_day.model_dump() == {"low": 1900, "expected": 2500, "high": 2500}
    assert daily.capped_by == ["daily_budget"]
    total = ask(db, advertiser, targeting={"countries": ["US"]}, total_budget="30.00")  # $3 a day over 10 days
    assert total.spend_per_day.expected == "3.00" and total.capped_by == ["total_budget"]
    assert total.reach.expected < ask(db, advertiser, targeting={"countries": ["US"]}).reach.expected


def test_the_bid_wins_only_delivery_that_cleared_below_it(db: Session, advertiser: Any) -> None:
    everywhere = ask(db, advertiser, bid="3.00")  # wins the US ($2), not DE ($6)
    assert everywhere.impressions_per_day.expected == 5500 and everywhere.bid_share == round(55_000 / 60_000, 4)
    too_low = ask(db, advertiser, bid="1.00")
    assert too_low.no_history is False and too_low.impressions_per_day.model_dump() == {"low": 0, "expected": 0, "high": 0}
    assert "below every price" in too_low.message and too_low.spend_per_day.expected == "0.00"


def test_no_history_for_the_targeting_gives_no_figures(db: Session, advertiser: Any) -> None:
    answer = ask(db, advertiser, targeting={"countries": ["FR"]})
    assert answer.no_history is True and answer.message.startswith("No history for this targeting")
    assert answer.impressions_per_day is None and answer.spend_per_day is None and answer.reach is None
    unknown = ask(db, advertiser, targeting={"countries": ["DE"]}, bid="10.00")  # history, but no device ids: reach not told
    assert unknown.reach is None and "no device ids" in unknown.message and unknown.impressions_per_day.expected == 500


def test_only_advertisers_in_scope_and_bad_fields_named(db: Session, advertiser: Any) -> None:
    agency = actor_of(db, "agency@demo.example")
    assert ask(db, agency, advertiser_id=advertiser.id).impressions_per_day is not None
    _, rival = other_tenant(db)
    history(rival.id)
    with pytest.raises(NotFound):
        ask(db, agency, advertiser_id=rival.id)
    with pytest.raises(NotFound):
        ask(db, advertiser, advertiser_id=rival.id)
    with pytest.raises(Invalid) as caught:
        ask(db, agency)  # an agency says whose
    assert list(caught.value.fields) == ["advertiser_id"]
    with pytest.raises(Invalid) as caught:
        ask(db, advertiser, bid="two", daily_budget="-1", ends_at="2026-11-01")
    assert set(caught.value.fields) == {"bid", "daily_budget", "ends_at"}


def test_the_api_answers_the_forecast_and_names_bad_fields(client: Any) -> None:
    advertiser_id = run(lambda db: actor_of(db, "advertiser@demo.example").id)
    history(advertiser_id, today=datetime.now(UTC).date())
    me = bearer_headers(client, "advertiser@demo.example")
    reply = client.post("/api/campaigns/forecast", headers=me, json={"bid": "5.00", "targeting": {"countries": ["US"]}})
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert data["no_history"] is False and set(data["impressions_per_day"]) == {"low", "expected", "high"}
    assert data["reach_days"] == 28  # an open-ended flight
    refused = client.post("/api/campaigns/forecast", headers=me, json={"bid": "abc"})
    assert refused.status_code == 422 and "bid" in refused.json()["data"]["fields"]
    rival = run(lambda db: other_tenant(db)[1].id)
    assert client.post("/api/campaigns/forecast", headers=me, json={"bid": "1", "advertiser_id": rival}).status_code == 404
    assert client.post("/api/campaigns/forecast", json={"bid": "1"}).status_code == 401


def test_days_before_the_targeting_first_delivered_do_not_count(db: Session, advertiser: Any) -> None:
    """A targeting the advertiser bought only lately (GB, the last 3 days) is judged by those days, not by 28 days
    mostly without it."""
    late = [FactRow(hour=datetime.combine(TODAY - timedelta(days=day), datetime.min.time()), advertiser_id=advertiser.id,
                    campaign_id=2, creative_id=0, exchange="Magnite", os="iOS", country="GB", app="com.example.game",
                    device_type="phone", impressions=3000, spend_micros=3000 * 1000) for day in (1, 2, 3)]
    get_store().ingest("late", late, source="test")
    answer = ask(db, advertiser, targeting={"countries": ["GB"]})
    assert (answer.history_days, answer.history_start) == (3, TODAY - timedelta(days=3))
    assert answer.impressions_per_day.model_dump() == {"low": 3000, "expected": 3000, "high": 3000}


def test_a_cpc_draft_is_told_what_a_click_cost(db: Session, advertiser: Any) -> None:
    """A CPC bid's cleared price is the history's spend per click ($9 over 30 clicks: $0.30); a history without a
    click has none to tell (the fixture's US rows carry no clicks)."""
    clicked = [FactRow(hour=datetime.combine(TODAY - timedelta(days=day), datetime.min.time()), advertiser_id=advertiser.id,
                       campaign_id=3, creative_id=0, exchange="Magnite", os="iOS", country="FR", app="com.example.game",
                       device_type="phone", impressions=1000, clicks=10, spend_micros=3_000_000) for day in (1, 2, 3)]
    get_store().ingest("clicked", clicked, source="test")
    answer = ask(db, advertiser, targeting={"countries": ["FR"]}, bid_strategy="cpc", bid="1.00")
    assert (answer.cleared_price, answer.bid_share) == ("0.30", 1.0)
    assert ask(db, advertiser, targeting={"countries": ["FR"]}, bid_strategy="cpc", bid="0.20").bid_share == 0.0
    assert ask(db, advertiser, targeting={"countries": ["US"]}, bid_strategy="cpc", bid="1.00").cleared_price is None
