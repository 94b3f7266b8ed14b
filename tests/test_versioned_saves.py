"""Saves are versioned and partial (issue 38, items 6 and 7), through the services: two people open one campaign; A
saves the bid, B then saves the daily budget from the copy B loaded: B is refused, told who changed what, and A's
bid stays. A targeting update replaces only the kinds it names. Creatives alike."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns import targeting_options
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.kernel.db import session_scope
from app.kernel.errors import Conflict
from app.kernel.i18n.catalog import translator
from components.campaigns.campaign_form import initial_values, submitted_data
from components.ui.field_store import FieldStore
from tests.helpers import actor_of

ADVERTISER, AGENCY = "advertiser@demo.example", "agency@demo.example"
CAMPAIGN: dict[str, Any] = {
    "name": "Winter Sale", "starts_at": "2027-01-10", "ends_at": "2027-02-10", "total_budget": "3000",
    "daily_budget": "100", "bid": "2.00",
    "targeting": {"countries": ["DE", "AT"], "device_types": ["phone"], "languages": ["de"]}}


def _campaign(db: Session) -> int:
    """The advertiser's campaign, on one of the exchanges it may buy on."""
    exchanges = targeting_options.options(db, actor=actor_of(db, ADVERTISER), advertiser_id=None).exchanges
    targeting = {**CAMPAIGN["targeting"], "exchanges": [exchanges[0].id]}
    created = campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER),
                                        data=CampaignUpdate.model_validate({**CAMPAIGN, "targeting": targeting}))
    return created.id


def test_the_second_of_two_people_saving_from_one_copy_is_refused_and_the_first_save_stays(db: Session) -> None:
    campaign_id = _campaign(db)
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    seen_by_ana = campaigns.get_campaign(db, actor=ana, campaign_id=campaign_id)
    seen_by_bo = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id)
    saved = campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id,
                                      data=CampaignUpdate(bid="3.00", version=seen_by_ana.version))
    assert saved.bid == "3.00" and saved.version == seen_by_ana.version + 1
    with pytest.raises(Conflict) as refused:
        campaigns.update_campaign(db, actor=bo, campaign_id=campaign_id,
                                  data=CampaignUpdate(daily_budget="150.00", version=seen_by_bo.version))
    assert re.fullmatch(r"Changed by Agnes Agency at \d\d:\d\d UTC: bid\. Reload to see the changes\.",
                        refused.value.message), refused.value.message
    assert refused.value.code == 409 and refused.value.data["version"] == saved.version
    assert refused.value.data["changes"][0]["fields"] == ["bid"]
    now = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id)
    assert (now.bid, now.daily_budget, now.version) == ("3.00", "100.00", saved.version)
    # Reloaded, B's save goes through, and keeps A's bid.
    again = campaigns.update_campaign(db, actor=bo, campaign_id=campaign_id,
                                      data=CampaignUpdate(daily_budget="150.00", version=now.version))
    assert (again.bid, again.daily_budget) == ("3.00", "150.00")


def test_the_refusal_names_every_person_and_field_since_the_copy_and_speaks_the_readers_language(db: Session) -> None:
    campaign_id = _campaign(db)
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(bid="3", daily_budget="90"))
    campaigns.update_campaign(db, actor=bo, campaign_id=campaign_id,
                              data=CampaignUpdate(targeting={"countries": ["FR"]}))
    campaigns.set_status(db, actor=bo, campaign_id=campaign_id, status="active")
    with pytest.raises(Conflict) as refused:
        campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(name="X", version=1))
    assert re.fullmatch(r"Changed by Agnes Agency, Arlo Advertiser at \d\d:\d\d UTC: bid, daily budget, countries, "
                        r"status\. Reload to see the changes\.", refused.value.message), refused.value.message
    german = translator("gr")(refused.value.message)
    assert "Agnes Agency" in german and "Tagesbudget" in german and "Reload" not in german


def test_a_save_without_a_version_still_changes_only_what_it_names(db: Session) -> None:
    campaign_id = _campaign(db)
    ana = actor_of(db, AGENCY)
    campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(bid="3.00"))
    saved = campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(daily_budget="150"))
    assert (saved.bid, saved.daily_budget, saved.version) == ("3.00", "150.00", 3)


def test_a_save_that_loses_a_race_after_its_check_is_refused_not_laid_over_the_other(demo_ids: dict[str, int]) -> None:
    """The check and the write are one conditional UPDATE: a save that read version 1, and is overtaken by another
    save before it writes, is refused rather than overwriting it."""
    with session_scope() as db:
        campaign_id = _campaign(db)
        ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    with session_scope() as first:
        campaign, _advertiser = campaigns.campaign_in_scope(first, ana, campaign_id)  # A reads version 1...
        assert campaign.version == 1
        with session_scope() as second:  # ...B saves from version 1 too, and commits first...
            campaigns.update_campaign(second, actor=bo, campaign_id=campaign_id,
                                      data=CampaignUpdate(bid="3.00", version=1))
        with pytest.raises(Conflict):  # ...then A's save, checked against what A read, is refused at its UPDATE
            campaigns.update_campaign(first, actor=ana, campaign_id=campaign_id,
                                      data=CampaignUpdate(daily_budget="150", version=1))
        first.rollback()
    with session_scope() as db:
        now = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id)
        assert (now.bid, now.daily_budget) == ("3.00", "100.00")


@pytest.mark.parametrize(("sent", "changed"), [
    ({"countries": ["FR"]}, {"countries": ["FR"]}),
    ({"languages": []}, {"languages": []}),
    ({"device_types": ["tablet", "desktop"]}, {"device_types": ["desktop", "tablet"]}),
    ({"exchanges": []}, {"exchanges": []}),
    ({"regions": ["DE-BY"]}, {"regions": ["DE-BY"]}),
    ({"dayparting": [[9], [], [], [], [], [], []]}, {"dayparting": [[9], [], [], [], [], [], []]}),
], ids=lambda value: ",".join(value) if isinstance(value, dict) else None)
def test_a_targeting_update_replaces_only_the_kinds_it_names(db: Session, sent: dict[str, Any],
                                                             changed: dict[str, Any]) -> None:
    campaign_id = _campaign(db)
    advertiser = actor_of(db, ADVERTISER)
    before = campaigns.get_campaign(db, actor=advertiser, campaign_id=campaign_id).targeting.model_dump()
    assert before["exchanges"] and before["device_types"] and before["languages"]
    saved = campaigns.update_campaign(db, actor=advertiser, campaign_id=campaign_id,
                                      data=CampaignUpdate(targeting=sent)).targeting.model_dump()
    assert saved == {**before, **changed}


def test_creatives_refuse_a_save_from_an_older_copy_too(db: Session) -> None:
    advertiser, agency = actor_of(db, ADVERTISER), actor_of(db, AGENCY)
    created = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(
        type="html", name="Tag", html="<b>hi</b>", width=300, height=250))
    assert created.version == 1
    renamed = creatives.update_creative(db, actor=agency, creative_id=created.id,
                                        data=CreativeUpdate(name="Tag B", version=1))
    assert renamed.version == 2
    with pytest.raises(Conflict) as refused:
        creatives.update_creative(db, actor=advertiser, creative_id=created.id,
                                  data=CreativeUpdate(width=320, version=1))
    assert re.fullmatch(r"Changed by Agnes Agency at \d\d:\d\d UTC: name\. Reload to see the changes\.",
                        refused.value.message), refused.value.message
    assert creatives.get_creative(db, actor=advertiser, creative_id=created.id).width == 300


def test_the_edit_form_sends_only_what_was_changed_with_what_goes_with_it(db: Session) -> None:
    campaign = campaigns.get_campaign(db, actor=actor_of(db, ADVERTISER), campaign_id=_campaign(db))
    loaded = initial_values(campaign)
    store = FieldStore(SimpleNamespace(current=dict(loaded)), SimpleNamespace(current={}))
    assert submitted_data(store, loaded, campaign.version).model_dump(exclude_unset=True) == {"version": 1}
    store.put("daily_budget", "150")
    store.put("targeting.countries", ["FR"])
    store.put("frequency_cap", "3")
    store.put("time_zone", "Europe/Paris")
    sent = submitted_data(store, loaded, campaign.version).model_dump(exclude_unset=True)
    assert sent == {"daily_budget": "150", "frequency_cap": "3", "frequency_period": "day", "time_zone": "Europe/Paris",
                    "starts_at": loaded["starts_at"], "ends_at": loaded["ends_at"], "targeting": {"countries": ["FR"]},
                    "version": 1}
