"""Account administration over the JSON API: same rules as the pages, another tenant stays unreachable."""

from __future__ import annotations

from app.db import run
from tests.helpers import bearer_headers, other_tenant


def test_admin_creates_configures_and_moves_users(client, demo_ids):
    admin = bearer_headers(client, "admin@demo.example")
    created = client.post("/api/users", headers=admin, json={
        "role": "ADVERTISER", "email": "api@new.example", "password": "api-Pass-1", "firstName": "Api",
        "lastName": "User", "companyName": "Api Co", "agencyId": demo_ids["agency@demo.example"]})
    assert created.status_code == 200, created.text
    user_id = created.json()["data"]["id"]
    bad = client.put(f"/api/users/{user_id}/config", headers=admin, json={
        "insight_dashboard": True, "postback_enabled": False, "api_access": False, "margin": "120"})
    assert bad.status_code == 422 and "margin" in bad.json()["data"]["fields"]
    good = client.put(f"/api/users/{user_id}/config", headers=admin, json={
        "insight_dashboard": True, "postback_enabled": True, "api_access": False, "margin": "8"})
    assert good.json()["data"]["margin"] == "8"
    moved = client.post("/api/agencies/assign", headers=admin, json={"advertiserIds": [user_id], "agencyId": None})
    assert moved.json()["data"] == {"moved": 1}
    log = client.get(f"/api/users/{user_id}/change-log", headers=admin).json()["data"]
    assert [e["action"] for e in log][:3] == ["assign_agency", "update_config", "create"]
    listed = client.get("/api/users", params={"role": "ADVERTISER"}, headers=admin).json()["data"]
    assert {u["email"] for u in listed} == {"advertiser@demo.example", "api@new.example"}


def test_an_agency_reaches_only_its_own_advertisers(client, demo_ids):
    _, rival_advertiser = run(lambda db: tuple(u.id for u in other_tenant(db)))
    agency = bearer_headers(client, "agency@demo.example")
    for method, path in (("get", f"/api/users/{rival_advertiser}"), ("get", f"/api/users/{rival_advertiser}/payments"),
                         ("get", f"/api/users/{rival_advertiser}/change-log"),
                         ("put", f"/api/users/{rival_advertiser}/status"),
                         ("post", f"/api/users/{rival_advertiser}/password-reset")):
        reply = client.request(method, path, headers=agency, json={"status": "disabled"} if method == "put" else None)
        assert reply.status_code == 404, (path, reply.text)
    assert client.get("/api/agencies", headers=agency).status_code == 403
    own = demo_ids["advertiser@demo.example"]
    assert client.put(f"/api/users/{own}/margin", headers=agency, json={"margin": "11"}).json()["data"] == \
        {"margin": "11"}
    assert [u["email"] for u in client.get("/api/users", headers=agency).json()["data"]] == ["advertiser@demo.example"]
    created = client.post("/api/users", headers=agency, json={
        "role": "AGENCY", "email": "x@y.example", "password": "api-Pass-1", "firstName": "X", "lastName": "Y",
        "companyName": "Z"})
    assert created.status_code == 403
