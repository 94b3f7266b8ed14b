"""The JSON API through the real ASGI app (httpx in-process transport)."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from app.demo.seed import DEMO_PASSWORD
from app.messaging.models import EmailOutbox


def _login(client, email="advertiser@demo.example"):
    reply = client.post("/api/auth/login/", json={"email": email, "password": DEMO_PASSWORD})
    assert reply.status_code == 200, reply.text
    return reply.json()["data"]


def test_login_returns_a_bearer_token_and_profile_works(client):
    data = _login(client)
    assert data["expires_in"] == 7200 and data["user"]["role"] == "ADVERTISER"
    profile = client.get("/api/auth/profile", headers={"Authorization": f"Bearer {data['token']}"}).json()
    assert profile == {"success": True, "code": 200, "message": "OK",
                       "data": {**profile["data"], "email": "advertiser@demo.example"}}


def test_errors_use_the_envelope(client):
    wrong = client.post("/api/auth/login/", json={"email": "advertiser@demo.example", "password": "bad-pass-1"})
    assert wrong.status_code == 401
    assert wrong.json() == {"success": False, "code": 401, "message": "Incorrect email or password.", "data": None}
    missing = client.post("/api/auth/login/", json={"email": "a@b.example"})
    assert missing.status_code == 422 and "password" in missing.json()["data"]["fields"]
    assert client.get("/api/auth/profile").json()["code"] == 401
    assert client.get("/api/nothing-here").status_code == 404
    bad_field = client.put("/api/auth/profile", json={"email": "x", "firstName": "A", "lastName": "B"},
                           headers={"Authorization": f"Bearer {_login(client)['token']}"})
    assert bad_field.status_code == 422 and "email" in bad_field.json()["data"]["fields"]


def test_refresh_token_and_logout_revoke(client):
    token = _login(client)["token"]
    auth = {"Authorization": f"Bearer {token}"}
    renewed = client.get("/api/auth/refresh-token", headers=auth).json()["data"]["token"]
    assert client.post("/api/auth/logout", headers={"Authorization": f"Bearer {renewed}"}).status_code == 200
    assert client.get("/api/auth/profile", headers={"Authorization": f"Bearer {renewed}"}).status_code == 401
    assert client.get("/api/auth/profile", headers={"Authorization": "Bearer forged.token.here"}).status_code == 401


def test_user_settings_are_scoped(client, demo_ids):
    advertiser = demo_ids["advertiser@demo.example"]
    own = client.get(f"/api/user-settings/{advertiser}", headers={"Authorization": f"Bearer {_login(client)['token']}"})
    assert own.json()["data"]["api_access"] is True
    agency_token = _login(client, "agency@demo.example")["token"]
    admin_id = demo_ids["admin@demo.example"]
    other = client.get(f"/api/user-settings/{admin_id}", headers={"Authorization": f"Bearer {agency_token}"})
    assert other.status_code == 404


def test_register_and_verify_over_the_api(client, db):
    reply = client.post("/api/auth/register", json={"email": "api.user@shop.example", "password": "secret-123",
                                                    "firstName": "Api", "lastName": "User", "companyName": "Shop"})
    assert reply.status_code == 200, reply.text
    assert client.post("/api/auth/login/", json={"email": "api.user@shop.example", "password": "secret-123"}).status_code == 401
    code = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "api.user@shop.example")).all()[-1].subject.split()[-1]
    assert client.post("/api/auth/verify-otp", json={"email": "api.user@shop.example", "otp": code}).status_code == 200
    assert client.post("/api/auth/login/", json={"email": "api.user@shop.example", "password": "secret-123"}).status_code == 200


def test_browser_session_endpoints_refuse_cross_site(client):
    assert client.post("/api/auth/session", json={"ticket": "x"}).status_code == 403
    evil = client.post("/api/auth/session/logout", headers={"X-Requested-With": "dsp-console", "Origin": "https://evil.example"})
    assert evil.status_code == 403


def test_agency_config_and_health(client):
    config = client.get("/api/auth/agency-config").json()["data"]
    assert config["company"]["name"] == "Northwind DSP" and config["theme"]["primaryColor"].startswith("#")
    assert client.get("/api/health").json()["data"] == {"status": "ok"}


def test_html_shell_is_not_cached_or_shared(client):
    page = client.get("/admin/dashboard")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert page.headers["cache-control"] == "no-store"
    assert "access-control-allow-origin" not in page.headers


def test_openapi_document_and_docs_page(client):
    spec = client.get("/api/openapi.json").json()
    assert "/auth/login/" in spec["paths"] and "/auth/refresh-token" in spec["paths"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs.text


def _latest_code(db, email: str) -> str:
    return db.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all()[-1].subject.split()[-1]


SAME_ORIGIN = {"X-Requested-With": "dsp-console", "Origin": "http://testserver"}


def _ticket() -> str:
    from app.accounts import service as accounts
    from app.kernel.db import run

    return run(lambda db: accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD,
                                         kind="browser").new_session.secret)


def test_a_ticket_opens_a_browser_session_with_a_safe_cookie_and_refresh_extends_it(client):
    reply = client.post("/api/auth/session", json={"ticket": _ticket()}, headers=SAME_ORIGIN)
    assert reply.status_code == 200, reply.text
    cookie = reply.headers["set-cookie"]
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert cookie.startswith("dsp_session=") and {"httponly", "path", "max-age"} <= flags
    assert "samesite=lax" in cookie.lower() and "secure" not in flags  # Secure only in production
    assert "max-age=7200" in cookie.lower()
    first = reply.json()["data"]
    assert first["expiresAt"] - first["issuedAt"] == 7_200_000
    page = client.get("/dashboard")  # the cookie signs the browser in
    assert page.status_code == 200

    refreshed = client.post("/api/auth/session/refresh", headers=SAME_ORIGIN)
    assert refreshed.status_code == 200, refreshed.text
    assert refreshed.json()["data"]["expiresAt"] >= first["expiresAt"]
    assert "dsp_session=" in refreshed.headers["set-cookie"]
    client.cookies.clear()
    assert client.post("/api/auth/session/refresh", headers=SAME_ORIGIN).status_code == 401


def test_forgot_password_over_the_api(client, db):
    email = "agency@demo.example"
    sent = client.post("/api/auth/resend-verify-otp", json={"email": email, "purpose": "reset"})
    assert sent.status_code == 200 and sent.json()["success"] is True
    changed = client.post("/api/auth/changePassword",
                          json={"email": email, "otp": _latest_code(db, email), "newPassword": "agency-New-2027"})
    assert changed.status_code == 200, changed.text
    assert client.post("/api/auth/login/", json={"email": email, "password": DEMO_PASSWORD}).status_code == 401
    assert client.post("/api/auth/login/", json={"email": email, "password": "agency-New-2027"}).status_code == 200
    unknown = client.post("/api/auth/resend-verify-otp", json={"email": "nobody@nowhere.example", "purpose": "reset"})
    assert unknown.json() == sent.json(), "the reply must not tell whether an address has an account"


def test_a_user_changes_their_password_and_their_other_sessions_end(client):
    other = _login(client)["token"]
    token = _login(client)["token"]
    wrong = client.post("/api/auth/userChangePassword", headers={"Authorization": f"Bearer {token}"},
                        json={"currentPassword": "not-it-1", "newPassword": "fresh-Pass-2027"})
    assert wrong.status_code == 422
    assert wrong.json()["data"]["fields"] == {"current_password": "The current password is wrong."}
    ok = client.post("/api/auth/userChangePassword", headers={"Authorization": f"Bearer {token}"},
                     json={"currentPassword": DEMO_PASSWORD, "newPassword": "fresh-Pass-2027"})
    assert ok.status_code == 200, ok.text
    assert client.get("/api/auth/profile", headers={"Authorization": f"Bearer {other}"}).status_code == 401
    assert client.post("/api/auth/login/", json={"email": "advertiser@demo.example",
                                                 "password": DEMO_PASSWORD}).status_code == 401
    assert client.post("/api/auth/login/", json={"email": "advertiser@demo.example",
                                                 "password": "fresh-Pass-2027"}).status_code == 200


def _cookie_attributes(set_cookie: str) -> dict[str, str]:
    name_value, *attributes = (part.strip() for part in set_cookie.split(";"))
    pairs = dict(attribute.partition("=")[::2] for attribute in attributes)
    return {"": name_value, **{key.lower(): value for key, value in pairs.items()}}


def test_the_session_cookie_signs_the_browser_in_and_refresh_extends_an_ageing_session(client):
    opened = client.post("/api/auth/session", json={"ticket": _ticket()}, headers=SAME_ORIGIN)
    assert opened.status_code == 200, opened.text
    # The cookie alone is the browser's credential: the API knows who it is.
    assert client.get("/api/auth/profile").json()["data"]["email"] == "advertiser@demo.example"

    # 110 of the 120 minutes have gone by: a refresh gives a full two hours from now again.
    from app.access import sessions
    from app.kernel.db import run
    from app.kernel.model_base import utcnow

    token = client.cookies["dsp_session"]

    def age(db):
        row = sessions.find(db, token=token)
        row.issued_at = utcnow() - timedelta(minutes=110)
        row.expires_at = row.issued_at + timedelta(hours=2)
        db.add(row)
        return int(row.expires_at.timestamp() * 1000)

    old_expiry = run(age)
    before = utcnow()
    refreshed = client.post("/api/auth/session/refresh", headers=SAME_ORIGIN)
    assert refreshed.status_code == 200, refreshed.text
    data = refreshed.json()["data"]
    assert data["expiresAt"] - data["issuedAt"] == 7_200_000
    assert data["expiresAt"] >= int((before + timedelta(hours=2)).timestamp() * 1000) > old_expiry
    stored = run(lambda db: sessions.find(db, token=token).expires_at)
    assert int(stored.timestamp() * 1000) == data["expiresAt"]  # the server's record, not just the reply
    cookie = _cookie_attributes(refreshed.headers["set-cookie"])
    assert cookie[""] == f"dsp_session={token}" and cookie["max-age"] == "7200" and cookie["path"] == "/"
    assert client.get("/api/auth/profile").status_code == 200


def test_the_session_cookie_is_secure_in_production_only(client, monkeypatch):
    from app.kernel.config import get_settings

    plain = _cookie_attributes(client.post("/api/auth/session", json={"ticket": _ticket()},
                                           headers=SAME_ORIGIN).headers["set-cookie"])
    assert "secure" not in plain and "httponly" in plain and plain["samesite"].lower() == "lax"
    monkeypatch.setattr(get_settings(), "environment", "production")
    production = _cookie_attributes(client.post("/api/auth/session", json={"ticket": _ticket()},
                                                headers=SAME_ORIGIN).headers["set-cookie"])
    assert "secure" in production and "httponly" in production and production["samesite"].lower() == "lax"
    assert production["path"] == "/" and production["max-age"] == "7200"


def test_a_new_verification_code_replaces_the_old_one(client, db):
    email = "late.verifier@shop.example"
    registered = client.post("/api/auth/register", json={"email": email, "password": "secret-123",
                                                         "firstName": "Late", "lastName": "Verifier",
                                                         "companyName": "Shop"})
    assert registered.status_code == 200, registered.text
    first_code = _latest_code(db, email)
    resent = client.post("/api/auth/resend-verify-otp", json={"email": email})  # purpose "verify" by default
    assert resent.status_code == 200 and resent.json()["success"] is True
    mails = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).all()
    assert len(mails) == 2, "a second code must be sent"
    second_code = _latest_code(db, email)
    assert client.post("/api/auth/login/", json={"email": email, "password": "secret-123"}).status_code == 401
    if first_code != second_code:  # a one-in-a-million chance that both codes are the same digits
        stale = client.post("/api/auth/verify-otp", json={"email": email, "otp": first_code})
        assert stale.status_code == 422 and "code" in stale.json()["data"]["fields"]
    assert client.post("/api/auth/verify-otp", json={"email": email, "otp": second_code}).status_code == 200
    assert client.post("/api/auth/login/", json={"email": email, "password": "secret-123"}).status_code == 200
