"""Bulk edits, bulk status, exchanges, export and balance over the API, under their REST paths and the spec's
campaning/* names: the same answers, the envelope, agencies refused the admin's bulk status, another tenant
unreachable through every call."""

from __future__ import annotations

from typing import Any

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant

NEW = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
       "bid_strategy": "cpm", "bid": "2", "bid_min": "1", "bid_max": "4"}


def _create(client: Any, headers: dict[str, str], name: str, **extra: Any) -> int:
    reply = client.post("/api/campaigns", headers=headers, json={**NEW, "name": name, **extra})
    assert reply.status_code == 201, reply.text
    return reply.json()["data"]["id"]


def test_bulk_calls_answer_row_by_row_under_both_names(client):
    me = bearer_headers(client, "advertiser@demo.example")
    low, high = _create(client, me, "Low"), _create(client, me, "High", bid="3.5")
    reply = client.post("/api/campaning/bulk/bid-range", headers=me,
                        json={"campaign_ids": [low, high], "bid_min": "3", "bid_max": "5"})
    body = reply.json()
    assert reply.status_code == 200 and body["success"] is True and body["message"] == "1 of 2 campaigns changed"
    assert body["data"] == [
        {"id": low, "name": "Low", "ok": False, "message": "Lowest bid: the lowest bid cannot be above the bid."},
        {"id": high, "name": "High", "ok": True, "message": ""}]
    listed = client.post("/api/file/addApp", headers=me, json={"name": "Apps", "kind": "allow"}).json()["data"]
    list_id = listed["list"]["id"]
    rest = client.post("/api/campaigns/bulk", headers=me, json={"campaign_ids": [low, high], "changes": {
        "total_budget": "2000", "inventory_lists": {"mode": "add", "allow": [list_id]}}}).json()["data"]
    assert [row["ok"] for row in rest] == [True, True]
    one, two = (client.post("/api/createAudiance", headers=me, json={"name": name, "kind": "device_ids"}).json()["data"]["id"]
                for name in ("One", "Two"))
    for path, payload in (("/api/campaning/bulk/inventory", {"mode": "remove", "allow": [list_id]}),
                          ("/api/campaning/bulk/audience", {"mode": "replace", "allow": [one], "block": [two]}),
                          ("/api/campaning/bulk/user-optimization-settings", {"goal_metric": "ctr", "goal_target": "2"}),
                          ("/api/campaning/bulk/campaign-update", {"changes": {"daily_budget": "100"}}),
                          ("/api/campaning/bulk/exchanges", {"add": [], "remove": [1]})):
        reply = client.post(path, headers=me, json={"campaign_ids": [high], **payload})
        assert reply.status_code == 200 and reply.json()["data"][0]["ok"], (path, reply.text)
    saved = client.get(f"/api/campaning/editTable?campaign_id={high}", headers=me).json()["data"]
    assert saved["targeting"]["audiences"] == {"allow": [one], "block": [two]} and saved["daily_budget"] == "100.00"
    assert saved["goal_metric"] == "ctr" and saved["targeting"]["inventory_lists"] == {"allow": [], "block": []}
    assert client.get(f"/api/campaigns/{low}", headers=me).json()["data"]["bid_min"] == "1.00"
    for campaign_id, status in ((low, "active"), (low, "completed"), (high, "active")):
        client.put(f"/api/campaigns/{campaign_id}/status", headers=me, json={"status": status})
    # The first row of a request: its settings are written, then its status is refused; none of it stays.
    refused = client.post("/api/campaigns/bulk", headers=me, json={"campaign_ids": [low, high], "changes": {
        "daily_budget": "50", "status": "paused"}}).json()["data"]
    assert [row["ok"] for row in refused] == [False, True]
    assert client.get(f"/api/campaigns/{low}", headers=me).json()["data"]["daily_budget"] is None
    assert client.get(f"/api/campaigns/{high}", headers=me).json()["data"]["daily_budget"] == "50.00"
    misspelt = client.post("/api/campaigns/bulk", headers=me, json={"campaign_ids": [high], "changes": {"bidmax": "9"}})
    assert misspelt.status_code == 422
    too_many = client.post("/api/campaigns/bulk", headers=me,
                           json={"campaign_ids": list(range(1, 1002)), "changes": {"bid_max": "9"}})
    assert too_many.status_code == 422 and "campaign_ids" in too_many.json()["data"]["fields"]


def test_bulk_status_is_the_admins(client):
    agency = bearer_headers(client, "agency@demo.example")
    advertiser_id = client.get("/api/users", headers=agency).json()["data"]["items"][0]["id"]
    campaign_id = _create(client, agency, "Agency Run", advertiser_id=advertiser_id)
    for path in ("/api/campaigns/bulk/status", "/api/admin/campaning/bulk-status"):
        refused = client.post(path, headers=agency, json={"campaign_ids": [campaign_id], "status": "active"})
        assert refused.status_code == 403 and refused.json()["success"] is False
    admin = bearer_headers(client, "admin@demo.example")
    reply = client.post("/api/admin/campaning/bulk-status", headers=admin,
                        json={"campaign_ids": [campaign_id], "status": "active"})
    assert reply.json()["data"] == [{"id": campaign_id, "name": "Agency Run", "ok": True, "message": ""}]


def test_single_campaign_aliases_and_balance(client):
    me = bearer_headers(client, "advertiser@demo.example")
    campaign_id = _create(client, me, "Alias Run")
    listed = client.get("/api/campaning/campaignData?sort=name", headers=me).json()["data"]
    assert [row["id"] for row in listed] == [campaign_id]
    assert client.get("/api/campaigns?sort=-nonsense", headers=me).status_code == 422
    saved = client.post("/api/campaning/update/editTable", headers=me, json={"campaign_id": campaign_id, "bid": "2.5"})
    assert saved.json()["data"]["bid"] == "2.50"
    moved = client.post("/api/campaning/changeStatus", headers=me, json={"campaign_id": campaign_id, "status": "active"})
    assert moved.json()["data"]["status"] == "active"
    gone = client.delete(f"/api/campaning/deleteCampaign?campaign_id={campaign_id}", headers=me)
    assert gone.json()["data"]["status"] == "archived"
    own = client.get("/api/campaning/getAdvertiserBalance", headers=me).json()["data"]
    assert own["balance"] == "5000.00" and own["balance_micros"] == 5_000_000_000
    agency = bearer_headers(client, "agency@demo.example")
    assert client.get(f"/api/advertisers/{own['advertiser_id']}/balance", headers=agency).json()["data"] == own


def test_another_tenant_is_unreachable_through_every_new_call(client):
    rival_agency_email, rival_advertiser_id = run(lambda db: (lambda pair: (pair[0].email, pair[1].id))(other_tenant(db)))
    rival = bearer_headers(client, rival_agency_email)
    theirs = _create(client, rival, "Rival Run", advertiser_id=rival_advertiser_id)
    not_found = [{"id": theirs, "name": "", "ok": False, "message": "Campaign not found."}]
    for email in ("agency@demo.example", "advertiser@demo.example"):
        headers = bearer_headers(client, email)
        ids = {"campaign_ids": [theirs]}
        for path, payload in (("/api/campaigns/bulk", {"changes": {"status": "active"}}),
                              ("/api/campaigns/bulk/exchanges", {"remove": [1]}),
                              ("/api/campaning/bulk/bid-range", {"bid_max": "9"}),
                              ("/api/campaning/bulk/inventory", {"mode": "add", "allow": [1]}),
                              ("/api/campaning/bulk/audience", {"mode": "add", "allow": [1]}),
                              ("/api/campaning/bulk/campaign-update", {"changes": {"total_budget": "1"}}),
                              ("/api/campaning/bulk/user-optimization-settings", {"goal_metric": "none"}),
                              ("/api/campaning/bulk/exchanges", {"remove": [1]})):
            reply = client.post(path, headers=headers, json={**ids, **payload})
            assert reply.json()["data"] == not_found, (email, path, reply.text)
        for method, path, body in (
                ("get", f"/api/campaning/editTable?campaign_id={theirs}", None),
                ("post", "/api/campaning/update/editTable", {"campaign_id": theirs, "name": "Mine"}),
                ("post", "/api/campaning/changeStatus", {"campaign_id": theirs, "status": "archived"}),
                ("delete", f"/api/campaning/deleteCampaign?campaign_id={theirs}", None),
                ("get", f"/api/campaning/getAdvertiserBalance?advertiser_id={rival_advertiser_id}", None),
                ("get", f"/api/advertisers/{rival_advertiser_id}/balance", None)):
            reply = client.request(method, path, headers=headers, json=body)
            assert reply.status_code == 404, (email, path, reply.text)
        assert client.get("/api/campaning/campaignData", headers=headers).json()["data"] == []
        export = client.post("/api/campaning/exportCampaningData", headers=headers, json={"columns": ["name"]})
        download = client.get(export.json()["data"]["csv_download_url"], headers=headers)
        assert download.text.lstrip("\ufeff").splitlines() == ["name"]
    assert client.get(f"/api/campaigns/{theirs}", headers=rival).json()["data"]["status"] == "draft"
