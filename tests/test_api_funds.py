"""Funds over the API: each role's overview, staff top-ups with field errors, the spec's call names, and
another tenant's advertiser answering 404 like a missing one."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.kernel.db import session_scope
from tests.helpers import bearer_headers, other_tenant

ADMIN, CO_ADMIN, AGENCY, ADVERTISER = ("admin@demo.example", "coadmin@demo.example", "agency@demo.example",
                                       "advertiser@demo.example")


def rival_advertiser_id() -> int:
    with session_scope() as db:
        _agency, advertiser = other_tenant(db)
        assert advertiser.id is not None
        return advertiser.id


def test_staff_add_funds_and_every_role_sees_the_new_balance(client: TestClient, demo_ids: dict[str, int]) -> None:
    advertiser_id = demo_ids[ADVERTISER]
    reply = client.post("/api/funds", json={"advertiser_id": advertiser_id, "amount": "1234.50", "kind": "deposit",
                                            "note": "Wire"}, headers=bearer_headers(client, CO_ADMIN))
    assert reply.status_code == 201, reply.text
    assert reply.json()["data"]["balance"] == "6234.50"
    for email in (ADMIN, AGENCY, ADVERTISER):
        rows = client.get("/api/funds", headers=bearer_headers(client, email)).json()["data"]["items"]
        mine = next(row for row in rows if row["id"] == advertiser_id)
        assert (mine["balance"], mine["deposits"], mine["agency"]) == ("6234.50", "6234.50", "Blue Harbor Agency")
    history = client.get(f"/api/agency/payment-history/{advertiser_id}", headers=bearer_headers(client, AGENCY))
    assert history.json()["data"][0]["note"] == "Wire"


def test_add_funds_names_each_wrong_field(client: TestClient, demo_ids: dict[str, int]) -> None:
    reply = client.post("/api/admin/fund/add", json={"advertiser_id": demo_ids[AGENCY], "amount": "1.999",
                                                     "kind": "spend"}, headers=bearer_headers(client, ADMIN))
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"advertiser_id": "Choose an advertiser from the list.",
                                              "kind": "Choose deposit, refund or adjustment.",
                                              "amount": "Enter an amount with at most two decimals."}


def test_clients_cannot_add_funds(client: TestClient, demo_ids: dict[str, int]) -> None:
    for email in (AGENCY, ADVERTISER):
        reply = client.post("/api/funds", json={"advertiser_id": demo_ids[ADVERTISER], "amount": "10"},
                            headers=bearer_headers(client, email))
        assert reply.status_code == 403
    balance = client.get(f"/api/funds/{demo_ids[ADVERTISER]}/balance", headers=bearer_headers(client, ADVERTISER))
    assert balance.json()["data"]["balance"] == "5000.00"


def test_another_tenants_advertiser_answers_like_a_missing_one(client: TestClient, demo_ids: dict[str, int]) -> None:
    rival = rival_advertiser_id()
    agency = bearer_headers(client, AGENCY)
    assert [row["id"] for row in client.get("/api/agency/funds", headers=agency).json()["data"]] == \
        [demo_ids[ADVERTISER]]
    for path in (f"/api/funds/{rival}", f"/api/funds/{rival}/ledger", f"/api/funds/{rival}/balance",
                 f"/api/agency/payment-history/{rival}"):
        there, missing = client.get(path, headers=agency), client.get(path.replace(str(rival), "987654"),
                                                                      headers=agency)
        assert there.status_code == missing.status_code == 404, path
        assert there.json() == missing.json()
    advertiser = bearer_headers(client, ADVERTISER)
    assert client.get(f"/api/funds/{rival}", headers=advertiser).status_code == 404


def test_admin_fund_list_filters_by_agency(client: TestClient, demo_ids: dict[str, int]) -> None:
    rival = rival_advertiser_id()
    admin = bearer_headers(client, ADMIN)
    everyone = {row["id"] for row in client.get("/api/admin/fund/list", headers=admin).json()["data"]}
    assert {rival, demo_ids[ADVERTISER]} <= everyone
    demo_agency = client.get(f"/api/admin/fund/list?agency_id={demo_ids[AGENCY]}", headers=admin).json()["data"]
    assert [row["id"] for row in demo_agency] == [demo_ids[ADVERTISER]]


def test_the_calls_are_described_in_the_api_reference(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path, method in (("/funds", "get"), ("/funds", "post"), ("/admin/fund/list", "get"),
                         ("/admin/fund/add", "post"), ("/agency/funds", "get"),
                         ("/agency/payment-history/{advertiser_id}", "get"), ("/payment/stripe", "post"),
                         ("/payment/stripe/webhook", "post")):
        assert paths[path][method]["summary"] and paths[path][method]["description"], path
