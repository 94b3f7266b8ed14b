"""The paged API lists beyond campaigns, creatives and users (issue 26): each walks page by page to every row once
in its documented order with its total, keeps another tenant's rows out, refuses another list's cursor naming
`cursor`; the spec's call names keep answering whole arrays."""

from __future__ import annotations

from typing import Any

import pytest

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant, walk_pages

CAMPAIGN = {"objective": "app_installs", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1200",
            "bid_strategy": "cpc", "bid": "0.40", "targeting": {"countries": ["US"], "device_types": ["phone"]}}


def walk(client, headers, path: str, limit: int, **params: Any) -> list[dict]:
    """Every row of a paged list; each page within its limit, the last page's total (always counted) the rows seen."""
    return walk_pages(client, headers, path, limit, counted=True, **params)


@pytest.fixture
def tenants(client) -> dict[str, Any]:
    """The demo advertiser, the demo agency, and a rival agency with its own advertiser (created by the admin)."""
    rival_agency, rival = run(lambda db: (lambda pair: (pair[0].email, pair[1].id))(other_tenant(db)))
    return {"me": bearer_headers(client, "advertiser@demo.example"), "agency": bearer_headers(client, "agency@demo.example"),
            "admin": bearer_headers(client, "admin@demo.example"), "rival": bearer_headers(client, rival_agency),
            "rival_advertiser": rival}


def test_inventory_lists_page_newest_first_and_never_show_another_tenants(client, tenants):
    me, admin = tenants["me"], tenants["admin"]
    for n in range(5):
        assert client.post("/api/inventory-lists", headers=me,
                           json={"name": f"Mine {n}", "kind": "allow", "entries": "example.com"}).status_code == 201
    for n in range(2):
        client.post("/api/inventory-lists", headers=admin, json={"name": f"Rival {n}", "kind": "block",
                                                                 "advertiser_id": tenants["rival_advertiser"]})
    assert [r["name"] for r in walk(client, me, "/api/inventory-lists", 2)] == [f"Mine {n}" for n in range(4, -1, -1)]
    assert {r["name"][:4] for r in walk(client, tenants["agency"], "/api/inventory-lists", 3)} == {"Mine"}
    assert [r["name"] for r in walk(client, tenants["rival"], "/api/inventory-lists", 1)] == ["Rival 1", "Rival 0"]
    assert [r["name"] for r in walk(client, admin, "/api/inventory-lists", 4, kind="block")] == ["Rival 1", "Rival 0"]
    whole = client.get("/api/getApplistAllDataList", headers=me).json()["data"]  # the spec's client reads an array
    assert [r["name"] for r in whole] == [f"Mine {n}" for n in range(4, -1, -1)]


def test_a_lists_entries_page_by_value_and_search_on_the_server(client, tenants):
    me = tenants["me"]
    values = [f"site{n:02d}.example.com" for n in range(25)] + [f"com.game.level{n}" for n in range(5)]
    made = client.post("/api/inventory-lists", headers=me, json={"name": "Big", "kind": "allow",
                                                                 "entries": "\n".join(values)}).json()["data"]
    path = f"/api/inventory-lists/{made['list']['id']}/entries"
    entries = walk(client, me, path, 10)
    assert [e["value"] for e in entries] == sorted(values)
    second = client.get(path, headers=me, params={"limit": 10, "cursor": client.get(
        path, headers=me, params={"limit": 10}).json()["data"]["next_cursor"]}).json()["data"]
    assert [e["value"] for e in second["items"]] == sorted(values)[10:20] and second["total"] == 30
    found = walk(client, me, path, 4, search="SITE1")
    assert [e["value"] for e in found] == [f"site{n}.example.com" for n in range(10, 20)]
    assert {e["kind"] for e in walk(client, me, path, 50, search="game")} == {"app"}
    cursor = client.get(path, headers=me, params={"limit": 4, "search": "site1"}).json()["data"]["next_cursor"]
    other = client.get(path, headers=me, params={"limit": 4, "search": "site2", "cursor": cursor})
    assert other.status_code == 422 and "cursor" in other.json()["data"]["fields"]
    assert client.get(path, headers=tenants["rival"]).status_code == 404


def test_audiences_page_and_never_show_another_tenants(client, tenants):
    me, admin = tenants["me"], tenants["admin"]
    for n in range(4):
        assert client.post("/api/audiences", headers=me, json={"name": f"Buyers {n}", "kind": "device_ids"}
                           ).status_code == 201
    client.post("/api/audiences", headers=admin, json={"name": "Rival buyers", "kind": "device_ids",
                                                       "advertiser_id": tenants["rival_advertiser"]})
    assert [r["name"] for r in walk(client, me, "/api/audiences", 3)] == [f"Buyers {n}" for n in range(3, -1, -1)]
    assert {r["name"] for r in walk(client, tenants["agency"], "/api/audiences", 2)} == {f"Buyers {n}" for n in range(4)}
    assert [r["name"] for r in walk(client, tenants["rival"], "/api/audiences", 1)] == ["Rival buyers"]
    assert [r["name"] for r in walk(client, me, "/api/audiences", 1, search="buyers 2")] == ["Buyers 2"]
    assert len(client.get("/api/getAudienceList", headers=me).json()["data"]) == 4  # the spec's array


def test_a_campaigns_creatives_exchanges_and_requests_page(client, tenants):
    me, admin = tenants["me"], tenants["admin"]
    exchanges = client.get("/api/meta/exchanges", headers=me).json()["data"][:3]
    campaign = client.post("/api/campaigns", headers=me, json={
        **CAMPAIGN, "name": "Paged", "targeting": {**CAMPAIGN["targeting"], "exchanges": [e["id"] for e in exchanges]}
    }).json()["data"]
    ids = [client.post("/api/creatives", headers=me, json={"type": "html", "name": f"Tag {n}", "html": "<b>x</b>",
                                                           "width": 300, "height": 250}).json()["data"]["id"]
           for n in (2, 0, 1)]
    client.put(f"/api/campaigns/{campaign['id']}/creatives", headers=me, json={"creative_ids": ids})
    shown = walk(client, me, f"/api/campaigns/{campaign['id']}/creatives", 1)
    assert [r["name"] for r in shown] == ["Tag 1", "Tag 0", "Tag 2"]  # newest first: a rename moves none
    states = walk(client, me, f"/api/campaigns/{campaign['id']}/exchanges", 2)
    assert [s["exchange"] for s in states] == sorted((e["name"] for e in exchanges), key=str.casefold)
    requests = walk(client, admin, "/api/exchange-approval", 2, campaign_id=campaign["id"])
    assert sorted(r["exchange"] for r in requests) == sorted(e["name"] for e in exchanges)
    assert [r["id"] for r in requests] == sorted((r["id"] for r in requests), reverse=True)  # newest first
    assert walk(client, admin, "/api/exchange-approval", 5, search="paged") == walk(client, admin, "/api/exchange-approval", 1, campaign_id=campaign["id"])
    assert client.get(f"/api/campaigns/{campaign['id']}/exchanges", headers=tenants["rival"]).status_code == 404


def test_smart_app_lists_and_dsps_page_for_admins(client, tenants):
    admin = tenants["admin"]
    for name in ("Puzzle picks", "Racing picks", "Arcade picks"):
        assert client.post("/api/smart-apps", headers=admin, json={
            "name": name, "category_id": "36", "genre_id": "6014", "subgenre_id": "7001", "entries": "com.example.app"}
        ).status_code == 201
    assert [r["name"] for r in walk(client, admin, "/api/smart-apps", 2)][:3] == ["Arcade picks", "Racing picks",
                                                                                  "Puzzle picks"]
    for name in ("beta", "Alpha", "gamma"):
        assert client.post("/api/dsp/createDSP", headers=admin, json={
            "name": name, "endpoint_url": "https://bidder.example/api", "api_key": "k-123"}).status_code == 200
    assert [d["name"] for d in walk(client, admin, "/api/dsp", 2)] == ["gamma", "Alpha", "beta"]  # newest first
    assert [d["name"] for d in client.get("/api/dsp/list", headers=admin).json()["data"]] == ["Alpha", "beta", "gamma"]
