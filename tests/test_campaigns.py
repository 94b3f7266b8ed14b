"""Campaign services: settings checked field by field, status moves as declared, archive instead of delete,
clones, change history, and another tenant's campaigns out of reach."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlmodel import col, select

from app.accounts import user_config
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign, as_utc
from app.campaigns.schemas import CampaignUpdate
from app.history.models import AuditEntry
from app.kernel.errors import Conflict, Invalid, NotAuthenticated, NotFound
from app.reference import metadata
from app.reference.models import ReferenceValue
from tests.helpers import actor_of, other_tenant, user_by_email

VALID: dict[str, Any] = {
    "name": "Spring Sale", "objective": "conversions", "starts_at": "2026-12-01T09:00", "ends_at": "2026-12-31",
    "time_zone": "Europe/Berlin", "total_budget": "5000", "daily_budget": "250.50", "pacing": "even",
    "bid_strategy": "cpm", "bid": "2.40", "bid_min": "1", "bid_max": "4", "frequency_cap": 3,
    "frequency_period": "day", "traffic_type": "app", "goal_metric": "cpa", "goal_target": "12.5",
    "targeting": {"countries": ["de", "AT"], "regions": ["DE-BY"], "languages": ["de"],
                  "geo_fence": "48.13,11.57,5|52.52,13.40,2.5", "device_types": ["phone", "tablet"],
                  "dayparting": [[9, 10, 11], [], [], [], [], [20, 21], []]},
}


def _exchange_ids(db) -> list[int]:
    return list(db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == "exchange")).all())


def test_an_advertiser_creates_a_draft_with_money_in_micros_and_times_in_utc(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    created = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(VALID))
    assert created.status == "draft" and created.advertiser_id == advertiser.id
    assert created.total_budget == "5000.00" and created.daily_budget == "250.50" and created.bid == "2.40"
    assert created.starts_at == "2026-12-01T09:00:00+01:00"  # shown in Berlin, stored in UTC
    stored = db.get(Campaign, created.id)
    assert stored is not None and as_utc(stored.starts_at) == datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert created.targeting.countries == ["AT", "DE"] and created.targeting.regions == ["DE-BY"]
    assert created.next_statuses == ["active", "archived"]
    listed = campaigns.list_campaigns(db, actor=advertiser)
    assert [row.name for row in listed] == ["Spring Sale"]


def test_every_bad_field_is_named_and_nothing_is_saved(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    bad = {**VALID, "name": "Sale!", "time_zone": "Mars/Base", "total_budget": "-3", "daily_budget": "abc",
           "bid": "9", "bid_min": "5", "bid_max": "4", "frequency_cap": 0, "goal_target": "",
           "ends_at": "2026-11-01", "targeting": {"countries": ["XX"], "languages": ["zz"], "geo_fence": "91,0,5",
                                                  "device_types": ["fridge"], "dayparting": [[25]]}}
    with pytest.raises(Invalid) as error:
        campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(bad))
    assert set(error.value.fields) == {
        "name", "time_zone", "ends_at", "total_budget", "daily_budget", "bid_max", "frequency_cap", "goal_target",
        "targeting.countries", "targeting.languages", "targeting.geo_fence", "targeting.device_types",
        "targeting.dayparting"}
    assert error.value.fields["name"] == "Invalid input. Please use only letters, numbers, spaces, and hyphens."
    assert campaigns.list_campaigns(db, actor=advertiser) == []


def test_status_moves_only_as_declared_and_delete_archives(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    campaign_id = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(VALID)).id
    with pytest.raises(Invalid):
        campaigns.set_status(db, actor=advertiser, campaign_id=campaign_id, status="paused")  # a draft never ran
    assert campaigns.set_status(db, actor=advertiser, campaign_id=campaign_id, status="active").status == "active"
    assert campaigns.set_status(db, actor=advertiser, campaign_id=campaign_id, status="paused").status == "paused"
    assert campaigns.archive_campaign(db, actor=advertiser, campaign_id=campaign_id).status == "archived"
    with pytest.raises(Invalid):
        campaigns.set_status(db, actor=advertiser, campaign_id=campaign_id, status="active")
    with pytest.raises(Invalid):
        campaigns.update_campaign(db, actor=advertiser, campaign_id=campaign_id, data=CampaignUpdate.model_validate({"name": "Revived"}))
    assert campaigns.list_campaigns(db, actor=advertiser) == []  # archived rows leave the default list...
    assert [r.status for r in campaigns.list_campaigns(db, actor=advertiser, include_archived=True)] == ["archived"]
    assert campaigns.get_campaign(db, actor=advertiser, campaign_id=campaign_id).name == "Spring Sale"  # ...not the db


def test_edits_and_status_changes_are_audited_field_by_field(db):
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    campaign_id = campaigns.create_campaign(db, actor=agency, data=CampaignUpdate.model_validate(VALID), advertiser_id=own.id).id
    campaigns.update_campaign(db, actor=agency, campaign_id=campaign_id, data=CampaignUpdate.model_validate({"bid": "3.10", "name": "Spring Sale 2"}))
    campaigns.set_status(db, actor=agency, campaign_id=campaign_id, status="active")
    entries = db.exec(select(AuditEntry).where(AuditEntry.entity == "campaign", AuditEntry.entity_id == str(campaign_id))
                      .order_by(col(AuditEntry.id))).all()  # PostgreSQL returns rows in no set order without it
    assert [e.action for e in entries] == ["create", "update", "set_status_active"]
    assert entries[1].changes == {"bid_micros": [2_400_000, 3_100_000], "name": ["Spring Sale", "Spring Sale 2"]}
    assert all(e.actor_id == agency.id for e in entries)


def test_a_clone_is_a_draft_copy(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    source = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(VALID))
    campaigns.set_status(db, actor=advertiser, campaign_id=source.id, status="active")
    copy = campaigns.clone_campaign(db, actor=advertiser, campaign_id=source.id)
    assert copy.id != source.id and copy.name == "Spring Sale copy" and copy.status == "draft"
    assert copy.targeting == source.targeting and copy.bid == source.bid


def test_another_tenants_campaigns_are_out_of_reach(db):
    rival_agency, rival_advertiser = other_tenant(db)
    rival = actor_of(db, rival_agency.email)
    theirs = campaigns.create_campaign(db, actor=rival, data=CampaignUpdate.model_validate(VALID), advertiser_id=rival_advertiser.id).id
    agency = actor_of(db, "agency@demo.example")
    advertiser = actor_of(db, "advertiser@demo.example")
    for actor in (agency, advertiser):
        with pytest.raises(NotFound):
            campaigns.get_campaign(db, actor=actor, campaign_id=theirs)
        with pytest.raises(NotFound):
            campaigns.update_campaign(db, actor=actor, campaign_id=theirs, data=CampaignUpdate.model_validate({"name": "Mine now"}))
        with pytest.raises(NotFound):
            campaigns.set_status(db, actor=actor, campaign_id=theirs, status="archived")
        with pytest.raises(NotFound):
            campaigns.clone_campaign(db, actor=actor, campaign_id=theirs)
        assert campaigns.list_campaigns(db, actor=actor) == []
    with pytest.raises(Invalid):  # nor can they create campaigns for the rival's advertiser
        campaigns.create_campaign(db, actor=agency, data=CampaignUpdate.model_validate(VALID), advertiser_id=rival_advertiser.id)
    admin = actor_of(db, "admin@demo.example")
    assert [r.id for r in campaigns.list_campaigns(db, actor=admin)] == [theirs]
    assert campaigns.get_campaign(db, actor=actor_of(db, "coadmin@demo.example"), campaign_id=theirs).id == theirs


def test_exchanges_are_limited_to_the_advertisers_and_used_values_cannot_be_deleted(db):
    admin = actor_of(db, "admin@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    first, second, *_ = _exchange_ids(db)
    config = user_config.get_config(db, actor=admin, user_id=advertiser.id)
    user_config.update_config(db, actor=admin, user_id=advertiser.id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=[first])
    me = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**VALID, "targeting": {"exchanges": [first, second]}}))
    assert set(error.value.fields) == {"targeting.exchanges"}
    campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**VALID, "targeting": {"exchanges": [first]}}))
    user_config.update_config(db, actor=admin, user_id=advertiser.id, insight_dashboard=config.insight_dashboard,
                              postback_enabled=config.postback_enabled, api_access=config.api_access,
                              margin=config.margin, allowed_exchanges=[])
    with pytest.raises(Conflict):  # the campaign uses it now
        metadata.delete_value(db, actor=admin, value_id=first)


def test_an_agency_names_the_advertiser_and_nobody_signed_out_gets_in(db):
    with pytest.raises(Invalid) as error:  # an agency must say for which of its advertisers
        campaigns.create_campaign(db, actor=actor_of(db, "agency@demo.example"), data=CampaignUpdate.model_validate(VALID))
    assert set(error.value.fields) == {"advertiser_id"}
    with pytest.raises(NotAuthenticated):
        campaigns.list_campaigns(db, actor=None)


def test_a_bid_above_the_highest_bid_is_refused_on_create_and_on_edit(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:  # VALID's range is 1.00 to 4.00
        campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "bid": "4.01"}))
    assert error.value.fields == {"bid": "The bid cannot exceed the highest bid."}
    assert campaigns.list_campaigns(db, actor=advertiser) == []
    # Either end of the range is a bid within it.
    assert campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "bid": "4.00"})).bid == "4.00"
    campaign_id = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "bid": "1.00"})).id
    # An edit is refused on the side it changed.
    for change, field in (({"bid": "4.50"}, "bid"), ({"bid_max": "0.99", "bid_min": ""}, "bid_max"), ({"bid": "0.99"}, "bid")):
        with pytest.raises(Invalid) as error:
            campaigns.update_campaign(db, actor=advertiser, campaign_id=campaign_id, data=CampaignUpdate.model_validate(change))
        assert set(error.value.fields) == {field}, change
    kept = campaigns.get_campaign(db, actor=advertiser, campaign_id=campaign_id)
    assert (kept.bid, kept.bid_min, kept.bid_max) == ("1.00", "1.00", "4.00")


def test_budget_flight_and_goal_boundaries(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    # A daily budget as large as the total, and a frequency cap of one, are allowed.
    same = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "daily_budget": "5000", "frequency_cap": 1}))
    assert (same.daily_budget, same.frequency_cap) == ("5000.00", 1)
    fixed = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "bid_min": "2.40", "bid_max": "2.40"}))
    assert (fixed.bid_min, fixed.bid, fixed.bid_max) == ("2.40", "2.40", "2.40")  # a range of one price
    for change, field in (({"total_budget": "0", "daily_budget": ""}, "total_budget"), ({"daily_budget": "5000.01"}, "daily_budget"),
                          ({"ends_at": "2026-12-01T09:00"}, "ends_at"), ({"goal_target": "0"}, "goal_target"),
                          ({"bid_min": "4.01"}, "bid_max bid")):  # the range is upside down, and the bid below it
        with pytest.raises(Invalid) as error:
            campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, **change}))
        assert set(error.value.fields) == set(field.split()), change


def test_a_page_of_the_list_has_its_rows_in_order_and_the_total_of_its_filters(db):
    """The campaign list a page at a time (the page and, later, the API): the status filter, the search and the sort
    are applied before the page is cut, and the total counts every campaign they match."""
    advertiser = actor_of(db, "advertiser@demo.example")
    for name in [f"Wave {n:02d}" for n in range(1, 13)] + ["Calm Sea", "Calm Lake"]:
        made = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "name": name}))
        if "Wave 01" <= name <= "Wave 07" or name == "Calm Sea":
            campaigns.set_status(db, actor=advertiser, campaign_id=made.id, status="active")

    def page(number: int, **filters: Any) -> tuple[list[str], int]:
        found = campaigns.list_campaigns_page(db, actor=advertiser, page=number, page_size=3, **filters)
        return [row.name for row in found.rows], found.total

    active_waves = {"status": "active", "search": "wave", "sort": "name"}
    assert page(2, **active_waves) == (["Wave 04", "Wave 05", "Wave 06"], 7)
    assert page(3, **active_waves) == (["Wave 07"], 7)
    assert page(4, **active_waves) == ([], 7)  # past the last page: no rows, the same total
    assert page(1, status="active", sort="-name") == (["Wave 07", "Wave 06", "Wave 05"], 8)
    assert page(2, search="calm", sort="name") == ([], 2)
    campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**VALID, "name": "Wave 9"}))
    # Names in the order people read them, on every page: "Wave 9" before "Wave 10".
    assert page(3, search="wave", sort="name") == (["Wave 07", "Wave 08", "Wave 09"], 13)
    assert page(4, search="wave", sort="name") == (["Wave 9", "Wave 10", "Wave 11"], 13)
    assert [row.name for row in campaigns.list_campaigns(db, actor=advertiser, search="wave", sort="-name")][:3] == [
        "Wave 12", "Wave 11", "Wave 10"]
    everything = campaigns.list_campaigns(db, actor=advertiser, sort="-total_budget")
    assert page(5, sort="-total_budget") == ([row.name for row in everything[12:15]], 15)
    agency = actor_of(db, "agency@demo.example")
    assert campaigns.list_campaigns_page(db, actor=agency, status="active", page_size=50).total == 8
    rival_agency, _rival_advertiser = other_tenant(db)
    assert campaigns.list_campaigns_page(db, actor=actor_of(db, rival_agency.email)).total == 0
    with pytest.raises(Invalid) as bad_page:
        campaigns.list_campaigns_page(db, actor=advertiser, page=0)
    with pytest.raises(Invalid) as bad_size:
        campaigns.list_campaigns_page(db, actor=advertiser, page_size=501)
    assert set(bad_page.value.fields) == {"page"} and set(bad_size.value.fields) == {"page_size"}
