"""A creative's change log as people read it: files by name, campaigns added and removed by name, only what a
new creative was given, filters by person; another tenant's creative stays out of reach."""

from __future__ import annotations

import pytest

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.history import change_log
from app.kernel.errors import NotFound
from tests.helpers import actor_of, other_tenant
from tests.media_files import image_bytes
from tests.test_campaign_pages import SETTINGS


def test_files_and_campaigns_read_by_name(db):
    advertiser, agency = actor_of(db, "advertiser@demo.example"), actor_of(db, "agency@demo.example")
    first = creatives.upload_asset(db, actor=advertiser, filename="first.png", content=image_bytes(300, 250))
    second = creatives.upload_asset(db, actor=advertiser, filename="second.png", content=image_bytes(300, 250, "JPEG"))
    creative = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
        "type": "image", "name": "Box", "click_url": "https://shop.example/", "asset_id": first.id}))
    campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
    creatives.update_creative(db, actor=agency, creative_id=creative.id, data=CreativeUpdate(**{"asset_id": second.id}))
    creatives.assign_to_campaigns(db, actor=advertiser, creative_id=creative.id, campaign_ids=[campaign.id])
    log = change_log.page(db, actor=advertiser, kind="creative", record_id=creative.id)
    assigned, edited, made = log.entries
    assert [c for c in assigned.changes if c.field == "campaign_ids"][0].added == ["Autumn Push"]
    assert {c.field: (c.old, c.new) for c in edited.changes}["asset_id"] == ("first.png", "second.png")
    given = {c.field for c in made.changes}
    assert "asset_id" in given and "pixel_urls" not in given and "status" not in given
    by_agency = change_log.page(db, actor=advertiser, kind="creative", record_id=creative.id, user_id=agency.id)
    assert [e.action for e in by_agency.entries] == ["update"] and len(by_agency.people) == 2
    other_tenant(db)
    with pytest.raises(NotFound):
        change_log.page(db, actor=actor_of(db, "rival-agency@other.example"), kind="creative", record_id=creative.id)
