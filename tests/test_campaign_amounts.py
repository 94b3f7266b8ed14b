"""The amount rules every DSP enforces, in every path (the form's service call, the API, bulk edit, clone): the total
budget is never below what the campaign has already spent, the daily budget is at most the total budget, the bid is
at most the highest bid. An edit validates only what it changed, but a change to one side of a pair is checked
against the other side's stored value, and the error names the side that changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session

from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignRead, CampaignUpdate
from app.kernel.db import run
from app.kernel.errors import Invalid
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers

ADVERTISER = "advertiser@demo.example"
BASE: dict[str, Any] = {"name": "Rules", "objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC",
                        "total_budget": "1000", "daily_budget": "100", "bid_strategy": "cpm", "bid": "2",
                        "bid_min": "1", "bid_max": "4"}


def _new(db: Session, **changes: Any) -> CampaignRead:
    return campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER), data=CampaignUpdate.model_validate({**BASE, **changes}))


def _refusal(call: Any) -> dict[str, str]:
    with pytest.raises(Invalid) as refused:
        call()
    return refused.value.fields


def _spend(advertiser_id: int, campaign_id: int, micros: int, batch: str) -> None:
    hour = (datetime.now(UTC) - timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
    get_store().ingest(batch, [FactRow(hour=hour, advertiser_id=advertiser_id,
                                       campaign_id=campaign_id, creative_id=0, exchange="Magnite", os="iOS",
                                       country="US", app="com.example", device_type="phone", impressions=1000,
                                       spend_micros=micros)], source="test")


def test_a_new_campaign_keeps_daily_within_total_and_the_bid_within_its_range(db) -> None:
    me = actor_of(db, ADVERTISER)
    create = campaigns.create_campaign
    assert _refusal(lambda: create(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "daily_budget": "1000.01"}))) == {
        "daily_budget": "The daily budget cannot exceed the total budget."}
    assert _refusal(lambda: create(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "bid": "4.01"}))) == {
        "bid": "The bid cannot exceed the highest bid."}
    assert _refusal(lambda: create(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "bid": "0.99"}))) == {
        "bid": "The bid cannot be below the lowest bid."}
    assert create(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "daily_budget": "1000", "bid": "4"})).bid == "4.00"


def test_an_edit_is_checked_against_the_other_sides_stored_value_and_blames_what_it_changed(db) -> None:
    me = actor_of(db, ADVERTISER)
    campaign = _new(db)
    update = campaigns.update_campaign
    cases = [({"total_budget": "99"}, {"total_budget": "The total budget cannot be below the daily budget."}),
             ({"daily_budget": "1001"}, {"daily_budget": "The daily budget cannot exceed the total budget."}),
             ({"bid_max": "1.50"}, {"bid_max": "The highest bid cannot be below the bid."}),
             ({"bid": "5"}, {"bid": "The bid cannot exceed the highest bid."}),
             ({"bid_min": "3"}, {"bid_min": "The lowest bid cannot be above the bid."}),
             ({"bid": "5", "bid_max": "4.50"}, {"bid": "The bid cannot exceed the highest bid."})]
    for change, fields in cases:
        assert _refusal(lambda change=change: update(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate(change))) == fields
    after = campaigns.get_campaign(db, actor=me, campaign_id=campaign.id)
    assert {k: getattr(after, k) for k in ("total_budget", "daily_budget", "bid", "bid_min", "bid_max")} == {
        "total_budget": "1000.00", "daily_budget": "100.00", "bid": "2.00", "bid_min": "1.00", "bid_max": "4.00"}
    assert update(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"bid": "5", "bid_max": "6"})).bid == "5.00"


def test_an_edit_leaves_the_amounts_it_does_not_change_unread(db) -> None:
    """A campaign saved before today's bounds and rules (a $9,999 bid, a daily budget above the total) can still be
    renamed, and its amounts stay exactly as stored."""
    me = actor_of(db, ADVERTISER)
    campaign = _new(db)
    row = db.get(Campaign, campaign.id)
    row.bid_micros, row.bid_max_micros, row.daily_budget_micros = 9_999_123_456, None, 2_000_000_000
    db.add(row)
    db.flush()
    saved = campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"name": "Renamed"}))
    assert saved.name == "Renamed"
    assert (row.bid_micros, row.daily_budget_micros) == (9_999_123_456, 2_000_000_000)


def test_the_total_budget_cannot_go_below_what_is_already_spent(db) -> None:
    me = actor_of(db, ADVERTISER)
    campaign = _new(db, daily_budget="")
    db.commit()
    _spend(campaign.advertiser_id, campaign.id, 300_250_000, "amounts-spent")
    assert _refusal(lambda: campaigns.update_campaign(db, actor=me, campaign_id=campaign.id,
                                                      data=CampaignUpdate.model_validate({"total_budget": "300.24"}))) == {
        "total_budget": "The total budget cannot be below the $300.25 already spent."}
    assert db.get(Campaign, campaign.id).total_budget_micros == 1_000_000_000
    saved = campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"total_budget": "300.25"}))
    assert saved.total_budget == "300.25"
    # An edit that leaves the budget alone is not held up by the spend.
    assert campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"bid": "3"})).bid == "3.00"


def test_a_clone_does_not_start_out_breaking_the_rules(db) -> None:
    me = actor_of(db, ADVERTISER)
    fine, broken = _new(db, name="Fine"), _new(db, name="Broken")
    assert campaigns.clone_campaign(db, actor=me, campaign_id=fine.id).name == "Fine copy"
    row = db.get(Campaign, broken.id)
    row.bid_micros = 5_000_000  # above its highest bid of 4.00: saved before the rule
    db.add(row)
    db.flush()
    assert _refusal(lambda: campaigns.clone_campaign(db, actor=me, campaign_id=broken.id)) == {
        "bid": "The bid cannot exceed the highest bid."}


def test_bulk_edit_changes_bid_and_highest_bid_with_a_result_per_row(db) -> None:
    me = actor_of(db, ADVERTISER)
    low = _new(db, name="Low cap", bid_max="2.50").id
    roomy = _new(db, name="Roomy", bid_max="10").id
    results = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[low, roomy], changes={"bid": "3"})
    assert [r.model_dump() for r in results] == [
        {"id": low, "name": "Low cap", "ok": False, "message": "Bid: the bid cannot exceed the highest bid."},
        {"id": roomy, "name": "Roomy", "ok": True, "message": ""}]
    assert db.get(Campaign, low).bid_micros == 2_000_000 and db.get(Campaign, roomy).bid_micros == 3_000_000
    results = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[low, roomy], changes={"bid_max": "2.75"})
    assert [r.model_dump() for r in results] == [
        {"id": low, "name": "Low cap", "ok": True, "message": ""},
        {"id": roomy, "name": "Roomy", "ok": False, "message": "Highest bid: the highest bid cannot be below the bid."}]
    assert db.get(Campaign, low).bid_max_micros == 2_750_000 and db.get(Campaign, roomy).bid_max_micros == 10_000_000


def test_bulk_edit_keeps_each_total_budget_above_its_own_spend(db) -> None:
    me = actor_of(db, ADVERTISER)
    spent, fresh = _new(db, name="Spent", daily_budget=""), _new(db, name="Fresh", daily_budget="")
    db.commit()
    _spend(spent.advertiser_id, spent.id, 600_000_000, "amounts-bulk")
    results = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[spent.id, fresh.id],
                                        changes={"total_budget": "500"})
    assert [(r.ok, r.message) for r in results] == [
        (False, "Total budget: the total budget cannot be below the $600.00 already spent."), (True, "")]


def test_the_api_applies_the_rules_and_names_the_field(client) -> None:
    me = bearer_headers(client, ADVERTISER)
    created = client.post("/api/campaigns", headers=me, json=BASE).json()["data"]
    reply = client.put(f"/api/campaigns/{created['id']}", headers=me, json={"bid_max": "1.50"})
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"bid_max": "The highest bid cannot be below the bid."}
    reply = client.post("/api/campaigns", headers=me, json={**BASE, "daily_budget": "2000"})
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"daily_budget": "The daily budget cannot exceed the total budget."}
    run(lambda db: _spend(created["advertiser_id"], created["id"], 700_000_000, "amounts-api"))
    reply = client.put(f"/api/campaigns/{created['id']}", headers=me, json={"total_budget": "650"})
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"total_budget": "The total budget cannot be below the $700.00 already spent."}
    reply = client.post("/api/campaigns/bulk", headers=me, json={"campaign_ids": [created["id"]],
                                                                  "changes": {"bid": "9", "bid_max": "10"}})
    assert reply.status_code == 200 and reply.json()["data"][0]["ok"] is True
    assert client.get(f"/api/campaigns/{created['id']}", headers=me).json()["data"]["bid"] == "9.00"
