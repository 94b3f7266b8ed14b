"""Bulk campaign edits: one result per requested id in request order, refused rows leave nothing behind while
applied rows stay and are audited; admin-only bulk status; exchanges the advertiser may not buy on refused;
another tenant's campaigns answer "Campaign not found."."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session, select

from app.accounts import user_config
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.reference.models import ReferenceValue
from app.supply import app_lists, audiences
from tests.helpers import actor_of, other_tenant, user_by_email

BASE: dict[str, Any] = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
                        "bid_strategy": "cpm", "bid_min": "1", "bid_max": "4"}


def _make(db: Session, actor: Any, name: str, bid: str, advertiser_id: int | None = None, **extra: Any) -> int:
    return campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate({**BASE, "name": name, "bid": bid, **extra}),
                                     advertiser_id=advertiser_id).id


def _actions(db: Session, campaign_id: int) -> list[str]:
    return [e.action for e in db.exec(select(AuditEntry).where(AuditEntry.entity == "campaign",
                                                               AuditEntry.entity_id == str(campaign_id))
                                      .order_by(AuditEntry.id))]


def _rival_campaign(db: Session) -> int:
    rival_agency, rival_advertiser = other_tenant(db)
    return campaigns.create_campaign(db, actor=actor_of(db, rival_agency.email), advertiser_id=rival_advertiser.id,
                                     data=CampaignUpdate.model_validate({**BASE, "name": "Rival Sale", "bid": "3"})).id


def test_each_row_is_applied_or_refused_on_its_own_in_request_order(db):
    me = actor_of(db, "advertiser@demo.example")
    low, high, higher = _make(db, me, "Low", "2.40"), _make(db, me, "High", "3.50"), _make(db, me, "Higher", "3.20")
    theirs = _rival_campaign(db)
    results = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[high, low, theirs, 987654, higher],
                                        changes={"bid_min": "3", "bid_max": "5", "total_budget": "6000"})
    assert [r.model_dump() for r in results] == [
        {"id": high, "name": "High", "ok": True, "message": ""},
        {"id": low, "name": "Low", "ok": False, "message": "Lowest bid: the lowest bid cannot be above the bid."},
        {"id": theirs, "name": "", "ok": False, "message": "Campaign not found."},
        {"id": 987654, "name": "", "ok": False, "message": "Campaign not found."},
        {"id": higher, "name": "Higher", "ok": True, "message": ""},
    ]
    for applied in (high, higher):
        row = campaigns.get_campaign(db, actor=me, campaign_id=applied)
        assert (row.bid_min, row.bid_max, row.total_budget) == ("3.00", "5.00", "6000.00")
        assert _actions(db, applied) == ["create", "update"]
    refused = campaigns.get_campaign(db, actor=me, campaign_id=low)
    assert (refused.bid_min, refused.total_budget) == ("1.00", "1000.00")  # nothing of the change stayed
    assert _actions(db, low) == ["create"]
    assert db.get(Campaign, theirs).total_budget_micros == 1_000 * 1_000_000


def test_a_row_refused_at_its_status_keeps_none_of_its_settings(db):
    me = actor_of(db, "advertiser@demo.example")
    running, finished = _make(db, me, "Running", "2"), _make(db, me, "Finished", "2")
    for campaign_id in (running, finished):
        campaigns.set_status(db, actor=me, campaign_id=campaign_id, status="active")
    campaigns.set_status(db, actor=me, campaign_id=finished, status="completed")
    results = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[running, finished],
                                        changes={"daily_budget": "50", "status": "paused"})
    assert [r.ok for r in results] == [True, False]
    assert results[1].message == "Status: a completed campaign cannot become paused."
    after = campaigns.get_campaign(db, actor=me, campaign_id=finished)
    assert after.daily_budget is None and after.status == "completed"  # its budget change was rolled back
    assert _actions(db, finished) == ["create", "set_status_active", "set_status_completed"]
    assert campaigns.get_campaign(db, actor=me, campaign_id=running).status == "paused"


def _lists(db: Session, actor: Any, *kinds: str) -> list[int]:
    return [app_lists.create_list(db, actor=actor, name=f"List {n}", kind=kind).list.id
            for n, kind in enumerate(kinds)]


def test_goal_and_list_modes(db):
    me = actor_of(db, "advertiser@demo.example")
    one, two, three, nine = _lists(db, me, "allow", "allow", "allow", "block")
    campaign_id = _make(db, me, "Lists", "2", targeting={"inventory_lists": {"allow": [one, two], "block": [nine]}})
    seven, eight = (audiences.create_audience(db, actor=me, name=name, kind="device_ids").id
                    for name in ("Seven", "Eight"))
    changes = {"goal_metric": "ctr", "goal_target": "1.5", "inventory_lists": {"mode": "add", "allow": [three], "block": []},
               "audiences": {"mode": "replace", "allow": [seven], "block": [eight]}}
    assert campaign_bulk.bulk_update(db, actor=me, campaign_ids=[campaign_id], changes=changes)[0].ok
    row = campaigns.get_campaign(db, actor=me, campaign_id=campaign_id)
    assert (row.goal_metric, row.goal_target) == ("ctr", "1.5")
    assert row.targeting.inventory_lists.model_dump() == {"allow": [one, two, three], "block": [nine]}
    assert row.targeting.audiences.model_dump() == {"allow": [seven], "block": [eight]}
    campaign_bulk.bulk_update(db, actor=me, campaign_ids=[campaign_id],
                              changes={"inventory_lists": {"mode": "remove", "allow": [one], "block": [nine]}})
    assert campaigns.get_campaign(db, actor=me, campaign_id=campaign_id).targeting.inventory_lists.model_dump() == {
        "allow": [two, three], "block": []}
    refused = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[campaign_id],
                                        changes={"audiences": {"mode": "add", "allow": [eight], "block": []}})
    assert refused[0].message == "Audiences: a list cannot be both allowed and blocked."


def test_bulk_lists_refuse_another_advertisers_list_row_by_row(db):
    me = actor_of(db, "advertiser@demo.example")
    agency = actor_of(db, "agency@demo.example")
    mine = _make(db, me, "Mine", "2")
    rival_agency, rival_advertiser = other_tenant(db)
    theirs = app_lists.create_list(db, actor=actor_of(db, rival_agency.email), advertiser_id=rival_advertiser.id,
                                   name="Rival apps", kind="allow").list.id
    (own,) = _lists(db, me, "allow")
    results = campaign_bulk.bulk_update(db, actor=agency, campaign_ids=[mine], changes={
        "inventory_lists": {"mode": "add", "allow": [own, theirs], "block": []}})
    assert results[0].ok is False
    assert results[0].message == f"Inventory lists: not inventory lists of this campaign's advertiser: #{theirs}."
    assert campaigns.get_campaign(db, actor=me, campaign_id=mine).targeting.inventory_lists.allow == []
    assert campaign_bulk.bulk_update(db, actor=agency, campaign_ids=[mine], changes={
        "inventory_lists": {"mode": "add", "allow": [own], "block": []}})[0].ok


def test_the_request_itself_is_checked_before_any_row(db):
    me = actor_of(db, "advertiser@demo.example")
    campaign_id = _make(db, me, "Checked", "2")
    for ids, changes, field in (([], {"bid_max": "5"}, "campaign_ids"),
                                (list(range(1, 1002)), {"bid_max": "5"}, "campaign_ids"),
                                ([campaign_id], {}, "changes"),
                                ([campaign_id], {"name": "Renamed"}, "changes"),
                                ([campaign_id], {"status": "sleeping"}, "status"),
                                ([campaign_id], {"audiences": {"mode": "merge"}}, "audiences")):
        with pytest.raises(Invalid) as error:
            campaign_bulk.bulk_update(db, actor=me, campaign_ids=ids, changes=changes)
        assert set(error.value.fields) == {field}
    assert _actions(db, campaign_id) == ["create"]


def test_bulk_status_is_for_admin_and_co_admin_only(db):
    agency = actor_of(db, "agency@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    first = _make(db, agency, "First", "2", advertiser_id=advertiser.id)
    second = _make(db, agency, "Second", "2", advertiser_id=advertiser.id)
    for email in ("agency@demo.example", "advertiser@demo.example"):
        with pytest.raises(Forbidden):
            campaign_bulk.bulk_status(db, actor=actor_of(db, email), campaign_ids=[first], status="active")
    campaigns.set_status(db, actor=agency, campaign_id=second, status="archived")
    for email in ("admin@demo.example", "coadmin@demo.example"):
        results = campaign_bulk.bulk_status(db, actor=actor_of(db, email), campaign_ids=[first, second], status="active")
        assert [(r.ok, r.message) for r in results] == [
            (True, ""), (False, "Status: an archived campaign cannot become active.")]
    assert _actions(db, first) == ["create", "set_status_active"]  # the second admin's call changed nothing


def test_bulk_exchanges_refuses_a_row_whose_advertiser_may_not_buy_there(db):
    admin = actor_of(db, "admin@demo.example")
    agency = actor_of(db, "agency@demo.example")
    _, rival_advertiser = other_tenant(db)
    restricted = user_by_email(db, "advertiser@demo.example")
    first, second, third, *_ = db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == "exchange")
                                       .order_by(ReferenceValue.id)).all()
    config = user_config.get_config(db, actor=admin, user_id=restricted.id)
    user_config.update_config(db, actor=admin, user_id=restricted.id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=[first, second])
    mine = _make(db, agency, "Mine", "2", advertiser_id=restricted.id, targeting={"exchanges": [first, second]})
    free = _make(db, admin, "Unrestricted", "2", advertiser_id=rival_advertiser.id, targeting={"exchanges": [second]})
    results = campaign_bulk.bulk_exchanges(db, actor=admin, campaign_ids=[mine, free], add=[third], remove=[second])
    assert results[0].model_dump() == {"id": mine, "name": "Mine", "ok": False,
                                       "message": "Exchanges: this advertiser may not buy on some of these exchanges."}
    assert results[1].ok
    # The refused campaign keeps its exchanges (the order a read lists them in is not what is tested: PostgreSQL
    # once gave them the other way round).
    assert sorted(campaigns.get_campaign(db, actor=admin, campaign_id=mine).targeting.exchanges) == [first, second]
    assert campaigns.get_campaign(db, actor=admin, campaign_id=free).targeting.exchanges == [third]
    assert [r.model_dump() for r in campaign_bulk.bulk_exchanges(db, actor=agency, campaign_ids=[mine, free], add=[],
                                                                 remove=[second])] == [
        {"id": mine, "name": "Mine", "ok": True, "message": ""},
        {"id": free, "name": "", "ok": False, "message": "Campaign not found."}]  # the rival's, out of its reach
    with pytest.raises(Invalid) as error:
        campaign_bulk.bulk_exchanges(db, actor=admin, campaign_ids=[mine], add=[first], remove=[first])
    assert set(error.value.fields) == {"add"}


def test_another_tenant_is_unreachable_through_every_bulk_call(db):
    theirs = _rival_campaign(db)
    for email in ("agency@demo.example", "advertiser@demo.example"):
        actor = actor_of(db, email)
        for results in (campaign_bulk.bulk_update(db, actor=actor, campaign_ids=[theirs], changes={"status": "active"}),
                        campaign_bulk.bulk_exchanges(db, actor=actor, campaign_ids=[theirs], add=[], remove=[1])):
            assert [r.model_dump() for r in results] == [
                {"id": theirs, "name": "", "ok": False, "message": "Campaign not found."}]
    assert db.get(Campaign, theirs).status == "draft"
    assert _actions(db, theirs) == ["create"]


def test_an_agency_edits_clones_and_pauses_across_its_advertisers_but_not_another_agencys(db):
    """The agency seat acts itself (no "Login as"): one selection over two of its advertisers is applied, each row
    in its own advertiser's change log under the agency's name; another agency's campaign in it is refused."""
    from app.access.models import User
    from app.access.roles import Role

    agency = actor_of(db, "agency@demo.example")
    second = User(email="trail@demo.example", password_hash="-", role=Role.ADVERTISER, agency_id=agency.id,
                  company_name="Trail Co")
    db.add(second)
    db.flush()
    acme = user_by_email(db, "advertiser@demo.example").id
    mine = [_make(db, agency, "Acme Sale", "2", advertiser_id=acme),
            _make(db, agency, "Trail Sale", "2", advertiser_id=second.id)]
    theirs = _rival_campaign(db)
    copy = campaigns.clone_campaign(db, actor=agency, campaign_id=mine[1])
    assert copy.advertiser_id == second.id  # the clone stays the advertiser's, not the agency's
    with pytest.raises(NotFound):
        campaigns.clone_campaign(db, actor=agency, campaign_id=theirs)
    results = campaign_bulk.bulk_update(db, actor=agency, campaign_ids=[*mine, theirs],
                                        changes={"bid": "2.50", "status": "archived"})
    assert [(r.ok, r.message) for r in results] == [(True, ""), (True, ""), (False, "Campaign not found.")]
    for campaign_id in mine:
        row = db.get(Campaign, campaign_id)
        assert (row.bid_micros, row.status) == (2_500_000, "archived")
    assert (db.get(Campaign, theirs).bid_micros, db.get(Campaign, theirs).status) == (3_000_000, "draft")
