"""Creative services: each type's rules with the spec's messages, files read from their bytes, status moves as
declared, html kept to the preview, campaign assignment from both sides, bulk edits row by row, the change
history, and another tenant's creatives out of reach."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import BulkChanges, CreativeCreate, CreativeFile, CreativeRead, CreativeUpdate
from app.history import change_log
from app.history.models import AuditEntry
from app.kernel.config import get_settings
from app.kernel.errors import Forbidden, Invalid, NotFound
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.media_files import image_bytes, mp4_bytes, png_bomb

CLICK = "https://shop.example/landing"
MARKUP = "<div onclick=\"alert(1)\"><script>document.cookie</script>Buy now</div>"
CAMPAIGN: dict[str, Any] = {"name": "Spring Sale", "starts_at": "2026-12-01", "total_budget": "500", "bid": "2"}


def _image(db, actor, **extra: Any) -> CreativeFile:
    return creatives.upload_asset(db, actor=actor, filename="banner.png", content=image_bytes(300, 250), **extra)


def _image_creative(db, actor, **fields: Any) -> CreativeRead:
    advertiser_id = fields.pop("advertiser_id", None)
    asset = _image(db, actor, advertiser_id=advertiser_id)
    data = {"type": "image", "name": "Banner 300x250", "click_url": CLICK, "asset_id": asset.id, **fields}
    return creatives.create_creative(db, actor=actor, data=CreativeCreate(**data), advertiser_id=advertiser_id)


def test_an_image_creative_takes_its_size_from_the_file(db):
    me = actor_of(db, "advertiser@demo.example")
    created = _image_creative(db, me, pixel_urls="https://px.example/a/, https://px.example/b/")
    assert created.type == "image" and created.status == "active" and created.advertiser_id == me.id
    assert (created.width, created.height) == (300, 250)
    assert created.pixel_urls == ["https://px.example/a/", "https://px.example/b/"]
    assert created.asset.url.startswith("/files/creatives/") and created.asset.content_type == "image/png"
    assert created.next_statuses == ["archived", "paused"]
    listed = creatives.list_creatives(db, actor=me)
    assert [(r.name, r.width, r.asset_url) for r in listed] == [("Banner 300x250", 300, created.asset.url)]


def test_each_type_names_its_bad_fields_with_the_specs_messages(db):
    me = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "image", "name": "  ", "click_url": "",
                                                      "pixel_urls": "https://px.example/no-slash"}))
    assert error.value.fields == {
        "name": "Creative name cannot be empty.", "click_url": "Click URL is mandatory",
        "pixel_urls": "Please enter valid http(s) URLs separated by commas, each ending with a slash (/).",
        "asset_id": "Upload the creative's image."}
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "video", "name": "Spot", "click_url": "ftp://x",
                                                      "pixel_urls": ["https://px.example/"]}))
    assert error.value.fields == {"click_url": "Please enter a valid URL.", "asset_id": "Upload the creative's video.",
                                  "pixel_urls": "Video creatives do not have this field."}
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "native", "name": "Story", "click_url": CLICK,
                                                      "impression_urls": ["https://a.example/", "https://b.example/"]}))
    assert error.value.fields == {"impression_urls": "Native creatives take a single impression URL.",
                                  "title": "This field is required.", "description": "This field is required.",
                                  "call_to_action": "This field is required.",
                                  "main_image_asset_id": "Upload the main image."}
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": "Tag", "click_url": CLICK,
                                                      "html": " ", "width": 0}))
    assert error.value.fields == {"click_url": "Html creatives do not have this field.",
                                  "html": "Enter the creative's HTML markup.",
                                  "width": "Enter a whole number of pixels from 1 to 4096."}
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": "x" * 121, "html": "a" * 102_401}))
    assert set(error.value.fields) == {"name", "html"}
    assert error.value.fields["html"] == "The HTML markup is larger than 100 KB."
    with pytest.raises(Invalid) as error:
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "banner", "name": "B"}))
    assert set(error.value.fields) == {"type"}
    assert creatives.list_creatives(db, actor=me) == []


def test_native_and_video_creatives(db):
    me = actor_of(db, "advertiser@demo.example")
    main = creatives.upload_asset(db, actor=me, filename="main.png", content=image_bytes(1200, 627), purpose="image")
    icon = creatives.upload_asset(db, actor=me, filename="icon.gif", content=image_bytes(64, 64, "GIF"), purpose="icon")
    native = creatives.create_creative(db, actor=me, data=CreativeCreate(**{
        "type": "native", "name": "Story", "click_url": CLICK, "impression_urls": "https://imp.example/1/",
        "title": "Spring shoes", "description": "Half price this week", "call_to_action": "Shop now",
        "main_image_asset_id": main.id, "icon_asset_id": icon.id}))
    assert native.impression_urls == ["https://imp.example/1/"] and native.icon.content_type == "image/gif"
    assert (native.width, native.height) == (1200, 627)
    video_file = creatives.upload_asset(db, actor=me, filename="spot.mp4", content=mp4_bytes(duration_ms=15_000),
                                        purpose="video")
    assert (video_file.duration_ms, video_file.width, video_file.height) == (15_000, 640, 360)
    with pytest.raises(Invalid) as error:  # a video where an image belongs, and the other way round
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "image", "name": "B", "click_url": CLICK,
                                                      "asset_id": video_file.id}))
    assert error.value.fields == {"asset_id": "This file is not an image."}
    video = creatives.create_creative(db, actor=me, data=CreativeCreate(**{
        "type": "video", "name": "Spot", "click_url": CLICK, "asset_id": video_file.id,
        "impression_urls": ["https://imp.example/1/", "https://imp.example/2/"]}))
    assert video.duration_ms == 15_000 and len(video.impression_urls) == 2
    assert {r.type for r in creatives.list_creatives(db, actor=me, type="video")} == {"video"}


def test_a_files_type_comes_from_its_bytes_not_its_name(db):
    me = actor_of(db, "advertiser@demo.example")
    png_named_mp4 = creatives.upload_asset(db, actor=me, filename="clip.mp4", content=image_bytes(320, 50))
    assert png_named_mp4.content_type == "image/png" and png_named_mp4.url.endswith(".png")
    assert (png_named_mp4.width, png_named_mp4.height) == (320, 50)
    for content, purpose, message in (
        (b"just some text", "image", "Upload a PNG, JPEG, GIF or WEBP image."),
        (b"", "image", "The file is empty."),
        (image_bytes(), "video", "Upload an MP4 video."),
        (mp4_bytes(video=False), "video", "The file has no video track."),
        (png_bomb(), "image", "Image is over 179 MP; the limit is 40 MP."),
        (image_bytes(fmt="BMP"), "image", "Upload a PNG, JPEG, GIF or WEBP image."),
        (b"\0" * (get_settings().max_creative_image_bytes + 1), "icon", "The file is larger than 2 MB."),
    ):
        with pytest.raises(Invalid) as error:
            creatives.upload_asset(db, actor=me, filename="banner.png", content=content, purpose=purpose)
        assert error.value.fields == {"file": message}
    again = creatives.upload_asset(db, actor=me, filename="other.png", content=image_bytes(320, 50))
    assert again.id == png_named_mp4.id  # the same file once per advertiser


def test_html_markup_is_only_in_the_preview(db):
    me = actor_of(db, "advertiser@demo.example")
    created = creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": "Tag", "html": MARKUP,
                                                            "width": 300, "height": 250}))
    creatives.update_creative(db, actor=me, creative_id=created.id, data=CreativeUpdate(**{"html": MARKUP + "<b>more</b>"}))
    shown = creatives.preview(db, actor=me, creative_id=created.id)
    assert shown.html == MARKUP + "<b>more</b>" and (shown.width, shown.height) == (300, 250)
    elsewhere = [created, creatives.get_creative(db, actor=me, creative_id=created.id),
                 creatives.list_creatives(db, actor=me),
                 change_log.page(db, actor=me, kind="creative", record_id=created.id).entries]
    assert ["document.cookie" in repr(place) for place in elsewhere] == [False] * 4
    assert created.html_size_bytes == len(MARKUP)
    image = _image_creative(db, me)
    assert "html" not in creatives.preview(db, actor=me, creative_id=image.id).model_dump()


def test_status_moves_only_as_declared_and_delete_archives(db):
    me = actor_of(db, "advertiser@demo.example")
    creative_id = _image_creative(db, me).id
    assert creatives.set_status(db, actor=me, creative_id=creative_id, status="paused").status == "paused"
    assert creatives.set_status(db, actor=me, creative_id=creative_id, status="active").status == "active"
    with pytest.raises(Invalid):
        creatives.set_status(db, actor=me, creative_id=creative_id, status="deleted")
    assert creatives.archive_creative(db, actor=me, creative_id=creative_id).status == "archived"
    with pytest.raises(Invalid) as error:
        creatives.set_status(db, actor=me, creative_id=creative_id, status="active")
    assert error.value.fields == {"status": "An archived creative cannot become active."}
    with pytest.raises(Invalid):
        creatives.update_creative(db, actor=me, creative_id=creative_id, data=CreativeUpdate(**{"name": "Revived"}))
    assert creatives.list_creatives(db, actor=me) == []
    assert [r.status for r in creatives.list_creatives(db, actor=me, include_archived=True)] == ["archived"]


def test_edits_are_audited_field_by_field_and_the_type_stays(db):
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    creative_id = _image_creative(db, agency, advertiser_id=own.id).id
    saved = creatives.update_creative(db, actor=agency, creative_id=creative_id,
                                      data=CreativeUpdate(**{"name": "Banner B", "click_url": "https://shop.example/b"}))
    assert saved.name == "Banner B" and saved.asset is not None  # fields not sent keep their values
    with pytest.raises(Invalid) as error:
        creatives.update_creative(db, actor=agency, creative_id=creative_id, data=CreativeUpdate(**{"type": "video"}))
    assert set(error.value.fields) == {"type"}
    log = change_log.page(db, actor=agency, kind="creative", record_id=creative_id).entries
    assert [row.action for row in log] == ["update", "create"]
    assert [c.model_dump() for c in log[0].changes] == [
        {"field": "click_url", "old": CLICK, "new": "https://shop.example/b"},
        {"field": "name", "old": "Banner 300x250", "new": "Banner B"}]
    assert log[0].actor.endswith("(agency@demo.example)")


def test_assignment_from_both_sides_within_one_advertiser(db):
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    campaign = campaigns.create_campaign(db, actor=agency, data=CampaignUpdate.model_validate(CAMPAIGN), advertiser_id=own.id)
    other = campaigns.create_campaign(db, actor=agency, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Autumn"}),
                                      advertiser_id=own.id)
    first = _image_creative(db, agency, advertiser_id=own.id).id
    second = creatives.create_creative(db, actor=agency, advertiser_id=own.id,
                                       data=CreativeCreate(**{"type": "html", "name": "Tag", "html": "<p>Hi</p>"})).id
    assigned = creatives.assign_to_campaigns(db, actor=agency, creative_id=first, campaign_ids=[campaign.id, other.id])
    assert [row.name for row in assigned] == ["Autumn", "Spring Sale"]
    rows = creatives.set_campaign_creatives(db, actor=agency, campaign_id=campaign.id, creative_ids=[second])
    assert [row.id for row in rows] == [second]
    assert [c.model_dump() for c in creatives.get_creative(db, actor=agency, creative_id=first).campaigns] == [
        {"id": other.id, "name": "Autumn"}]
    assert [r.id for r in creatives.list_creatives(db, actor=agency, campaign_id=campaign.id)] == [second]
    assert [r.id for r in creatives.campaign_creatives(db, actor=agency, campaign_id=campaign.id)] == [second]
    audited = db.exec(select(AuditEntry).where(AuditEntry.action.in_(["assign_campaigns", "assign_creatives"]))
                      .order_by(AuditEntry.id)).all()  # the campaign's last assignment is the one read below
    assert {(e.entity, e.entity_id): e.changes for e in audited if e.entity == "campaign"}[("campaign", str(campaign.id))] \
        == {"creative_ids": [[first], [second]]}
    assert [c.model_dump(include={"field", "old", "new"}) for c in change_log.page(
        db, actor=agency, kind="creative", record_id=first).entries[0].changes] == [
        {"field": "campaign_ids", "old": [campaign.id, other.id], "new": [other.id]}]

    admin = actor_of(db, "admin@demo.example")
    _rival_agency, rival_advertiser = other_tenant(db)
    theirs = _image_creative(db, admin, advertiser_id=rival_advertiser.id).id
    with pytest.raises(Invalid) as error:  # staff see both, but the two belong to different advertisers
        creatives.set_campaign_creatives(db, actor=admin, campaign_id=campaign.id, creative_ids=[second, theirs])
    assert error.value.fields == {"creative_ids": "Banner 300x250 belongs to another advertiser."}
    with pytest.raises(Invalid) as error:  # the agency cannot even tell the rival's creative exists
        creatives.set_campaign_creatives(db, actor=agency, campaign_id=campaign.id, creative_ids=[theirs])
    assert error.value.fields == {"creative_ids": f"Creative {theirs}: Creative not found."}


def test_a_campaign_save_is_all_or_nothing_with_its_creatives(db):
    """The campaign form's save: settings and creatives in one unit of work. A refused creative leaves neither
    the edit's settings nor a new campaign behind, even inside a caller's longer transaction."""
    me = actor_of(db, "advertiser@demo.example")
    saved = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(CAMPAIGN))
    mine = creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": "Tag", "html": "<p>Hi</p>"})).id
    admin = actor_of(db, "admin@demo.example")
    _rival_agency, rival_advertiser = other_tenant(db)
    theirs = _image_creative(db, admin, advertiser_id=rival_advertiser.id).id
    with pytest.raises(Invalid) as error:
        creatives.save_campaign(db, actor=me, campaign_id=saved.id, data=CampaignUpdate.model_validate({"name": "Renamed"}),
                                creative_ids=[mine, theirs])
    assert error.value.fields == {"creative_ids": f"Creative {theirs}: Creative not found."}
    with pytest.raises(Invalid):
        creatives.save_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Never Made"}), creative_ids=[theirs])
    assert [c.name for c in campaigns.list_campaigns(db, actor=me)] == ["Spring Sale"]
    assert creatives.campaign_creatives(db, actor=me, campaign_id=saved.id) == []

    made = creatives.save_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Made"}),
                                   creative_ids=[mine])
    assert [c.id for c in creatives.campaign_creatives(db, actor=me, campaign_id=made.id)] == [mine]
    renamed = creatives.save_campaign(db, actor=me, campaign_id=made.id, data=CampaignUpdate.model_validate({"name": "Made Again"}))
    assert renamed.name == "Made Again"  # no creative ids: the creatives stay as they are
    assert [c.id for c in creatives.campaign_creatives(db, actor=me, campaign_id=made.id)] == [mine]


def test_a_clone_takes_the_originals_creatives_but_not_its_archived_ones(db):
    """The API's clone and the clone page start from one plan: the original's creatives, less archived ones (they
    take no new campaign), which the plan names as left out."""
    me = actor_of(db, "advertiser@demo.example")
    source = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate(CAMPAIGN))
    kept, gone = (creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": name, "html": "<p>Hi</p>"})).id
                  for name in ("Tag", "Old Tag"))
    creatives.set_campaign_creatives(db, actor=me, campaign_id=source.id, creative_ids=[kept, gone])
    creatives.archive_creative(db, actor=me, creative_id=gone)
    plan = campaigns.clone_plan(db, actor=me, campaign_id=source.id)
    assert plan.campaign.taken["creative_ids"] == [kept] and plan.left_out == ["Old Tag"]
    clone = campaigns.clone_campaign(db, actor=me, campaign_id=source.id)
    assert clone.left_out == ["Old Tag"]
    assert [c.id for c in creatives.campaign_creatives(db, actor=me, campaign_id=clone.id)] == [kept]


def test_bulk_edits_save_the_good_rows_and_say_why_others_were_refused(db):
    me = actor_of(db, "advertiser@demo.example")
    first, second = _image_creative(db, me).id, _image_creative(db, me, name="Banner 2").id
    video_file = creatives.upload_asset(db, actor=me, filename="spot.mp4", content=mp4_bytes(), purpose="video")
    video = creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "video", "name": "Spot", "click_url": CLICK,
                                                          "asset_id": video_file.id})).id
    results = creatives.bulk_update(db, actor=me, creative_ids=[first, video, second, 999_999],
                                    changes=BulkChanges(**{"click_url": "https://shop.example/new", "pixel_urls": "https://px.example/"}))
    assert [(r.id, r.name, r.ok) for r in results] == [
        (first, "Banner 300x250", True), (video, "Spot", False), (second, "Banner 2", True), (999_999, "", False)]
    assert results[1].message == "Pixel URLs: video creatives do not have this field."
    assert results[3].message == "Creative not found."
    db.commit()
    assert creatives.get_creative(db, actor=me, creative_id=second).click_url == "https://shop.example/new"
    assert creatives.get_creative(db, actor=me, creative_id=video).click_url == CLICK  # untouched
    with pytest.raises(Invalid):
        creatives.bulk_update(db, actor=me, creative_ids=[first], changes=BulkChanges(**{"name": "All the same"}))


def test_bulk_status_is_for_staff_row_by_row(db):
    me = actor_of(db, "advertiser@demo.example")
    live, archived = _image_creative(db, me).id, _image_creative(db, me, name="Old").id
    creatives.archive_creative(db, actor=me, creative_id=archived)
    with pytest.raises(Forbidden):
        creatives.bulk_status(db, actor=me, creative_ids=[live], status="paused")
    results = creatives.bulk_status(db, actor=actor_of(db, "coadmin@demo.example"), creative_ids=[live, archived],
                                    status="paused")
    assert [(r.ok, r.message) for r in results] == [(True, "Status changed"),
                                                          (False, "Status: an archived creative cannot become paused.")]


def test_another_tenants_creatives_are_out_of_reach(db):
    rival_agency, rival_advertiser = other_tenant(db)
    rival = actor_of(db, rival_agency.email)
    theirs = _image_creative(db, rival, advertiser_id=rival_advertiser.id)
    their_campaign = campaigns.create_campaign(db, actor=rival, data=CampaignUpdate.model_validate(CAMPAIGN), advertiser_id=rival_advertiser.id).id
    for email in ("agency@demo.example", "advertiser@demo.example"):
        actor = actor_of(db, email)
        for call in (lambda a=actor: creatives.get_creative(db, actor=a, creative_id=theirs.id),
                     lambda a=actor: creatives.preview(db, actor=a, creative_id=theirs.id),
                     lambda a=actor: creatives.update_creative(db, actor=a, creative_id=theirs.id, data=CreativeUpdate(**{"name": "X"})),
                     lambda a=actor: creatives.set_status(db, actor=a, creative_id=theirs.id, status="paused"),
                     lambda a=actor: creatives.archive_creative(db, actor=a, creative_id=theirs.id),
                     lambda a=actor: change_log.page(db, actor=a, kind="creative", record_id=theirs.id),
                     lambda a=actor: creatives.assign_to_campaigns(db, actor=a, creative_id=theirs.id, campaign_ids=[]),
                     lambda a=actor: creatives.campaign_creatives(db, actor=a, campaign_id=their_campaign)):
            with pytest.raises(NotFound):
                call()
        assert creatives.list_creatives(db, actor=actor) == []
    with pytest.raises(Invalid):  # nor can the agency upload files or make creatives for the rival's advertiser
        creatives.upload_asset(db, actor=actor_of(db, "agency@demo.example"), advertiser_id=rival_advertiser.id,
                               filename="a.png", content=image_bytes())
    with pytest.raises(Invalid):
        _image_creative(db, actor_of(db, "agency@demo.example"), advertiser_id=rival_advertiser.id)
    me = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:  # the rival's file answers like a missing one
        creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "image", "name": "B", "click_url": CLICK,
                                                      "asset_id": theirs.asset.id}))
    assert error.value.fields == {"asset_id": "Choose a file uploaded for this advertiser."}
    assert [r.id for r in creatives.list_creatives(db, actor=actor_of(db, "admin@demo.example"))] == [theirs.id]
