"""Audiences over the JSON API: the spec's call names (createAudiance, getaudienceDataById, associate-audience,
audience-status) reach the same functions as the REST paths, a file of ids is uploaded over HTTP, a used audience
is refused deletion naming its campaign, and another tenant's audience answers 404."""

from __future__ import annotations

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant

GOOD = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
CAMPAIGN = {"name": "Lookalike Push", "starts_at": "2026-12-01", "total_budget": "1200", "bid": "0.35"}


def test_the_spec_call_names_and_an_upload_over_http(client):
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/createAudiance", headers=me, json={"name": "App Buyers", "kind": "device_ids"})
    assert created.status_code == 200 and created.json()["success"] is True, created.text
    # The spec's client reads a 200 with code 200; the REST path answers 201 with the new audience's URL.
    assert created.json()["code"] == 200 and "location" not in created.headers
    audience_id = created.json()["data"]["id"]
    rest = client.post("/api/audiences", headers=me, json={"name": "Lookalikes", "kind": "device_ids"})
    assert rest.status_code == 201 and rest.json()["code"] == 201, rest.text
    assert client.get(rest.headers["location"], headers=me).json()["data"]["name"] == "Lookalikes"

    body = f"idfa\n{GOOD}\nnonsense\n{{{GOOD.lower()}}}\n".encode()
    uploaded = client.post(f"/api/audiences/{audience_id}/devices", headers=me,
                           files={"file": ("ids.csv", body, "text/csv")})
    assert uploaded.status_code == 200, uploaded.text
    upload = uploaded.json()["data"]["upload"]
    assert (upload["added"], upload["duplicates"], upload["invalid"]) == (1, 1, 1)
    assert upload["samples"] == [{"line": 3, "text": "nonsense", "reason": "invalid"}]
    empty = client.post(f"/api/audiences/{audience_id}/devices", headers=me, files={"file": ("x.txt", b"\x89PNG\r\n", "")})
    assert empty.status_code == 422 and "file" in empty.json()["data"]["fields"]

    got = client.get(f"/api/getaudienceDataById/{audience_id}", headers=me).json()["data"]
    assert (got["size"], got["size_unit"], got["kind"]) == (1, "devices", "device_ids")
    assert client.get("/api/getAudienceList", headers=me).json()["data"][0]["id"] == audience_id

    campaign_id = client.post("/api/campaigns", headers=me, json=CAMPAIGN).json()["data"]["id"]
    associated = client.put(f"/api/associate-audience/{audience_id}", headers=me, json={"allow": [campaign_id]})
    assert associated.status_code == 200 and associated.json()["data"]["campaigns"][0]["mode"] == "allow"
    inactive = client.put(f"/api/audience-status/{audience_id}", headers=me, json={"status": "inactive"})
    assert inactive.json()["data"]["status"] == "inactive"
    refused = client.delete(f"/api/audiences/{audience_id}", headers=me)
    assert refused.status_code == 409 and "Lookalike Push" in refused.json()["message"]
    assert refused.json()["data"]["campaigns"][0]["id"] == campaign_id

    log = client.get(f"/api/audiences/{audience_id}/change-log", headers=me).json()["data"]
    assert [e["action"] for e in log["items"]] == ["set_status_inactive", "upload", "create"]
    docs = client.get("/api/openapi.json").json()["paths"]
    for path in ("/createAudiance", "/getaudienceDataById/{audience_id}", "/associate-audience/{audience_id}",
                 "/audience-status/{audience_id}", "/audiences/{audience_id}/devices"):
        assert path in docs, path


def test_another_tenants_audience_answers_not_found(client):
    def make(db):
        return other_tenant(db)[1].id

    rival_advertiser = run(make)
    admin = bearer_headers(client, "admin@demo.example")
    theirs = client.post("/api/audiences", headers=admin, json={"name": "Rival", "kind": "device_ids",
                                                                "advertiser_id": rival_advertiser}).json()["data"]["id"]
    for email in ("agency@demo.example", "advertiser@demo.example"):
        headers = bearer_headers(client, email)
        for method, path, extra in (("get", f"/api/getaudienceDataById/{theirs}", {}),
                                    ("put", f"/api/audience-status/{theirs}", {"json": {"status": "inactive"}}),
                                    ("put", f"/api/associate-audience/{theirs}", {"json": {"allow": []}}),
                                    ("delete", f"/api/audiences/{theirs}", {}),
                                    ("get", f"/api/audiences/{theirs}/change-log", {}),
                                    ("post", f"/api/audiences/{theirs}/devices",
                                     {"files": {"file": ("ids.txt", GOOD.encode(), "text/plain")}})):
            reply = getattr(client, method)(path, headers=headers, **extra)
            assert reply.status_code == 404, (email, path, reply.text)
        assert client.get("/api/audiences", headers=headers).json()["data"]["items"] == []
    # An agency cannot make one for another agency's advertiser (an advertiser's own call always makes its own).
    sneaky = client.post("/api/createAudiance", headers=bearer_headers(client, "agency@demo.example"),
                         json={"name": "Mine", "kind": "device_ids", "advertiser_id": rival_advertiser})
    assert sneaky.status_code == 422 and "advertiser_id" in sneaky.json()["data"]["fields"]
