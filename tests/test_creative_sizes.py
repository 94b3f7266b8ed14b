"""Creatives are checked against the sizes their format takes (app/creatives/sizes.py), on the API and in the
services every page and bulk path calls (issue 38 item 9: a 1000x10 banner went active, and a 300x250 picture
was taken as a native icon). A refusal names the field and the sizes allowed."""

from __future__ import annotations

import pytest

from app.creatives import service as creatives
from app.creatives import sizes
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.kernel.errors import Invalid
from tests.helpers import actor_of, bearer_headers
from tests.media_files import image_bytes, mp4_bytes

CLICK = "https://shop.example/landing"
NATIVE_TEXT = {"title": "Spring shoes", "description": "Half price this week", "call_to_action": "Shop now"}


def _upload(client, headers, content: bytes, purpose: str = "image"):
    return client.post("/api/uploads/creative", headers=headers, files={"file": ("f.bin", content, "image/png")},
                       data={"purpose": purpose})


def _asset(client, headers, content: bytes, purpose: str = "image") -> int:
    reply = _upload(client, headers, content, purpose)
    assert reply.status_code == 201, reply.text
    return reply.json()["data"]["id"]


def test_a_banner_of_no_iab_size_is_refused_naming_the_sizes(client):
    me = bearer_headers(client, "advertiser@demo.example")
    strip = _asset(client, me, image_bytes(1000, 10))
    refused = client.post("/api/creatives", headers=me, json={"type": "image", "name": "Strip", "click_url": CLICK,
                                                              "asset_id": strip})
    assert refused.status_code == 422, refused.text
    message = refused.json()["data"]["fields"]["asset_id"]
    assert message.startswith("1000x10 is not a banner size.") and "300x250" in message and "728x90" in message
    assert client.get("/api/creatives", headers=me).json()["data"]["items"] == [], "nothing saved, nothing active"
    board = _asset(client, me, image_bytes(728, 90))
    made = client.post("/api/creatives", headers=me, json={"type": "image", "name": "Board", "click_url": CLICK,
                                                           "asset_id": board})
    assert made.status_code == 201 and made.json()["data"]["status"] == "active"
    swap = client.put(f"/api/creatives/{made.json()['data']['id']}", headers=me, json={"asset_id": strip})
    assert swap.status_code == 422 and "asset_id" in swap.json()["data"]["fields"], "an edit's new file too"
    html = client.post("/api/creatives", headers=me, json={"type": "html", "name": "Tag", "html": "<b>x</b>",
                                                           "width": 1000, "height": 10})
    assert html.status_code == 422 and html.json()["data"]["fields"]["width"].startswith("1000x10 is not")


def test_a_native_icon_is_square_and_its_main_image_a_native_ratio(client):
    me = bearer_headers(client, "advertiser@demo.example")
    refused = _upload(client, me, image_bytes(300, 250), purpose="icon")
    assert refused.status_code == 422
    assert refused.json()["data"]["fields"] == {"file": "A native icon is square (as 128x128); this picture is 300x250."}
    box, main, icon = (_asset(client, me, image_bytes(w, h)) for w, h in ((300, 250), (1200, 627), (128, 128)))
    native = {"type": "native", "name": "Story", "click_url": CLICK, **NATIVE_TEXT}
    wrong = client.post("/api/creatives", headers=me, json={**native, "main_image_asset_id": box,
                                                            "icon_asset_id": box})
    assert wrong.status_code == 422
    assert set(wrong.json()["data"]["fields"]) == {"main_image_asset_id", "icon_asset_id"}
    assert "1.91:1 or 1:1" in wrong.json()["data"]["fields"]["main_image_asset_id"]
    right = client.post("/api/creatives", headers=me, json={**native, "main_image_asset_id": main,
                                                            "icon_asset_id": icon})
    assert right.status_code == 201, right.text


def test_a_video_takes_the_aspect_ratios_players_take(db):
    me = actor_of(db, "advertiser@demo.example")
    for width, height, fits in ((1280, 720, True), (854, 480, True), (720, 1280, True), (640, 480, True),
                                (1000, 10, False), (1280, 1000, False)):
        video = creatives.upload_asset(db, actor=me, filename="spot.mp4", purpose="video",
                                       content=mp4_bytes(width=width, height=height))
        data = CreativeCreate(type="video", name=f"Spot {width}", click_url=CLICK, asset_id=video.id)
        if fits:
            assert creatives.create_creative(db, actor=me, data=data).width == width
        else:
            with pytest.raises(Invalid) as refused:
                creatives.create_creative(db, actor=me, data=data)
            assert refused.value.fields == {"asset_id": f"A video is 16:9, 9:16, 4:3, 1:1 (as 1280x720); "
                                                        f"this one is {width}x{height}."}


def test_an_edit_that_leaves_the_file_alone_is_not_refused_for_it(db):
    """Checked on what a save changes: a creative made before this rule keeps taking URL edits (the bulk edit's)."""
    me = actor_of(db, "advertiser@demo.example")
    board = creatives.upload_asset(db, actor=me, filename="b.png", content=image_bytes(728, 90))
    made = creatives.create_creative(db, actor=me, data=CreativeCreate(type="image", name="Old", click_url=CLICK,
                                                                       asset_id=board.id))
    strip = creatives.upload_asset(db, actor=me, filename="s.png", content=image_bytes(1000, 10))
    from app.creatives.models import Creative

    row = db.get(Creative, made.id)
    row.asset_id, row.width, row.height = strip.id, 1000, 10  # as saved before sizes were checked
    db.add(row)
    db.flush()
    saved = creatives.update_creative(db, actor=me, creative_id=made.id,
                                      data=CreativeUpdate(click_url="https://shop.example/new"))
    assert saved.click_url == "https://shop.example/new"


def test_the_table_is_declared_once_with_the_iab_sizes():
    assert {(300, 250), (728, 90), (160, 600), (320, 50), (970, 250), (300, 1050)} <= set(sizes.BANNER_SIZES)
    assert len(set(sizes.BANNER_SIZES)) == len(sizes.BANNER_SIZES)
    assert sizes.banner_problem(300, 250) is None and sizes.native_main_problem(1200, 628) is None


def test_a_size_refusal_and_an_unknown_filter_value_read_in_the_readers_language() -> None:
    from app.kernel.choices import filter_choice
    from app.kernel.i18n.catalog import translator

    refusal = sizes.banner_problem(1000, 10)
    assert refusal is not None and refusal.startswith("1000x10 is not a banner size. Use one of the IAB sizes: 300x250")
    assert translator("sp")(refusal).startswith("1000x10 no es un tamaño de banner. Use uno de los tamaños IAB: 300x250")
    assert translator("gr")(sizes.video_problem(1000, 10) or "").endswith("dieses ist 1000x10.")
    with pytest.raises(Invalid) as refused:
        filter_choice("status", "actve", ["active", "paused"])
    assert translator("it")(refused.value.fields["status"]) == (
        "Non è tra active, paused: scegline uno o lascia vuoto per vedere tutto.")
