"""A campaign's change log as people read it: dollars, named targeting added/removed, only what a new
campaign was given, filters by date and person; and an advertiser's log across its campaigns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.history import change_log
from app.kernel.errors import Forbidden, Invalid, NotFound
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.test_campaign_pages import SETTINGS


def _changes(entry):
    return {c.field: c for c in entry.changes}


def test_edits_read_as_dollars_and_named_places_added_and_removed(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    created = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
    campaigns.update_campaign(db, actor=advertiser, campaign_id=created.id,
                              data=CampaignUpdate.model_validate({"daily_budget": "55", "targeting": {
                                  **SETTINGS["targeting"], "countries": ["DE", "FR"]}}))
    log = change_log.page(db, actor=advertiser, kind="campaign", record_id=created.id)
    edit, creation = log.entries
    assert edit.action == "update" and creation.action == "create"
    changed = _changes(edit)
    assert (changed["daily_budget"].old, changed["daily_budget"].new) == ("40.00", "55.00")
    assert (changed["targeting.countries"].added, changed["targeting.countries"].removed) == (["France"], ["Austria"])
    given = _changes(creation)
    assert given["starts_at"].new == "2026-12-01 08:00 UTC"  # 09:00 in Berlin
    assert given["targeting.dayparting"].new == "2 h/week"
    assert "targeting.regions" not in given and "advertiser_id" not in given and "bid_min" not in given
    assert [p.model_dump() for p in log.people] == [{"id": advertiser.id,
                                                     "name": "Acme Outdoor · Arlo Advertiser (advertiser@demo.example)"}]


def test_filters_by_date_and_person(db):
    advertiser, agency = actor_of(db, "advertiser@demo.example"), actor_of(db, "agency@demo.example")
    created = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
    campaigns.update_campaign(db, actor=agency, campaign_id=created.id, data=CampaignUpdate.model_validate({"bid": "2"}))
    by_agency = change_log.page(db, actor=advertiser, kind="campaign", record_id=created.id, user_id=agency.id)
    assert [e.action for e in by_agency.entries] == ["update"]
    assert len(by_agency.people) == 2  # the filter's choices stay whole
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    assert change_log.page(db, actor=advertiser, kind="campaign", record_id=created.id,
                           since=tomorrow).entries == []
    today = datetime.now(UTC).date().isoformat()
    assert len(change_log.page(db, actor=advertiser, kind="campaign", record_id=created.id,
                               since=today, until=today).entries) == 2
    with pytest.raises(Invalid) as error:
        change_log.page(db, actor=advertiser, kind="campaign", record_id=created.id, since="yesterday")
    assert set(error.value.fields) == {"since"}


def test_an_advertisers_log_names_each_campaign_and_stays_within_scope(db):
    advertiser, admin = actor_of(db, "advertiser@demo.example"), actor_of(db, "admin@demo.example")
    first = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
    campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**SETTINGS, "name": "Second Wave"}))
    campaigns.set_status(db, actor=advertiser, campaign_id=first.id, status="active")
    log = change_log.page(db, actor=admin, kind="advertiser_campaigns", record_id=advertiser.id)
    assert [(e.campaign, e.action) for e in log.entries] == [
        ("Autumn Push", "set_status_active"), ("Second Wave", "create"), ("Autumn Push", "create")]
    _rival_agency, rival_advertiser = other_tenant(db)
    with pytest.raises(NotFound):
        change_log.page(db, actor=actor_of(db, "coadmin@demo.example"), kind="advertiser_campaigns",
                        record_id=user_by_email(db, "admin@demo.example").id)
    with pytest.raises(Forbidden):  # a staff page (change_log.CHANGE_LOGS), whoever's advertiser it is
        change_log.page(db, actor=actor_of(db, "agency@demo.example"), kind="advertiser_campaigns",
                        record_id=rival_advertiser.id)
    with pytest.raises(NotFound):
        change_log.page(db, actor=actor_of(db, "rival-agency@other.example"), kind="campaign",
                        record_id=first.id)
