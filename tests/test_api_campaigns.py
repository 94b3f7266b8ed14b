"""Campaigns over the JSON API: the pages' rules, another tenant unreachable, errors naming the field."""

from __future__ import annotations

from app.creatives import links
from app.kernel.db import run
from app.kernel.errors import Invalid
from tests.helpers import bearer_headers, other_tenant

NEW = {"name": "Launch Week", "objective": "app_installs", "starts_at": "2026-12-01", "time_zone": "UTC",
       "total_budget": "1200", "bid_strategy": "cpc", "bid": "0.35",
       "targeting": {"countries": ["US"], "device_types": ["phone"]}}


def test_an_advertiser_runs_a_campaign_through_its_life(client):
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/campaigns", headers=me, json=NEW)
    assert created.status_code == 201, created.text
    campaign_id = created.json()["data"]["id"]
    assert created.json()["data"]["status"] == "draft" and created.json()["code"] == 201
    assert client.get(created.headers["location"], headers=me).json()["data"]["name"] == "Launch Week"
    saved = client.put(f"/api/campaigns/{campaign_id}", headers=me, json={"bid": "0.40"})
    assert saved.json()["data"]["bid"] == "0.40" and saved.json()["data"]["name"] == "Launch Week"
    assert client.put(f"/api/campaigns/{campaign_id}/status", headers=me,
                      json={"status": "active"}).json()["data"]["status"] == "active"
    refused = client.put(f"/api/campaigns/{campaign_id}/status", headers=me, json={"status": "draft"})
    assert refused.status_code == 422 and "status" in refused.json()["data"]["fields"]
    cloned = client.post(f"/api/campaigns/{campaign_id}/clone", headers=me)
    clone = cloned.json()["data"]
    assert clone["name"] == "Launch Week copy" and cloned.headers["location"] == f"/api/campaigns/{clone['id']}"
    assert client.delete(f"/api/campaigns/{campaign_id}", headers=me).json()["data"]["status"] == "archived"
    listed = client.get("/api/campaigns", headers=me).json()["data"]["items"]
    assert [row["name"] for row in listed] == ["Launch Week copy"]


def test_a_clone_over_the_api_takes_the_originals_creatives_or_is_not_made(client, monkeypatch):
    """The API's clone and its creatives are one unit of work: the clone shows the original's creatives, and when
    linking them is refused no clone is left behind."""
    me = bearer_headers(client, "advertiser@demo.example")
    campaign_id = client.post("/api/campaigns", headers=me, json=NEW).json()["data"]["id"]
    creative_id = client.post("/api/creatives", headers=me,
                              json={"type": "html", "name": "Tag", "html": "<p>Hi</p>"}).json()["data"]["id"]
    assert client.put(f"/api/campaigns/{campaign_id}/creatives", headers=me,
                      json={"creative_ids": [creative_id]}).status_code == 200
    clone = client.post(f"/api/campaigns/{campaign_id}/clone", headers=me).json()["data"]
    shown = client.get(f"/api/campaigns/{clone['id']}/creatives", headers=me).json()["data"]["items"]
    assert [row["id"] for row in shown] == [creative_id]

    def refused(*_args: object, **_kwargs: object) -> None:
        raise Invalid({"creative_ids": "Tag is archived."})

    monkeypatch.setattr(links, "set_campaign_creatives", refused)
    reply = client.post(f"/api/campaigns/{campaign_id}/clone", headers=me)
    assert reply.status_code == 422 and reply.json()["data"]["fields"] == {"creative_ids": "Tag is archived."}
    listed = client.get("/api/campaigns", headers=me).json()["data"]["items"]
    assert sorted(row["name"] for row in listed) == ["Launch Week", "Launch Week copy"]


def test_bad_fields_are_named(client):
    me = bearer_headers(client, "advertiser@demo.example")
    reply = client.post("/api/campaigns", headers=me, json={**NEW, "total_budget": "lots", "pacing": "sometimes",
                                                           "targeting": {"countries": ["QQ"]}})
    assert reply.status_code == 422
    fields = reply.json()["data"]["fields"]
    assert "pacing" in fields  # refused by the request schema before the service sees it
    reply = client.post("/api/campaigns", headers=me, json={**NEW, "total_budget": "lots",
                                                           "targeting": {"countries": ["QQ"]}})
    assert set(reply.json()["data"]["fields"]) == {"total_budget", "targeting.countries"}


def test_another_tenants_campaign_answers_404(client):
    rival_agency_email = run(lambda db: other_tenant(db)[0].email)
    rival = bearer_headers(client, rival_agency_email)
    rival_advertiser = client.get("/api/users", headers=rival).json()["data"]["items"][0]["id"]
    theirs = client.post("/api/campaigns", headers=rival, json={**NEW, "advertiser_id": rival_advertiser})
    assert theirs.status_code == 201, theirs.text
    theirs_id = theirs.json()["data"]["id"]
    for email in ("agency@demo.example", "advertiser@demo.example"):
        headers = bearer_headers(client, email)
        for method, path, body in (("get", f"/api/campaigns/{theirs_id}", None),
                                   ("put", f"/api/campaigns/{theirs_id}", {"name": "Mine"}),
                                   ("put", f"/api/campaigns/{theirs_id}/status", {"status": "archived"}),
                                   ("post", f"/api/campaigns/{theirs_id}/clone", None),
                                   ("delete", f"/api/campaigns/{theirs_id}", None)):
            reply = client.request(method, path, headers=headers, json=body)
            assert reply.status_code == 404, (email, path, reply.text)
        assert client.get("/api/campaigns", headers=headers).json()["data"]["items"] == []


def test_a_bid_above_the_highest_bid_is_refused_over_the_api(client):
    me = bearer_headers(client, "advertiser@demo.example")
    ranged = {**NEW, "bid_min": "0.20", "bid_max": "0.50"}
    refused = client.post("/api/campaigns", headers=me, json={**ranged, "bid": "0.51"})
    assert refused.status_code == 422 and set(refused.json()["data"]["fields"]) == {"bid"}
    assert client.get("/api/campaigns", headers=me).json()["data"]["items"] == []
    campaign_id = client.post("/api/campaigns", headers=me, json=ranged).json()["data"]["id"]
    refused = client.put(f"/api/campaigns/{campaign_id}", headers=me, json={"bid": "0.75"})
    assert refused.status_code == 422 and set(refused.json()["data"]["fields"]) == {"bid"}
    assert client.get(f"/api/campaigns/{campaign_id}", headers=me).json()["data"]["bid"] == "0.35"
