"""Paged API lists (limit + cursor): every row exactly once in the list's order, steady under inserts, bad
paging input named, another tenant's rows never shown."""

from __future__ import annotations

from decimal import Decimal

import pytest

from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant, walk_pages

NEW = {"objective": "app_installs", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1200",
       "bid_strategy": "cpc", "targeting": {"countries": ["US"], "device_types": ["phone"]}}


def _walk(client, headers, limit: int = 7, **params) -> list[dict]:
    """Every row of GET /api/campaigns, page by page; each page's total and limit as documented."""
    return walk_pages(client, headers, "/api/campaigns", limit, **params)


@pytest.fixture
def me(client):
    """An advertiser with 20 campaigns "Wave 1".."Wave 20": bids in a few ties, every third without daily budget."""
    headers = bearer_headers(client, "advertiser@demo.example")
    for n in range(1, 21):
        body = {**NEW, "name": f"Wave {n}", "bid": f"0.{30 + n % 4}",
                **({} if n % 3 == 0 else {"daily_budget": str(10 + n % 5)})}
        assert client.post("/api/campaigns", headers=headers, json=body).status_code in (200, 201)
    return headers


def test_pages_of_seven_give_every_campaign_once_in_the_documented_order(client, me):
    newest_first = _walk(client, me)
    assert len(newest_first) == 20 and len({row["id"] for row in newest_first}) == 20
    assert [row["name"] for row in newest_first] == [f"Wave {n}" for n in range(20, 0, -1)]
    by_bid = _walk(client, me, sort="-bid")
    assert [(Decimal(r["bid"]), r["id"]) for r in by_bid] == sorted(
        ((Decimal(r["bid"]), r["id"]) for r in newest_first), reverse=True)
    by_budget = _walk(client, me, sort="daily_budget")  # empty budgets last, ties by id
    budgets = [(r["daily_budget"] is None, Decimal(r["daily_budget"] or 0), r["id"]) for r in by_budget]
    assert budgets == sorted(budgets) and budgets[-1][0]
    by_name = _walk(client, me, limit=3, sort="-name")  # natural order: "Wave 10" after "Wave 9"
    assert [row["name"] for row in by_name] == [f"Wave {n}" for n in range(20, 0, -1)]
    assert [row["name"] for row in _walk(client, me, limit=6, sort="name")] == [f"Wave {n}" for n in range(1, 21)]


def test_a_filter_pages_only_its_rows(client, me):
    found = _walk(client, me, search="wave 1")
    assert sorted(row["name"] for row in found) == sorted(["Wave 1", *(f"Wave {n}" for n in range(10, 20))])
    assert _walk(client, me, status="active") == []


def test_a_campaign_added_between_two_pages_neither_repeats_nor_hides_another(client, me):
    first = client.get("/api/campaigns", headers=me, params={"limit": 7, "sort": "id"}).json()["data"]
    client.post("/api/campaigns", headers=me, json={**NEW, "name": "Late", "bid": "0.30"})
    # An insert that sorts before the cursor too: newest-first, then a new one arrives.
    newest = client.get("/api/campaigns", headers=me, params={"limit": 7}).json()["data"]
    client.post("/api/campaigns", headers=me, json={**NEW, "name": "Later", "bid": "0.30"})
    rest = _after(client, me, first["next_cursor"], sort="id")
    ids = [row["id"] for row in first["items"] + rest]
    assert len(ids) == len(set(ids)) == 22 and ids == sorted(ids)
    rest = _after(client, me, newest["next_cursor"])
    names = [row["name"] for row in newest["items"] + rest]
    assert names == ["Late", *(f"Wave {n}" for n in range(20, 0, -1))]


def _after(client, headers, cursor: str, **params) -> list[dict]:
    rows: list[dict] = []
    while cursor:
        page = client.get("/api/campaigns", headers=headers, params={**params, "limit": 7, "cursor": cursor}).json()
        rows += page["data"]["items"]
        cursor = page["data"]["next_cursor"]
    return rows


def test_bad_paging_input_is_refused_naming_the_field(client, me):
    for params, field in (({"limit": 501}, "limit"), ({"limit": 0}, "limit"), ({"cursor": "nonsense"}, "cursor"),
                          ({"cursor": "eyJ2IjoxfQ.AAAA"}, "cursor")):
        reply = client.get("/api/campaigns", headers=me, params=params)
        assert reply.status_code == 422 and field in reply.json()["data"]["fields"], (params, reply.text)
    cursor = client.get("/api/campaigns", headers=me, params={"limit": 7}).json()["data"]["next_cursor"]
    for other in ({"sort": "-bid"}, {"search": "wave"}):
        reply = client.get("/api/campaigns", headers=me, params={"limit": 7, "cursor": cursor, **other})
        assert reply.status_code == 422 and "cursor" in reply.json()["data"]["fields"], reply.text


def test_another_tenants_campaigns_never_appear_on_any_page(client, me):
    rival = bearer_headers(client, run(lambda db: other_tenant(db)[0].email))
    rival_advertiser = client.get("/api/users", headers=rival).json()["data"]["items"][0]["id"]
    for n in range(3):
        client.post("/api/campaigns", headers=rival, json={**NEW, "name": f"Rival {n}", "bid": "0.30",
                                                           "advertiser_id": rival_advertiser})
    assert {row["name"][:4] for row in _walk(client, me)} == {"Wave"}
    assert {row["name"][:5] for row in _walk(client, rival, limit=2)} == {"Rival"}


def test_a_client_sending_nothing_gets_the_first_page_of_fifty(client, me):
    page = client.get("/api/campaigns", headers=me).json()["data"]
    assert page["limit"] == 50 and page["total"] == 20 and page["next_cursor"] is None and len(page["items"]) == 20


def _walk_list(client, headers, path: str, limit: int) -> list[dict]:
    rows: list[dict] = []
    cursor = None
    while True:
        page = client.get(path, headers=headers, params={"limit": limit, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200, page.text
        rows += page.json()["data"]["items"]
        cursor = page.json()["data"]["next_cursor"]
        if cursor is None:
            return rows


def test_creatives_and_users_page_the_same_way(client):
    me = bearer_headers(client, "advertiser@demo.example")
    for n in range(5):
        assert client.post("/api/creatives", headers=me, json={
            "type": "html", "name": f"Banner {n}", "html": "<b>Sale</b>", "width": 300, "height": 250}
        ).status_code in (200, 201)
    creatives = _walk_list(client, me, "/api/creatives", 2)
    names = [row["name"] for row in creatives]
    assert [n for n in names if n.startswith("Banner")] == [f"Banner {n}" for n in range(4, -1, -1)]
    assert len(names) == len(set(row["id"] for row in creatives))
    admin = bearer_headers(client, "admin@demo.example")
    whole = client.get("/api/users", headers=admin, params={"limit": 500}).json()["data"]["items"]
    paged = _walk_list(client, admin, "/api/users", 1)
    assert [row["id"] for row in paged] == sorted(row["id"] for row in whole) and len(paged) > 1
    cursor = client.get("/api/users", headers=admin, params={"limit": 1}).json()["data"]["next_cursor"]
    reply = client.get("/api/creatives", headers=me, params={"cursor": cursor})  # a user list's cursor
    assert reply.status_code == 422 and "cursor" in reply.json()["data"]["fields"]
