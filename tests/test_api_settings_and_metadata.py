"""Postbacks, API keys and reference lists over the JSON API: the page rules hold, keys cannot mint keys,
another tenant's keys stay unreachable."""

from __future__ import annotations

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant


def test_advertiser_sets_its_postback_and_bad_input_names_the_field(client):
    advertiser = bearer_headers(client, "advertiser@demo.example")
    bad = client.put("/api/postback", headers=advertiser, json={"url": "ftp://nope", "events": ["install"]})
    assert bad.status_code == 422 and "url" in bad.json()["data"]["fields"]
    saved = client.put("/api/postback", headers=advertiser,
                       json={"url": "https://mmp.example/pb?c={click_id}", "events": ["purchase", "install"]})
    assert saved.status_code == 200, saved.text
    assert client.get("/api/postback", headers=advertiser).json()["data"] == {
        "url": "https://mmp.example/pb?c={click_id}", "events": ["install", "purchase"]}
    # the agency has no postbacks enabled: refused, not silently empty
    assert client.get("/api/postback", headers=bearer_headers(client, "agency@demo.example")).status_code == 403


def test_api_keys_are_shown_once_work_and_cannot_mint_more_keys(client, demo_ids):
    advertiser = bearer_headers(client, "advertiser@demo.example")
    me = demo_ids["advertiser@demo.example"]
    made = client.post(f"/api/users/{me}/api-keys", headers=advertiser, json={"label": "Reporting"})
    assert made.status_code == 201, made.text
    token = made.json()["data"]["token"]
    keyed = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/auth/profile", headers=keyed).json()["data"]["email"] == "advertiser@demo.example"
    listed = client.get(f"/api/users/{me}/api-keys", headers=keyed).json()["data"]["items"]
    assert [k["label"] for k in listed] == ["Reporting"] and "token" not in listed[0] and listed[0]["last_used"]
    refused = client.post(f"/api/users/{me}/api-keys", headers=keyed, json={"label": "More"})
    assert refused.status_code == 403 and "An API key cannot change sign-in credentials or API keys" in refused.json()["message"]
    assert client.delete(f"/api/api-keys/{listed[0]['id']}", headers=keyed).status_code == 403
    assert client.delete(f"/api/api-keys/{listed[0]['id']}", headers=advertiser).status_code == 200
    assert client.get("/api/auth/profile", headers=keyed).status_code == 401  # revoked at once


def test_another_tenants_keys_are_out_of_reach(client, demo_ids):
    _, rival_advertiser = run(other_tenant)
    admin = bearer_headers(client, "admin@demo.example")
    config = {"insight_dashboard": False, "postback_enabled": False, "api_access": True, "margin": "0"}
    assert client.put(f"/api/users/{rival_advertiser.id}/config", headers=admin, json=config).status_code == 200
    key = client.post(f"/api/users/{rival_advertiser.id}/api-keys", headers=admin, json={"label": "Rival"})
    key_id = key.json()["data"]["id"]
    agency = bearer_headers(client, "agency@demo.example")
    assert client.get(f"/api/users/{rival_advertiser.id}/api-keys", headers=agency).status_code == 404
    assert client.post(f"/api/users/{rival_advertiser.id}/api-keys", headers=agency,
                       json={"label": "x"}).status_code == 404
    assert client.delete(f"/api/api-keys/{key_id}", headers=agency).status_code == 404


def test_reference_lists_are_managed_by_staff_and_offered_to_everyone(client):
    admin = bearer_headers(client, "admin@demo.example")
    counts = client.get("/api/metadata", headers=admin).json()["data"]
    assert counts["exchange"]["active"] == 10
    added = client.post("/api/metadata/exchange", headers=admin, json={"name": "Equativ"})
    value_id = added.json()["data"]["id"]
    duplicate = client.post("/api/metadata/exchange", headers=admin, json={"name": "equativ"})
    assert duplicate.status_code == 422 and "name" in duplicate.json()["data"]["fields"]
    retired = client.put(f"/api/metadata/values/{value_id}", headers=admin, json={"name": "Equativ SSP",
                                                                                  "retired": True})
    assert retired.json()["data"]["name"] == "Equativ SSP" and retired.json()["data"]["retired"] is True
    assert client.put(f"/api/metadata/values/{value_id}", headers=admin, json={}).status_code == 422
    advertiser = bearer_headers(client, "advertiser@demo.example")
    offered = [v["name"] for v in client.get("/api/metadata/exchange/active", headers=advertiser).json()["data"]]
    assert "Google AdX" in offered and "Equativ SSP" not in offered
    assert client.post("/api/metadata/exchange", headers=advertiser, json={"name": "Mine"}).status_code == 403
    assert client.get("/api/metadata/nonsense", headers=admin).status_code == 422
    assert client.delete(f"/api/metadata/values/{value_id}", headers=admin).status_code == 200
