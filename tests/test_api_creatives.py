"""Creatives over the JSON API: uploads read from their bytes and served with their real type, the pages' rules,
the spec's call names reaching the same functions, and another tenant's creative answering 404."""

from __future__ import annotations

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant
from tests.media_files import image_bytes, mp4_bytes

CLICK = "https://shop.example/landing"
CAMPAIGN = {"name": "Launch Week", "starts_at": "2026-12-01", "total_budget": "1200", "bid": "0.35"}


def _upload(client, headers, content: bytes, name: str = "banner.png", purpose: str = "image", **form):
    return client.post("/api/uploads/creative", headers=headers, files={"file": (name, content, "video/mp4")},
                       data={"purpose": purpose, **form})


def test_an_advertiser_uploads_a_file_and_makes_a_creative_of_it(client):
    me = bearer_headers(client, "advertiser@demo.example")
    uploaded = _upload(client, me, image_bytes(728, 90), name="leaderboard.mp4")  # a PNG, whatever its name says
    assert uploaded.status_code == 201, uploaded.text
    asset = uploaded.json()["data"]
    assert (asset["content_type"], asset["width"], asset["height"]) == ("image/png", 728, 90)
    served = client.get(asset["url"])  # public, like an ad server's files
    assert served.status_code == 200 and served.content == image_bytes(728, 90)
    assert served.headers["content-type"] == "image/png" and served.headers["x-content-type-options"] == "nosniff"
    for other in ("dsp.sqlite3", asset["url"].rsplit("/", 1)[1].replace(".png", ".mp4")):
        assert client.get(f"/files/creatives/{other}").status_code == 404, other

    created = client.post("/api/creatives", headers=me, json={"type": "image", "name": "Leaderboard",
                                                               "click_url": CLICK, "asset_id": asset["id"],
                                                               "pixel_urls": ["https://px.example/"]})
    assert created.status_code == 201, created.text
    creative = created.json()["data"]
    assert created.headers["location"] == f"/api/creatives/{creative['id']}"
    assert (creative["width"], creative["height"], creative["status"]) == (728, 90, "active")
    creative_id = creative["id"]
    assert client.put(f"/api/creatives/{creative_id}/status", headers=me,
                      json={"status": "paused"}).json()["data"]["status"] == "paused"
    saved = client.put(f"/api/creatives/{creative_id}", headers=me, json={"name": "Leaderboard B"}).json()["data"]
    assert saved["name"] == "Leaderboard B" and saved["pixel_urls"] == ["https://px.example/"]
    log = client.get(f"/api/creatives/{creative_id}/change-log", headers=me).json()["data"]["items"]
    assert [row["action"] for row in log] == ["update", "set_status_paused", "create"]
    assert client.delete(f"/api/creatives/{creative_id}", headers=me).json()["data"]["status"] == "archived"
    assert client.get("/api/creatives", headers=me).json()["data"]["items"] == []


def test_uploads_and_fields_are_refused_with_the_field_named(client):
    me = bearer_headers(client, "advertiser@demo.example")
    text = _upload(client, me, b"<svg onload=alert(1)>", name="banner.png")
    assert text.status_code == 422
    assert text.json()["data"]["fields"] == {"file": "Upload a PNG, JPEG, GIF or WEBP image."}
    video = _upload(client, me, mp4_bytes(duration_ms=6_500, width=1280, height=720), name="spot.mp4", purpose="video")
    assert (video.json()["data"]["duration_ms"], video.json()["data"]["width"]) == (6_500, 1280)
    assert client.get(video.json()["data"]["url"]).headers["content-type"] == "video/mp4"
    reply = client.post("/api/creatives", headers=me, json={"type": "video", "name": "", "click_url": "not a url"})
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"name": "Creative name cannot be empty.",
                                              "click_url": "Please enter a valid URL.",
                                              "asset_id": "Upload the creative's video."}
    assert client.post("/api/creatives", headers=me, json={"type": "banner", "name": "B"}).status_code == 422


def test_html_markup_comes_only_with_the_preview_and_spec_names_reach_the_same_calls(client):
    me = bearer_headers(client, "advertiser@demo.example")
    markup = "<script>steal(document.cookie)</script>"
    creative_id = client.post("/api/creatives", headers=me, json={"type": "html", "name": "Tag", "html": markup,
                                                                  "width": 300, "height": 250}).json()["data"]["id"]
    for path in (f"/api/creatives/{creative_id}", "/api/creatives", f"/api/creative/getCreativeById/{creative_id}",
                 "/api/creative/creativeDataUser", f"/api/creatives/{creative_id}/change-log"):
        reply = client.get(path, headers=me)
        assert reply.status_code == 200 and "steal" not in reply.text, path
    for path in (f"/api/creatives/{creative_id}/preview", f"/api/creative/getCreativePreview/{creative_id}"):
        assert client.get(path, headers=me).json()["data"]["html"] == markup
    assert client.put(f"/api/creative/updateCreativeStatusUser/{creative_id}", headers=me,
                      json={"status": "paused"}).json()["data"]["status"] == "paused"
    assert client.put(f"/api/creative/updateCreativeFileData/{creative_id}", headers=me,
                      json={"name": "Tag 2"}).json()["data"]["name"] == "Tag 2"
    refused = client.post("/api/creative/bulk-status-update", headers=me,
                          json={"creative_ids": [creative_id], "status": "active"})
    assert refused.status_code == 403  # bulk status is the admin's page
    results = client.post("/api/creative/bulk-creative-update", headers=me,
                          json={"creative_ids": [creative_id], "changes": {"click_url": CLICK}}).json()["data"]
    assert results == [{"id": creative_id, "name": "Tag 2", "ok": False,
                        "message": "Click URL: html creatives do not have this field."}]
    uploaded = client.post("/api/withOutRole/upload", headers=me, files={"file": ("a.gif", image_bytes(64, 64, fmt="GIF"))},
                           data={"purpose": "icon"})
    assert uploaded.json()["data"]["content_type"] == "image/gif"
    assert client.delete(f"/api/creative/creativeDeleteById/{creative_id}", headers=me).json()["data"]["status"] == "archived"
    spec = client.get("/api/openapi.json").json()["paths"]
    assert "/creatives/{creative_id}/preview" in spec and "/creative/getCreativePreview/{creative_id}" in spec


def test_admin_bulk_status_and_campaign_assignment(client):
    me = bearer_headers(client, "advertiser@demo.example")
    asset = _upload(client, me, image_bytes()).json()["data"]
    ids = [client.post("/api/creatives", headers=me, json={"type": "image", "name": f"Banner {n}", "click_url": CLICK,
                                                           "asset_id": asset["id"]}).json()["data"]["id"]
           for n in (1, 2)]
    campaign_id = client.post("/api/campaigns", headers=me, json=CAMPAIGN).json()["data"]["id"]
    assert [row["id"] for row in client.put(f"/api/campaigns/{campaign_id}/creatives", headers=me,
                                            json={"creative_ids": ids}).json()["data"]] == ids
    assert client.put(f"/api/creatives/{ids[0]}/campaigns", headers=me,
                      json={"campaign_ids": []}).json()["data"] == []
    assert [row["id"] for row in client.get(f"/api/campaigns/{campaign_id}/creatives",
                                            headers=me).json()["data"]["items"]] == [ids[1]]
    admin = bearer_headers(client, "admin@demo.example")
    client.delete(f"/api/creatives/{ids[1]}", headers=me)
    results = client.post("/api/creatives/bulk-status", headers=admin,
                          json={"creative_ids": ids, "status": "paused"}).json()["data"]
    assert [(row["ok"], row["message"]) for row in results] == [
        (True, "Status changed"), (False, "Status: an archived creative cannot become paused.")]


def test_another_tenants_creative_answers_404(client):
    rival_agency_email = run(lambda db: other_tenant(db)[0].email)
    rival = bearer_headers(client, rival_agency_email)
    rival_advertiser = client.get("/api/users", headers=rival).json()["data"]["items"][0]["id"]
    asset = _upload(client, rival, image_bytes(), advertiser_id=str(rival_advertiser))
    assert asset.status_code == 201, asset.text
    theirs = client.post("/api/creatives", headers=rival, json={"type": "image", "name": "Theirs", "click_url": CLICK,
                                                                "asset_id": asset.json()["data"]["id"],
                                                                "advertiser_id": rival_advertiser})
    assert theirs.status_code == 201, theirs.text
    theirs_id = theirs.json()["data"]["id"]
    for email in ("agency@demo.example", "advertiser@demo.example"):
        headers = bearer_headers(client, email)
        for method, path, body in (("get", f"/api/creatives/{theirs_id}", None),
                                   ("get", f"/api/creatives/{theirs_id}/preview", None),
                                   ("get", f"/api/creative/getCreativeById/{theirs_id}", None),
                                   ("put", f"/api/creatives/{theirs_id}", {"name": "Mine"}),
                                   ("put", f"/api/creatives/{theirs_id}/status", {"status": "paused"}),
                                   ("put", f"/api/creatives/{theirs_id}/campaigns", {"campaign_ids": []}),
                                   ("get", f"/api/creatives/{theirs_id}/change-log", None),
                                   ("delete", f"/api/creatives/{theirs_id}", None)):
            reply = client.request(method, path, headers=headers, json=body)
            assert reply.status_code == 404, (email, path, reply.text)
            assert reply.json()["message"] == "Creative not found."
        assert client.get("/api/creatives", headers=headers).json()["data"]["items"] == []
