"""Issue 21: campaigns stay editable when what they target is retired or no longer allowed (and a DSP never gets
those values), flights that have ended show as ended and cannot be created or activated, activation needs money,
traffic types come from the admin's list, and clones get names the name rule takes and leave archived lists out.
Dates are computed from today."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session, select

from app.accounts import user_config
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate
from app.funds import service as funds
from app.kernel.errors import Invalid
from app.reference import metadata
from app.reference.models import ReferenceValue
from app.supply import app_lists
from tests.fake_dsp import FakeDsp, running_fake_dsp
from tests.helpers import actor_of, bearer_headers, other_tenant, settle_jobs, user_by_email

ADVERTISER = "advertiser@demo.example"
ADMIN = "admin@demo.example"


def day(offset: int) -> str:
    """A day `offset` days from today, as the form sends it."""
    return (datetime.now(UTC) + timedelta(days=offset)).strftime("%Y-%m-%dT09:00")


def settings(**extra: Any) -> dict[str, Any]:
    return {"name": "Winter Sale", "starts_at": day(1), "ends_at": day(30), "total_budget": "1000", "bid": "2",
            **extra}


def value_id(db: Session, kind: str, name: str) -> int:
    found = db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == kind, ReferenceValue.name == name)).first()
    assert found is not None
    return int(found)


def retire(db: Session, *ids: int) -> None:
    admin = actor_of(db, ADMIN)
    for i in ids:
        metadata.set_retired(db, actor=admin, value_id=i, retired=True)


def allow_exchanges(db: Session, advertiser_email: str, exchange_ids: list[int]) -> None:
    admin = actor_of(db, ADMIN)
    advertiser = user_by_email(db, advertiser_email)
    config = user_config.get_config(db, actor=admin, user_id=advertiser.id)
    user_config.update_config(db, actor=admin, user_id=advertiser.id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=exchange_ids)


def end_flight(db: Session, campaign_id: int, days_ago: int = 2) -> None:
    """The campaign's flight as if the clock had passed its end (nobody changes its status)."""
    row = db.get(Campaign, campaign_id)
    assert row is not None
    row.starts_at, row.ends_at = (datetime.now(UTC) - timedelta(days=days_ago + 20),
                                  datetime.now(UTC) - timedelta(days=days_ago))
    db.add(row)
    db.flush()


# --- retired and no-longer-allowed values -------------------------------------------------------------------

def test_retired_values_do_not_lock_a_campaign_and_can_be_removed_but_not_added(db):
    me = actor_of(db, ADVERTISER)
    adx, openx, pubmatic = (value_id(db, "exchange", n) for n in ("Google AdX", "OpenX", "PubMatic"))
    android = value_id(db, "operating_system", "Android")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(targeting={
        "exchanges": [adx, openx], "operating_systems": [android]})))
    retire(db, adx, android, pubmatic)

    saved = campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"bid": "2.50"}))
    assert saved.bid == "2.50" and saved.targeting.exchanges == sorted([adx, openx])
    stale = campaigns.describe_campaign(db, actor=me, campaign_id=made.id).model_dump()["stale"]
    assert stale == {"exchanges": [{"id": adx, "name": "Google AdX", "reason": "retired"}],
                     "operating_systems": [{"id": android, "name": "Android", "reason": "retired"}]}

    with pytest.raises(Invalid) as added:
        campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"targeting": {
            **saved.targeting.model_dump(), "exchanges": [adx, openx, pubmatic]}}))
    assert added.value.fields == {"targeting.exchanges": "Retired, cannot be chosen: PubMatic."}

    cleaned = campaigns.remove_stale_targeting(db, actor=me, campaign_id=made.id)
    assert cleaned.targeting.exchanges == [openx] and cleaned.targeting.operating_systems == []
    assert campaigns.describe_campaign(db, actor=me, campaign_id=made.id).stale == {}


def test_an_exchange_taken_off_the_advertisers_list_is_kept_marked_and_cannot_be_added(db):
    me = actor_of(db, ADVERTISER)
    adx, openx, pubmatic = (value_id(db, "exchange", n) for n in ("Google AdX", "OpenX", "PubMatic"))
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(targeting={"exchanges": [adx, openx]})))
    allow_exchanges(db, ADVERTISER, [openx, pubmatic])

    assert campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"name": "Winter Sale 2"}))
    assert campaigns.describe_campaign(db, actor=me, campaign_id=made.id).model_dump()["stale"] == {
        "exchanges": [{"id": adx, "name": "Google AdX", "reason": "not_allowed"}]}
    magnite = value_id(db, "exchange", "Magnite")
    with pytest.raises(Invalid) as added:
        campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"targeting": {
            "exchanges": [adx, openx, magnite]}}))
    assert set(added.value.fields) == {"targeting.exchanges"}
    assert campaigns.update_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"targeting": {
        "exchanges": [openx, pubmatic]}})).targeting.exchanges == sorted([openx, pubmatic])


def test_the_api_edits_a_campaign_whose_exchange_was_retired(client, db):
    me = actor_of(db, ADVERTISER)
    adx = value_id(db, "exchange", "Google AdX")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(targeting={"exchanges": [adx]})))
    retire(db, adx)
    db.commit()
    headers = bearer_headers(client, ADVERTISER)
    saved = client.put(f"/api/campaigns/{made.id}", headers=headers, json={"name": "Winter Sale Renamed"})
    assert saved.status_code == 200, saved.text
    assert saved.json()["data"]["name"] == "Winter Sale Renamed"


@pytest.fixture
def fake() -> Any:
    with running_fake_dsp("dsp-key-0123456789abcdef") as server:
        yield server


def test_a_dsp_never_gets_retired_or_no_longer_allowed_values(db, fake: FakeDsp):
    admin, me = actor_of(db, ADMIN), actor_of(db, ADVERTISER)
    adx, openx, pubmatic = (value_id(db, "exchange", n) for n in ("Google AdX", "OpenX", "PubMatic"))
    ios = value_id(db, "operating_system", "iOS")
    android = value_id(db, "operating_system", "Android")
    made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(traffic_type="ctv", targeting={
        "exchanges": [adx, openx, pubmatic], "operating_systems": [android, ios]})))
    allow_exchanges(db, ADVERTISER, [adx, openx])  # PubMatic no longer allowed
    retire(db, adx, ios)
    dsp = dsps.create_dsp(db, actor=admin, data=DspCreate(**{"name": "Acme Bidder", "connector": "http_json",
                                                             "endpoint_url": fake.url,
                                                             "api_key": "dsp-key-0123456789abcdef",
                                                             "exchange_ids": [openx]}))
    assert dsps.sync(db, actor=admin, dsp_id=dsp.id, entity="campaign", local_id=made.id).state == "queued"
    db.commit()
    settle_jobs()  # the push runs as a job of the queue (app/dsps/pushes.py)
    pushed = fake.requests[-1]["body"]
    assert pushed["targeting"]["exchanges"] == [openx]
    assert pushed["targeting"]["operating_systems"] == [android]
    assert pushed["traffic_type"] == "ctv"
    # The campaign itself keeps them, marked, until the buyer removes them.
    assert campaigns.get_campaign(db, actor=me, campaign_id=made.id).targeting.exchanges == sorted(
        [adx, openx, pubmatic])


# --- ended flights ---------------------------------------------------------------------------------------

def test_a_campaign_cannot_be_created_with_a_past_end_date(db):
    with pytest.raises(Invalid) as error:
        campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER), data=CampaignUpdate.model_validate(settings(starts_at=day(-20),
                                                                                     ends_at=day(-1))))
    assert error.value.fields == {"ends_at": campaigns.FLIGHT_OVER}


def test_an_ended_flight_shows_as_ended_filters_as_ended_and_cannot_be_activated(db):
    me = actor_of(db, ADVERTISER)
    running = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Still Running")))
    over = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Long Over")))
    for made in (running, over):
        campaigns.set_status(db, actor=me, campaign_id=made.id, status="active")
    end_flight(db, over.id)

    shown = campaigns.get_campaign(db, actor=me, campaign_id=over.id)
    assert shown.status == "active" and shown.shown_status == "ended"
    assert "active" not in shown.next_statuses
    rows = {r.name: r.shown_status for r in campaigns.list_campaigns(db, actor=me)}
    assert rows == {"Still Running": "active", "Long Over": "ended"}
    assert [r.name for r in campaigns.list_campaigns(db, actor=me, status="ended")] == ["Long Over"]
    assert [r.name for r in campaigns.list_campaigns(db, actor=me, status="active")] == ["Still Running"]

    campaigns.set_status(db, actor=me, campaign_id=over.id, status="paused")
    with pytest.raises(Invalid) as refused:
        campaigns.set_status(db, actor=me, campaign_id=over.id, status="active")
    assert refused.value.fields == {"ends_at": campaigns.EXTEND_TO_ACTIVATE}
    assert "extend the end date" in refused.value.fields["ends_at"]
    # An edit that leaves the past end date alone saves; moving it on makes the campaign activatable again.
    assert campaigns.update_campaign(db, actor=me, campaign_id=over.id, data=CampaignUpdate.model_validate({"bid": "3"})).bid == "3.00"
    campaigns.update_campaign(db, actor=me, campaign_id=over.id, data=CampaignUpdate.model_validate({"ends_at": day(10)}))
    assert campaigns.set_status(db, actor=me, campaign_id=over.id, status="active").shown_status == "active"


# --- balance -----------------------------------------------------------------------------------------------

def _rival_campaign(db: Session) -> tuple[Any, dict[str, Any], Any]:
    """(the rival agency's actor, a draft of its advertiser, that advertiser): an advertiser with $0.00."""
    agency, advertiser = other_tenant(db)
    actor = actor_of(db, agency.email)
    return actor, campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate(settings()), advertiser_id=advertiser.id), advertiser


def test_activation_needs_a_positive_balance(db):
    actor, made, advertiser = _rival_campaign(db)
    with pytest.raises(Invalid) as refused:
        campaigns.set_status(db, actor=actor, campaign_id=made.id, status="active")
    assert refused.value.fields["balance"] == ("Add funds before activating this campaign: the advertiser's "
                                              "balance is $0.00.")
    assert campaigns.get_campaign(db, actor=actor, campaign_id=made.id).status == "draft"
    funds.add_funds(db, actor=actor_of(db, ADMIN), advertiser_id=advertiser.id, amount="50", kind="deposit")
    assert campaigns.set_status(db, actor=actor, campaign_id=made.id, status="active").status == "active"


def test_bulk_activation_answers_per_row_and_the_api_says_add_funds(client, db):
    actor, broke, _advertiser = _rival_campaign(db)
    me = actor_of(db, ADVERTISER)
    funded = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Funded")))
    results = campaign_bulk.bulk_status(db, actor=actor_of(db, ADMIN), campaign_ids=[broke.id, funded.id],
                                        status="active")
    by_id = {r.id: r for r in results}
    assert by_id[funded.id].ok is True
    assert by_id[broke.id].ok is False and "add funds before activating" in by_id[broke.id].message
    db.commit()
    headers = bearer_headers(client, "rival-agency@other.example")
    answer = client.put(f"/api/campaigns/{broke.id}/status", headers=headers, json={"status": "active"})
    assert answer.status_code == 422
    assert "Add funds before activating" in answer.json()["data"]["fields"]["balance"]


# --- traffic types --------------------------------------------------------------------------------------------

def test_traffic_types_come_from_the_admins_list(db, client):
    me = actor_of(db, ADVERTISER)
    ctv = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(traffic_type="CTV",
                                                                targeting={"device_types": ["connected_tv"]})))
    assert ctv.traffic_type == "ctv" and ctv.targeting.device_types == ["ctv"]
    with pytest.raises(Invalid) as unknown:
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(traffic_type="radio")))
    assert set(unknown.value.fields) == {"traffic_type"}
    retire(db, value_id(db, "traffic_type", "CTV"))
    with pytest.raises(Invalid):  # a retired type cannot be chosen ...
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(traffic_type="ctv")))
    # ... but a campaign that has it still saves
    assert campaigns.update_campaign(db, actor=me, campaign_id=ctv.id, data=CampaignUpdate.model_validate({"bid": "3"})).traffic_type == "ctv"
    db.commit()
    headers = bearer_headers(client, ADVERTISER)
    answer = client.post("/api/campaigns", headers=headers, json=settings(name="Over The Top", traffic_type="web"))
    assert answer.status_code == 201, answer.text
    assert "ctv" not in [row["code"] for row in client.get("/api/meta/traffic-type", headers=headers).json()["data"]]


# --- clones ----------------------------------------------------------------------------------------------------

def test_clones_are_named_copy_copy_2_copy_3_and_pass_the_name_rule(db):
    me = actor_of(db, ADVERTISER)
    source = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Spring Sale")))
    names = [campaigns.clone_campaign(db, actor=me, campaign_id=source.id).name for _ in range(3)]
    assert names == ["Spring Sale copy", "Spring Sale copy 2", "Spring Sale copy 3"]
    copy_of_copy = next(r for r in campaigns.list_campaigns(db, actor=me) if r.name == "Spring Sale copy 2")
    assert campaigns.clone_campaign(db, actor=me, campaign_id=copy_of_copy.id).name == "Spring Sale copy 4"
    long = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="L" * campaigns.NAME_MAX_LENGTH)))
    first = campaigns.clone_campaign(db, actor=me, campaign_id=long.id).name
    second = campaigns.clone_campaign(db, actor=me, campaign_id=long.id).name
    assert len(first) == len(second) == campaigns.NAME_MAX_LENGTH
    assert first.endswith("L copy") and second.endswith("L copy 2")


def test_a_clone_leaves_archived_lists_and_retired_values_out_and_says_so(db):
    me = actor_of(db, ADVERTISER)
    kept = app_lists.create_list(db, actor=me, name="Good apps", kind="allow", entries="").list
    gone = app_lists.create_list(db, actor=me, name="Old apps", kind="allow", entries="").list
    adx, openx = value_id(db, "exchange", "Google AdX"), value_id(db, "exchange", "OpenX")
    source = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(targeting={
        "inventory_lists": {"allow": [kept.id, gone.id], "block": []}, "exchanges": [adx, openx]})))
    app_lists.set_status(db, actor=me, applist_id=gone.id, status="archived")
    retire(db, adx)
    clone = campaigns.clone_campaign(db, actor=me, campaign_id=source.id)
    assert clone.targeting.inventory_lists.model_dump() == {"allow": [kept.id], "block": []}
    assert clone.targeting.exchanges == [openx]
    assert clone.left_out == ["Google AdX", "Old apps"]


def test_the_clone_of_an_ended_campaign_needs_new_dates(client, db):
    me = actor_of(db, ADVERTISER)
    source = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(settings(name="Summer Sale")))
    end_flight(db, source.id)
    plan = campaigns.clone_plan(db, actor=me, campaign_id=source.id)
    assert plan.needs_dates is True and plan.campaign.ends_at is None
    with pytest.raises(Invalid) as refused:
        campaigns.clone_campaign(db, actor=me, campaign_id=source.id)
    assert set(refused.value.fields) == {"starts_at", "ends_at"}
    db.commit()
    headers = bearer_headers(client, ADVERTISER)
    answer = client.post(f"/api/campaigns/{source.id}/clone", headers=headers)
    assert answer.status_code == 422 and "ends_at" in answer.json()["data"]["fields"]
    again = client.post(f"/api/campaigns/{source.id}/clone", headers=headers,
                        json={"starts_at": day(1), "ends_at": day(20)})
    assert again.status_code == 201, again.text
    assert again.json()["data"]["name"] == "Summer Sale copy" and again.json()["data"]["shown_status"] == "draft"
