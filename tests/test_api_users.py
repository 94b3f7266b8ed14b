"""Account administration over the JSON API: same rules as the pages, another tenant stays unreachable."""

from __future__ import annotations

from sqlmodel import select

from app.kernel.db import run
from app.messaging.models import EmailOutbox
from tests.helpers import bearer_headers, other_tenant


def test_admin_creates_configures_and_moves_users(client, demo_ids):
    admin = bearer_headers(client, "admin@demo.example")
    created = client.post("/api/users", headers=admin, json={
        "role": "ADVERTISER", "email": "api@new.example", "password": "api-Pass-1", "firstName": "Api",
        "lastName": "User", "companyName": "Api Co", "agencyId": demo_ids["agency@demo.example"]})
    assert created.status_code == 201, created.text
    user_id = created.json()["data"]["id"]
    assert created.headers["location"] == f"/api/users/{user_id}"
    bad = client.put(f"/api/users/{user_id}/config", headers=admin, json={
        "insight_dashboard": True, "postback_enabled": False, "api_access": False, "margin": "120"})
    assert bad.status_code == 422 and "margin" in bad.json()["data"]["fields"]
    good = client.put(f"/api/users/{user_id}/config", headers=admin, json={
        "insight_dashboard": True, "postback_enabled": True, "api_access": False, "margin": "8"})
    assert good.json()["data"]["margin"] == "8"
    moved = client.post("/api/agencies/assign", headers=admin, json={"advertiserIds": [user_id], "agencyId": None})
    assert moved.json()["data"] == {"moved": 1}
    log = client.get(f"/api/users/{user_id}/change-log", headers=admin).json()["data"]["items"]
    assert [e["action"] for e in log][:3] == ["assign_agency", "update_config", "create"]
    listed = client.get("/api/users", params={"role": "ADVERTISER"}, headers=admin).json()["data"]["items"]
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
    assert [u["email"] for u in client.get("/api/users", headers=agency).json()["data"]["items"]] == ["advertiser@demo.example"]
    created = client.post("/api/users", headers=agency, json={
        "role": "AGENCY", "email": "x@y.example", "password": "api-Pass-1", "firstName": "X", "lastName": "Y",
        "companyName": "Z"})
    assert created.status_code == 403


def test_edit_config_status_reset_and_payments_over_the_api(client, demo_ids):
    admin = bearer_headers(client, "admin@demo.example")
    advertiser = demo_ids["advertiser@demo.example"]
    edited = client.put(f"/api/users/{advertiser}", headers=admin, json={
        "email": "arlo@renamed.example", "firstName": "Arló", "lastName": "Advertiser", "companyName": "Arlo Inc"})
    assert edited.status_code == 200, edited.text
    assert edited.json()["data"]["email"] == "arlo@renamed.example"
    assert client.get(f"/api/users/{advertiser}", headers=admin).json()["data"]["name"] == "Arló Advertiser"

    config = client.get(f"/api/users/{advertiser}/config", headers=admin).json()["data"]
    assert config["api_access"] is True and config["insight_dashboard"] is True

    payments = client.get(f"/api/users/{advertiser}/payments", headers=admin).json()["data"]["items"]
    assert payments and payments[0]["balance"] == "5000.00"  # the demo's opening deposit

    reset = client.post(f"/api/users/{advertiser}/password-reset", headers=admin)
    assert reset.status_code == 200 and reset.json()["data"] == {"email": "arlo@renamed.example"}
    # the user gets a code by e-mail and chooses a new password with it
    code = run(lambda db: db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "arlo@renamed.example"))
               .all()[-1].subject.split()[-1])
    chosen = client.post("/api/auth/changePassword", json={"email": "arlo@renamed.example", "otp": code,
                                                           "newPassword": "arlo-Reset-2027"})
    assert chosen.status_code == 200, chosen.text
    arlo = {"email": "arlo@renamed.example", "password": "arlo-Reset-2027"}
    signed_in = {"Authorization": f"Bearer {client.post('/api/auth/login/', json=arlo).json()['data']['token']}"}

    disabled = client.put(f"/api/users/{advertiser}/status", headers=admin, json={"status": "disabled"})
    assert disabled.status_code == 200 and disabled.json()["data"]["status"] == "disabled"
    assert client.post("/api/auth/login/", json=arlo).status_code == 401
    assert client.get("/api/auth/profile", headers=signed_in).status_code == 401  # its sessions end at once
    enabled = client.put(f"/api/users/{advertiser}/status", headers=admin, json={"status": "active"})
    assert enabled.json()["data"]["status"] == "active"
    assert client.get("/api/auth/profile", headers=signed_in).status_code == 401  # ended, not paused
    assert client.post("/api/auth/login/", json=arlo).status_code == 200


def test_agencies_and_reference_lists_over_the_api(client, demo_ids):
    admin = bearer_headers(client, "admin@demo.example")
    agencies = client.get("/api/agencies", headers=admin).json()["data"]["items"]
    demo_agency = next(a for a in agencies if a["id"] == demo_ids["agency@demo.example"])
    assert demo_agency["advertisers"] == 1
    exchanges = client.get("/api/metadata/exchange", headers=admin)
    assert exchanges.status_code == 200, exchanges.text
    names = [row["name"] for row in exchanges.json()["data"]]
    assert names and names == sorted(names, key=str.lower)
    assert client.get("/api/metadata/exchange", headers=bearer_headers(client, "agency@demo.example")).status_code == 403
