"""Two-factor sign-in over the API: a bearer login of an account with an authenticator app answers 401 naming the
second step and its challenge; the challenge and a code give the token; enrolment, policy and reset are calls too."""

from __future__ import annotations

from datetime import timedelta

import pyotp

from app.demo.seed import DEMO_PASSWORD
from app.kernel.model_base import utcnow
from tests.helpers import bearer_headers

ADVERTISER = "advertiser@demo.example"


def _enrol(client, headers: dict[str, str]) -> pyotp.TOTP:
    started = client.post("/api/auth/second-factor/enrolment", headers=headers)
    assert started.status_code == 200, started.text
    totp = pyotp.TOTP(started.json()["data"]["secret"])
    assert started.json()["data"]["qr_svg"].startswith("<svg")
    confirmed = client.post("/api/auth/second-factor/confirm", json={"code": totp.now()}, headers=headers)
    assert confirmed.status_code == 200, confirmed.text
    assert len(confirmed.json()["data"]["recovery_codes"]) == 10
    return totp


def test_the_api_login_asks_for_the_code_and_the_challenge_gives_the_token(client):
    totp = _enrol(client, bearer_headers(client, ADVERTISER))
    asked = client.post("/api/auth/login/", json={"email": ADVERTISER, "password": DEMO_PASSWORD})
    assert asked.status_code == 401
    data = asked.json()["data"]
    assert data["second_factor"] == "code" and data["challenge"]
    wrong = client.post("/api/auth/login/second-factor", json={"challenge": data["challenge"], "code": "000000"})
    assert wrong.status_code == 422 and "code" in wrong.json()["data"]["fields"]
    code = totp.at(utcnow() + timedelta(seconds=30))
    done = client.post("/api/auth/login/second-factor", json={"challenge": data["challenge"], "code": code})
    assert done.status_code == 200, done.text
    token = done.json()["data"]["token"]
    status = client.get("/api/auth/second-factor", headers={"Authorization": f"Bearer {token}"})
    assert status.json()["data"] == {"enabled": True, "recovery_codes_left": 10, "required": False}


def test_an_admin_resets_an_accounts_factor_over_the_api_and_an_advertiser_may_not(client, demo_ids):
    _enrol(client, bearer_headers(client, ADVERTISER))
    advertiser_id = demo_ids[ADVERTISER]
    refused = client.post(f"/api/users/{demo_ids['agency@demo.example']}/second-factor/reset",
                          headers={"Authorization": "Bearer nope"})
    assert refused.status_code == 401
    admin = bearer_headers(client, "admin@demo.example")
    # The user list's row says which accounts have a factor to reset (its row menu shows the action by it).
    rows = {row["id"]: row for row in client.get("/api/users", params={"limit": 100}, headers=admin).json()["data"]["items"]}
    assert rows[advertiser_id]["can_reset_second_factor"] and not rows[demo_ids["agency@demo.example"]]["can_reset_second_factor"]
    done = client.post(f"/api/users/{advertiser_id}/second-factor/reset", headers=admin)
    assert done.status_code == 200, done.text
    assert client.post("/api/auth/login/", json={"email": ADVERTISER, "password": DEMO_PASSWORD}).status_code == 200


def test_the_policy_is_the_admins(client):
    admin = bearer_headers(client, "admin@demo.example")
    assert client.get("/api/sign-in-policy", headers=admin).json()["data"] == {"staff_second_factor": False}
    refused = client.put("/api/sign-in-policy", json={"staff_second_factor": True}, headers=admin)
    assert refused.status_code == 422 and "staff_second_factor" in refused.json()["data"]["fields"]
    assert client.get("/api/sign-in-policy", headers=bearer_headers(client, "coadmin@demo.example")).status_code == 403


def test_new_recovery_codes_over_the_api(client):
    headers = bearer_headers(client, ADVERTISER)
    _enrol(client, headers)
    wrong = client.post("/api/auth/second-factor/recovery-codes", json={"password": "wrong-password1"}, headers=headers)
    assert wrong.status_code == 422 and set(wrong.json()["data"]["fields"]) == {"password"}
    done = client.post("/api/auth/second-factor/recovery-codes", json={"password": DEMO_PASSWORD}, headers=headers)
    assert done.status_code == 200, done.text
    assert len(set(done.json()["data"]["recovery_codes"])) == 10
    assert client.get("/api/auth/second-factor", headers=headers).json()["data"]["recovery_codes_left"] == 10
