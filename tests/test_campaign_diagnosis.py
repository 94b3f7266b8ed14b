""""Why isn't it delivering?" (issue 27): a campaign set up to deliver has nothing to fix and shows its spend; each
reason holds alone when exactly that is wrong with it, with its figures and the page that fixes it; blocking
reasons come before limiting ones, then information; another tenant's campaign is not found, here and over the
API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from itertools import count
from typing import Any

import pytest
from sqlmodel import Session, select

import components.pages  # noqa: F401  (the route table answers the fixes' links, as in the running console)
from app.access.policy import Actor
from app.campaigns import exchange_approvals
from app.campaigns import service as campaigns
from app.campaigns.diagnosis.schemas import Diagnosis
from app.campaigns.diagnosis.service import diagnose
from app.campaigns.models import Campaign, ExchangeApproval
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.funds.models import LedgerEntry
from app.kernel.errors import NotFound
from app.kernel.i18n.catalog import translator
from app.reference.models import ReferenceValue
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers, other_tenant
from tests.render import text_of
from tests.test_campaign_pages import _create, attribute_values, page_at

ADVERTISER = "advertiser@demo.example"
EXCHANGE, OTHER_EXCHANGE = "Magnite", "OpenX"
_batches = count()


def _exchange_ids(db: Session) -> dict[str, int]:
    return {r.name: int(r.id) for r in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange"))
            if r.id is not None}


def _deliver(advertiser_id: int, campaign_id: int, *, hours_ago: int = 30, cpm: str = "1.50", impressions: int = 10_000,
             country: str = "DE", exchange: str = EXCHANGE) -> None:
    """One hour of delivery into the statistics store, at `cpm` dollars per thousand."""
    hour = (datetime.now(UTC) - timedelta(hours=hours_ago)).replace(minute=0, second=0, microsecond=0, tzinfo=None)
    spend = int(Decimal(cpm) * 1_000_000) * impressions // 1000
    get_store().ingest(f"diagnosis-{next(_batches)}", [FactRow(hour, advertiser_id, campaign_id, 0, exchange, "Android",
                                                               country, "app.example", "phone", impressions, 10, spend)],
                       source="test")


def _decide(db: Session, campaign_id: int, decisions: dict[str, str]) -> None:
    admin = actor_of(db, "admin@demo.example")
    for request in exchange_approvals.list_requests(db, actor=admin, campaign_id=campaign_id):
        if request.exchange in decisions:
            exchange_approvals.decide_many(db, actor=admin, approval_ids=[request.id], decision=decisions[request.exchange],
                                           reason="Brand safety" if decisions[request.exchange] == "rejected" else "")


def _ready(db: Session, me: Actor, *, approve: bool = True, **changes: Any) -> Campaign:
    """An active campaign with nothing in its way: in flight, funded, approved on its exchange, an active creative,
    delivery of the advertiser on its targeting at prices below its bid. `changes` alter its fields first."""
    data = {"name": "Ready", "objective": "traffic", "time_zone": "UTC",
            "starts_at": (datetime.now(UTC) - timedelta(days=3)).strftime("%Y-%m-%dT00:00"),
            "ends_at": (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%dT00:00"),
            "total_budget": "1000", "daily_budget": "100", "bid": "2.00", "bid_strategy": "cpm",
            "targeting": {"countries": ["DE"], "exchanges": [_exchange_ids(db)[EXCHANGE]]}, **changes}
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(data))
    campaigns.set_status(db, actor=me, campaign_id=made.id, status="active")
    if approve:
        _decide(db, made.id, {EXCHANGE: "approved"})
    creative = creatives.create_creative(db, actor=me, data=CreativeCreate.model_validate(
        {"type": "html", "name": "Tag", "html": "<b>Sale</b>", "width": 300, "height": 250}))
    creatives.set_campaign_creatives(db, actor=me, campaign_id=made.id, creative_ids=[creative.id])
    _deliver(me.id, made.id)
    db.flush()
    row = db.get(Campaign, made.id)
    assert row is not None
    return row


def _codes(found: Diagnosis) -> list[str]:
    return [r.code for r in found.reasons]


def _only(found: Diagnosis, code: str) -> Any:
    assert _codes(found) == [code], found.reasons
    return found.reasons[0]


@pytest.fixture
def me(db: Session) -> Actor:
    return actor_of(db, ADVERTISER)


def test_a_campaign_set_up_to_deliver_has_nothing_to_fix_and_shows_its_spend(db, me) -> None:
    ready = _ready(db, me)
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert found.reasons == [] and found.eligible and found.status == "active"
    assert found.spent == "15.00" and found.spent_today == "0.00"


@pytest.mark.parametrize("status", ["paused", "completed"])
def test_a_campaign_that_is_not_active_says_so(db, me, status) -> None:
    ready = _ready(db, me)
    campaigns.set_status(db, actor=me, campaign_id=ready.id, status=status)
    found = diagnose(db, actor=me, campaign_id=ready.id)
    reason = _only(found, "status_not_active")
    assert reason.severity == "blocking" and reason.details == {"status": status} and not found.eligible
    assert reason.fix.link == (f"/campaign/{ready.id}/" if status == "paused" else f"/campaignClone/{ready.id}")


def test_a_flight_not_started_and_one_ended(db, me) -> None:
    ready = _ready(db, me)
    ready.starts_at = datetime.now(UTC) + timedelta(days=2)
    db.add(ready)
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "flight_not_started")
    assert reason.fix.link == f"/campaignEditForm/{ready.id}" and "starts on" in reason.message

    ready.starts_at, ready.ends_at = datetime.now(UTC) - timedelta(days=3), datetime.now(UTC) - timedelta(hours=1)
    db.add(ready)
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert _only(found, "flight_ended").severity == "blocking" and found.status == "ended"


def test_an_empty_balance_blocks_and_a_low_one_limits(db, me) -> None:
    ready = _ready(db, me)
    db.add(LedgerEntry(advertiser_id=me.id, amount_micros=-4_950_000_000, kind="adjustment", note="test"))
    db.flush()
    low = _only(diagnose(db, actor=me, campaign_id=ready.id), "balance_low")
    assert low.severity == "limiting" and low.details == {"balance": "50.00", "one_day": "100.00"}
    assert low.fix.link == "/funds"

    db.add(LedgerEntry(advertiser_id=me.id, amount_micros=-50_000_000, kind="adjustment", note="test"))
    db.flush()
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert _only(found, "balance_empty").details == {"balance": "0.00"} and not found.eligible
    admin = actor_of(db, "admin@demo.example")
    assert diagnose(db, actor=admin, campaign_id=ready.id).reasons[0].fix.link == "/admin/addfund"


def test_a_spent_total_budget(db, me) -> None:
    ready = _ready(db, me, total_budget="100", daily_budget="")
    _deliver(me.id, ready.id, hours_ago=50, cpm="2.00", impressions=50_000)  # $100 more: $115 of $100
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "total_budget_reached")
    assert reason.details == {"total_budget": "100.00", "spent": "115.00"}


def test_todays_budget_spent(db, me) -> None:
    ready = _ready(db, me)
    _deliver(me.id, ready.id, hours_ago=0, cpm="2.00", impressions=50_000)  # $100 this hour
    found = diagnose(db, actor=me, campaign_id=ready.id)
    reason = _only(found, "daily_budget_reached")
    assert reason.details["spent_today"] == "100.00" and found.spent_today == "100.00"


def test_exchanges_waiting_or_refused_block_until_one_is_approved(db, me) -> None:
    ex = _exchange_ids(db)
    ready = _ready(db, me, approve=False, targeting={"countries": ["DE"], "exchanges": [ex[EXCHANGE], ex[OTHER_EXCHANGE]]})
    pending = _only(diagnose(db, actor=me, campaign_id=ready.id), "exchanges_pending")
    assert pending.severity == "blocking" and pending.details == {"exchanges": [EXCHANGE, OTHER_EXCHANGE], "approved": []}
    assert f"{EXCHANGE}, {OTHER_EXCHANGE}" in pending.message
    assert translator("gr")(pending.message) == f"Wartet auf Freigabe auf {EXCHANGE}, {OTHER_EXCHANGE}."  # as the page shows it
    assert pending.fix.link == f"/campaignEditForm/{ready.id}"  # the buyer may choose other exchanges
    admin = actor_of(db, "admin@demo.example")
    assert diagnose(db, actor=admin, campaign_id=ready.id).reasons[0].fix.link == "/admin/exchange-approval"

    _decide(db, ready.id, {EXCHANGE: "rejected"})
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert [(r.code, r.severity, r.details["exchanges"]) for r in found.reasons] == [
        ("exchanges_rejected", "blocking", [EXCHANGE]), ("exchanges_pending", "blocking", [OTHER_EXCHANGE])]

    _decide(db, ready.id, {OTHER_EXCHANGE: "approved"})  # runs on one: the refusal only narrows where
    rejected = _only(diagnose(db, actor=me, campaign_id=ready.id), "exchanges_rejected")
    assert rejected.severity == "limiting" and rejected.details["approved"] == [OTHER_EXCHANGE]


def test_no_exchange_to_run_on(db, me) -> None:
    ready = _ready(db, me, targeting={"countries": ["DE"]})  # no exchange chosen: every one the advertiser may use
    for approval in db.exec(select(ExchangeApproval).where(ExchangeApproval.campaign_id == ready.id)):
        db.delete(approval)
    for exchange in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange")):
        exchange.retired = True  # the admin retired every exchange: none is left to ask for
        db.add(exchange)
    db.flush()
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "no_exchanges")
    assert reason.severity == "blocking" and reason.fix.page == "campaign.edit"


def test_no_active_creative(db, me) -> None:
    ready = _ready(db, me)
    creative_id = creatives.campaign_creatives(db, actor=me, campaign_id=ready.id)[0].id
    creatives.set_status(db, actor=me, creative_id=creative_id, status="paused")
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "no_active_creative")
    assert reason.details == {"attached": 1, "creatives": ["Tag (paused)"]}
    creatives.set_campaign_creatives(db, actor=me, campaign_id=ready.id, creative_ids=[])
    assert _only(diagnose(db, actor=me, campaign_id=ready.id), "no_active_creative").details == {"attached": 0}


def test_targeting_that_matched_none_of_the_recent_delivery(db, me) -> None:
    ready = _ready(db, me, targeting={"countries": ["FR"], "exchanges": [_exchange_ids(db)[EXCHANGE]]})
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "targeting_no_delivery")
    assert reason.severity == "limiting" and reason.details["never_seen"] == ["country:FR"]
    assert reason.details["exchange"] == [EXCHANGE]


def test_a_bid_below_what_comparable_delivery_cleared_at(db, me) -> None:
    ready = _ready(db, me)
    for campaign_id, cpm in ((901, "3.00"), (902, "4.00"), (903, "5.00")):  # the advertiser's other campaigns
        _deliver(me.id, campaign_id, cpm=cpm)
    _deliver(me.id, 0, cpm="0.50", country="US")  # elsewhere: not comparable
    reason = _only(diagnose(db, actor=me, campaign_id=ready.id), "bid_below_market")
    assert reason.details == {"bid": "2.00", "strategy": "CPM", "p25": "1.50", "median": "3.00", "p75": "4.00",
                              "samples": 40_000}


def test_a_frequency_cap_is_information_only(db, me) -> None:
    ready = _ready(db, me, frequency_cap=3, frequency_period="day")
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert _only(found, "frequency_cap").severity == "info" and found.eligible


def test_blocking_reasons_come_first_then_limiting_then_information(db, me) -> None:
    ready = _ready(db, me, frequency_cap=3, frequency_period="day", bid="0.50")
    campaigns.set_status(db, actor=me, campaign_id=ready.id, status="paused")
    ready.starts_at = datetime.now(UTC) + timedelta(days=2)
    db.add(ready)
    found = diagnose(db, actor=me, campaign_id=ready.id)
    assert [(r.severity, r.code) for r in found.reasons] == [
        ("blocking", "status_not_active"), ("blocking", "flight_not_started"), ("limiting", "bid_below_market"),
        ("info", "frequency_cap")]


def test_another_tenants_campaign_is_not_found(db, me) -> None:
    ready = _ready(db, me)
    _agency, rival = other_tenant(db)
    with pytest.raises(NotFound):
        diagnose(db, actor=actor_of(db, rival.email), campaign_id=ready.id)
    agency = actor_of(db, "agency@demo.example")  # the advertiser's own agency reads it, with its own links
    assert diagnose(db, actor=agency, campaign_id=ready.id).eligible


def test_the_api_answers_the_owner_and_404s_another_tenant(client, db) -> None:
    me = actor_of(db, ADVERTISER)
    ready = _ready(db, me)
    campaigns.set_status(db, actor=me, campaign_id=ready.id, status="paused")
    _agency, rival = other_tenant(db)
    db.commit()
    reply = client.get(f"/api/campaigns/{ready.id}/diagnosis", headers=bearer_headers(client, ADVERTISER))
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert data["eligible"] is False and data["reasons"][0]["code"] == "status_not_active"
    assert data["reasons"][0]["fix"] == {"label": "Activate it", "page": "campaign.view", "link": f"/campaign/{ready.id}/"}
    other = client.get(f"/api/campaigns/{ready.id}/diagnosis", headers=bearer_headers(client, rival.email))
    assert other.status_code == 404


def test_the_campaign_view_shows_the_reasons_with_their_fixes(demo_ids) -> None:
    # A draft of the future, without creatives, its exchanges waiting for approval.
    draft = _create(starts_at="2099-12-01T09:00", ends_at="2099-12-31T23:00")
    model = page_at(f"/campaign/{draft.id}/", ADVERTISER)
    assert attribute_values(model, "data-verdict") == ["blocked"]
    assert attribute_values(model, "data-reason") == ["status_not_active", "flight_not_started", "exchanges_pending",
                                                      "no_active_creative"]
    assert attribute_values(model, "data-severity") == ["blocking"] * 4
    assert attribute_values(model, "data-fix") == attribute_values(model, "data-reason")  # each links to its fix
    assert "The campaign is a draft: only an active campaign delivers." in text_of(model)
