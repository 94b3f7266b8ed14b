"""The edits made from a page name the version the page showed (issue 38: "bulk edits ... the same", "the form
sends the fields the person changed"): the bulk pages read each row's version from the list, the creative form
sends only what changed, and a restore, an audience's campaigns and a record's links refuse a copy saved since
with who changed what and when. Two link edits from one copy cannot lay one over the other."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from sqlmodel import Session

from app.campaigns import audience_targeting
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import BulkChanges, CreativeCreate, CreativeUpdate
from app.history import change_log, restore
from app.kernel.errors import Conflict, NotFound
from app.supply import audiences
from components.creatives.creative_form import initial_values, submitted_data
from components.ui.field_store import FieldStore
from tests.helpers import actor_of, other_tenant
from tests.test_campaign_pages import SETTINGS

ADVERTISER, AGENCY = "advertiser@demo.example", "agency@demo.example"
STALE = re.compile(r"Changed by Agnes Agency at \d\d:\d\d UTC: (?P<fields>[a-z, ]+)\. Reload to see the changes\.")


def _campaign(db: Session, name: str = "Edge Run") -> int:
    return campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER),
                                     data=CampaignUpdate.model_validate({**SETTINGS, "name": name})).id


def _html_creative(db: Session, name: str = "Tag") -> int:
    return creatives.create_creative(db, actor=actor_of(db, ADVERTISER), data=CreativeCreate(
        type="html", name=name, html="<b>hi</b>", width=300, height=250)).id


def test_a_bulk_edit_from_the_list_rows_refuses_the_row_saved_since_and_applies_the_others(db: Session) -> None:
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    first, second = _campaign(db, "Edge One"), _campaign(db, "Edge Two")
    shown = campaigns.list_campaigns_page(db, actor=bo, ids=[first, second]).rows  # what the bulk page's grid shows
    campaigns.update_campaign(db, actor=ana, campaign_id=first, data=CampaignUpdate(bid="3.00"))
    rows = campaign_bulk.bulk_update(db, actor=bo, campaign_ids=[first, second], changes={"daily_budget": "150"},
                                     read={row.id: row.version for row in shown})
    assert [(row.id, row.ok) for row in rows] == [(first, False), (second, True)]
    assert STALE.fullmatch(rows[0].message)["fields"] == "bid"  # type: ignore[index]
    assert campaigns.get_campaign(db, actor=bo, campaign_id=first).daily_budget == "40.00"


def test_a_creative_bulk_edit_from_the_list_rows_refuses_the_row_saved_since(db: Session) -> None:
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    first, second = _html_creative(db, "Tag One"), _html_creative(db, "Tag Two")
    shown = creatives.list_creatives_page(db, actor=bo, ids=[first, second]).rows
    creatives.update_creative(db, actor=ana, creative_id=first, data=CreativeUpdate(name="Tag Uno"))
    rows = creatives.bulk_status(db, actor=actor_of(db, "admin@demo.example"), creative_ids=[first, second],
                                 status="paused", read={row.id: row.version for row in shown})
    assert [(row.id, row.ok) for row in rows] == [(first, False), (second, True)]
    assert "Agnes Agency" in rows[0].message and "name" in rows[0].message
    assert creatives.bulk_update(db, actor=bo, creative_ids=[first], changes=BulkChanges(
        click_url="https://shop.example/"), read={first: shown[0].version})[0].ok is False


def test_the_creative_form_sends_only_what_was_changed(db: Session) -> None:
    creative = creatives.get_creative(db, actor=actor_of(db, ADVERTISER), creative_id=_html_creative(db))
    loaded = initial_values(creative, "<b>hi</b>")
    store = FieldStore(SimpleNamespace(current=dict(loaded)), SimpleNamespace(current={}))
    assert submitted_data(store, "html", loaded) == {}
    store.put("width", "320")
    assert submitted_data(store, "html", loaded) == {"width": "320"}
    assert set(submitted_data(store, "html")) == {"name", "html", "width", "height"}  # a new one: every field


def test_a_restore_from_a_plan_shown_before_someone_saved_is_refused(db: Session) -> None:
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    campaign_id = _campaign(db)
    campaigns.update_campaign(db, actor=bo, campaign_id=campaign_id, data=CampaignUpdate(daily_budget="55"))
    entry = change_log.page(db, actor=bo, kind="campaign", record_id=campaign_id).entries[0].id
    plan = restore.plan(db, actor=bo, kind="campaign", record_id=campaign_id, entry_id=entry)
    assert plan.version == 2
    campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(bid="3.00"))
    with pytest.raises(Conflict) as refused:
        restore.restore(db, actor=bo, kind="campaign", record_id=campaign_id, entry_id=entry, version=plan.version)
    assert STALE.fullmatch(refused.value.message)["fields"] == "bid"  # type: ignore[index]
    assert campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id).daily_budget == "55.00"
    again = restore.plan(db, actor=bo, kind="campaign", record_id=campaign_id, entry_id=entry)
    done = restore.restore(db, actor=bo, kind="campaign", record_id=campaign_id, entry_id=entry, version=again.version)
    assert done.record.daily_budget == "40.00" and done.record.bid == "3.00"


def test_choosing_an_audiences_campaigns_refuses_one_saved_since_naming_it(db: Session) -> None:
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    campaign_id = _campaign(db)
    audience = audiences.create_audience(db, actor=bo, name="Edge Audience", kind="device_ids")
    audiences.set_status(db, actor=bo, audience_id=audience.id, status="active")
    shown = {row.id: row.version for row in campaigns.list_campaigns(db, actor=bo, advertiser_id=audience.advertiser_id)}
    campaigns.update_campaign(db, actor=ana, campaign_id=campaign_id, data=CampaignUpdate(bid="3.00"))
    with pytest.raises(Conflict) as refused:
        audience_targeting.associate_campaigns(db, actor=bo, audience_id=audience.id, allow=[campaign_id], block=[],
                                               read=shown)
    assert refused.value.message.startswith(f"Edge Run (#{campaign_id}): Changed by Agnes Agency at ")
    saved = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id)
    assert saved.targeting.audiences.allow == []
    audience_targeting.associate_campaigns(db, actor=bo, audience_id=audience.id, allow=[campaign_id], block=[],
                                           read={campaign_id: saved.version})
    after = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id)
    assert after.targeting.audiences.allow == [audience.id]
    assert after.targeting.countries == saved.targeting.countries  # only the audiences changed


def test_two_link_edits_from_one_copy_cannot_lay_one_over_the_other(db: Session) -> None:
    ana, bo = actor_of(db, AGENCY), actor_of(db, ADVERTISER)
    campaign_id, first, second = _campaign(db), _html_creative(db, "Tag One"), _html_creative(db, "Tag Two")
    seen = campaigns.get_campaign(db, actor=bo, campaign_id=campaign_id).version  # both pages show this copy
    creatives.set_campaign_creatives(db, actor=ana, campaign_id=campaign_id, creative_ids=[first], version=seen)
    with pytest.raises(Conflict) as refused:
        creatives.set_campaign_creatives(db, actor=bo, campaign_id=campaign_id, creative_ids=[second], version=seen)
    assert STALE.fullmatch(refused.value.message)["fields"] == "creatives"  # type: ignore[index]
    assert [row.id for row in creatives.campaign_creatives(db, actor=bo, campaign_id=campaign_id)] == [first]
    # From the creative's side: its version moved on with the link, so its page's older copy is refused too.
    creative = creatives.get_creative(db, actor=bo, creative_id=first)
    assert creative.version == 2
    with pytest.raises(Conflict):
        creatives.assign_to_campaigns(db, actor=bo, creative_id=first, campaign_ids=[], version=1)
    assert creatives.assign_to_campaigns(db, actor=bo, creative_id=first, campaign_ids=[], version=2) == []


def test_another_tenants_campaign_stays_out_of_reach_with_or_without_a_version(db: Session) -> None:
    campaign_id = _campaign(db)
    rival, _advertiser = other_tenant(db)
    for version in (None, 1):
        with pytest.raises(NotFound):
            creatives.set_campaign_creatives(db, actor=actor_of(db, rival.email), campaign_id=campaign_id,
                                             creative_ids=[], version=version)
