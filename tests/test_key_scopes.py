"""Issue 37, "A key is not a password": a real API key (made over the API by its signed-in owner) calls only what
its scope allows, and no key changes the credentials of the person behind it; a new sign-in e-mail needs the
current password (and the app's code); a co-admin does not manage another co-admin's sign-in."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from sqlmodel import Session, select

from app.access.key_scopes import REPORTING_TAGS
from app.access.models import User, UserSettings
from app.access.roles import Role
from app.demo.seed import DEMO_PASSWORD, create_user
from app.kernel.model_base import utcnow
from app.main import create_api
from app.messaging.models import EmailOutbox
from tests.helpers import bearer_headers

ADVERTISER, AGENCY, ADMIN, CO_ADMIN = ("advertiser@demo.example", "agency@demo.example", "admin@demo.example",
                                       "coadmin@demo.example")
KEY_CANNOT = "An API key cannot change sign-in credentials"


def _key(client, user_id: int, scope: str | None = "read_write", owner: str = ADVERTISER) -> dict[str, str]:
    """Authorization headers of a new key of `user_id`, made over the API by `owner`'s login."""
    body = {"label": f"Key {scope}", **({"scope": scope} if scope is not None else {})}
    made = client.post(f"/api/users/{user_id}/api-keys", headers=bearer_headers(client, owner), json=body)
    assert made.status_code == 201, made.text
    assert made.json()["data"]["scope"] == (scope or "read_write")
    return {"Authorization": f"Bearer {made.json()['data']['token']}"}


def _email_of(db: Session, user_id: int) -> str:
    db.expire_all()
    user = db.get(User, user_id)
    assert user is not None
    return user.email


def _give_api_access(db: Session, user_id: int) -> None:
    row = db.get(UserSettings, user_id) or UserSettings(user_id=user_id)
    row.api_access = True
    db.add(row)
    db.commit()


def _enrol(client, headers: dict[str, str]) -> pyotp.TOTP:
    started = client.post("/api/auth/second-factor/enrolment", headers=headers)
    assert started.status_code == 200, started.text
    totp = pyotp.TOTP(started.json()["data"]["secret"])
    assert client.post("/api/auth/second-factor/confirm", json={"code": totp.now()}, headers=headers).status_code == 200
    return totp


# ---- credentials need a signed-in person ----

def test_a_key_cannot_change_the_sign_in_email_even_with_the_password(client, db, demo_ids):
    key = _key(client, demo_ids[ADVERTISER])
    for body in ({"email": "thief@evil.example"},
                 {"email": "thief@evil.example", "currentPassword": DEMO_PASSWORD}):
        refused = client.put("/api/auth/profile", headers=key, json=body)
        assert refused.status_code == 403 and KEY_CANNOT in refused.json()["message"], refused.text
    assert _email_of(db, demo_ids[ADVERTISER]) == ADVERTISER
    # A reset code asked for the thief's address goes nowhere: the account still signs in at its own.
    client.post("/api/auth/resend-verify-otp", json={"email": "thief@evil.example", "purpose": "reset"})
    assert not db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "thief@evil.example")).all()
    # The rest of the profile is not a credential: a read_write key still saves a name.
    named = client.patch("/api/auth/profile", headers=key, json={"companyName": "Arlo Renamed"})
    assert named.status_code == 200 and named.json()["data"]["company_name"] == "Arlo Renamed"


def test_a_key_cannot_change_the_password_nor_anything_of_the_second_factor(client, db, demo_ids):
    me = demo_ids[ADVERTISER]
    key = _key(client, me)
    calls = [("POST", "/api/auth/userChangePassword", {"currentPassword": DEMO_PASSWORD, "newPassword": "stolen-123"}),
             ("POST", "/api/auth/second-factor/enrolment", None),
             ("POST", "/api/auth/second-factor/confirm", {"code": "123456"}),
             ("POST", "/api/auth/second-factor/disable", {"code": "123456"}),
             ("POST", "/api/auth/second-factor/recovery-codes", {"password": DEMO_PASSWORD}),
             ("PUT", "/api/sign-in-policy", {"staff_second_factor": False}),
             ("POST", f"/api/users/{me}/api-keys", {"label": "More", "scope": "read_write"})]
    _enrol(client, bearer_headers(client, ADVERTISER))  # so disable and new recovery codes would have work to do
    for method, path, body in calls:
        refused = client.request(method, path, headers=key, json=body)
        assert refused.status_code == 403 and KEY_CANNOT in refused.json()["message"], (path, refused.text)
    login = client.post("/api/auth/login/", json={"email": ADVERTISER, "password": DEMO_PASSWORD})
    assert login.status_code == 401 and login.json()["data"]["second_factor"] == "code"  # password and factor stand


def test_an_agency_key_cannot_reset_its_advertisers_factor_nor_send_it_a_reset_code(client, db, demo_ids):
    _give_api_access(db, demo_ids[AGENCY])
    key = _key(client, demo_ids[AGENCY], owner=AGENCY)
    _enrol(client, bearer_headers(client, ADVERTISER))
    advertiser = demo_ids[ADVERTISER]
    for method, path, body in (("POST", f"/api/users/{advertiser}/second-factor/reset", None),
                               ("POST", f"/api/users/{advertiser}/password-reset", None),
                               ("PATCH", f"/api/users/{advertiser}", {"email": "thief@evil.example"})):
        refused = client.request(method, path, headers=key, json=body)
        assert refused.status_code == 403 and KEY_CANNOT in refused.json()["message"], (path, refused.text)
    assert _email_of(db, advertiser) == ADVERTISER
    # Signed in, the agency still can.
    assert client.post(f"/api/users/{advertiser}/password-reset", headers=bearer_headers(client, AGENCY)).status_code == 200


def test_a_new_sign_in_email_needs_the_current_password(client, db, demo_ids):
    me = bearer_headers(client, ADVERTISER)
    missing = client.put("/api/auth/profile", headers=me, json={"email": "arlo@new.example"})
    assert missing.status_code == 422
    assert "current password" in missing.json()["data"]["fields"]["current_password"]
    wrong = client.put("/api/auth/profile", headers=me, json={"email": "arlo@new.example",
                                                              "currentPassword": "not-it-123"})
    assert wrong.status_code == 422
    assert wrong.json()["data"]["fields"] == {"current_password": "The current password is wrong."}
    assert _email_of(db, demo_ids[ADVERTISER]) == ADVERTISER
    # The same address again changes nothing, so it asks for nothing (a form that resends every field).
    same = client.put("/api/auth/profile", headers=me, json={"email": ADVERTISER.upper(), "firstName": "Arlo"})
    assert same.status_code == 200, same.text
    done = client.put("/api/auth/profile", headers=me, json={"email": "arlo@new.example",
                                                             "currentPassword": DEMO_PASSWORD})
    assert done.status_code == 200 and done.json()["data"]["email"] == "arlo@new.example"


def test_a_new_sign_in_email_needs_the_apps_code_when_two_factor_is_on(client, db, demo_ids):
    me = bearer_headers(client, ADVERTISER)
    totp = _enrol(client, me)
    body = {"email": "arlo@new.example", "currentPassword": DEMO_PASSWORD}
    without = client.put("/api/auth/profile", headers=me, json=body)
    assert without.status_code == 422 and "code" in without.json()["data"]["fields"]
    wrong = client.put("/api/auth/profile", headers=me, json={**body, "code": "000000"})
    assert wrong.status_code == 422 and "code" in wrong.json()["data"]["fields"]
    assert _email_of(db, demo_ids[ADVERTISER]) == ADVERTISER
    done = client.put("/api/auth/profile", headers=me, json={**body, "code": totp.at(utcnow() + timedelta(seconds=30))})
    assert done.status_code == 200, done.text
    assert _email_of(db, demo_ids[ADVERTISER]) == "arlo@new.example"


def test_the_services_refuse_a_key_actor_themselves_whoever_called_them(db, demo_ids):
    """Pages call services directly: each credential service checks for itself that a person is signed in."""
    from dataclasses import replace

    from app.accounts import second_factor, users
    from app.accounts import service as accounts
    from app.kernel.errors import Forbidden, Invalid
    from app.settings import api_credentials
    from tests.helpers import actor_of

    person = actor_of(db, ADVERTISER)
    key = replace(person, key_scope="read_write")
    me = demo_ids[ADVERTISER]
    calls = [lambda: accounts.update_profile(db, actor=key, email="thief@evil.example", current_password=DEMO_PASSWORD),
             lambda: accounts.change_password(db, actor=key, current_password=DEMO_PASSWORD, new_password="stolen-123"),
             lambda: second_factor.begin_enrolment(db, actor=key),
             lambda: second_factor.turn_off(db, actor=key, code="123456"),
             lambda: second_factor.renew_recovery_codes(db, actor=key, password=DEMO_PASSWORD),
             lambda: api_credentials.generate(db, actor=key, user_id=me, label="More"),
             lambda: users.send_password_reset(db, actor=replace(actor_of(db, AGENCY), key_scope="read_write"),
                                               user_id=me)]
    for call in calls:
        with pytest.raises(Forbidden, match="An API key cannot"):
            call()
    with pytest.raises(Invalid) as missing:  # a signed-in person still proves it is them
        accounts.update_profile(db, actor=person, email="arlo@new.example")
    assert set(missing.value.fields) == {"current_password"}


# ---- scopes ----

def test_a_read_key_reads_and_is_refused_every_write_naming_its_scope(client, db, demo_ids):
    key = _key(client, demo_ids[ADVERTISER], "read")
    assert client.get("/api/campaigns", headers=key).status_code == 200
    assert client.get("/api/dashboard/overview", headers=key).status_code == 200
    for method, path, body in (("PATCH", "/api/auth/profile", {"companyName": "Written"}),
                               ("PUT", "/api/postback", {"url": "https://mmp.example/pb", "events": ["install"]}),
                               ("POST", "/api/reports", {"name": "Written"})):
        refused = client.request(method, path, headers=key, json=body)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["message"].startswith("This API key is read-only (scope: read)")
    db.expire_all()
    assert db.get(User, demo_ids[ADVERTISER]).company_name != "Written"  # type: ignore[union-attr]


def test_a_read_write_key_reads_and_writes(client, demo_ids):
    key = _key(client, demo_ids[ADVERTISER], "read_write")
    assert client.get("/api/campaigns", headers=key).status_code == 200
    saved = client.patch("/api/auth/profile", headers=key, json={"companyName": "Written"})
    assert saved.status_code == 200 and saved.json()["data"]["company_name"] == "Written"


def test_a_key_made_without_a_scope_is_read_write_and_a_made_up_scope_names_the_field(client, demo_ids):
    me = demo_ids[ADVERTISER]
    key = _key(client, me, None)
    assert client.patch("/api/auth/profile", headers=key, json={"companyName": "Written"}).status_code == 200
    bad = client.post(f"/api/users/{me}/api-keys", headers=bearer_headers(client, ADVERTISER),
                      json={"label": "Everything", "scope": "admin"})
    assert bad.status_code == 422 and "read_write" in bad.json()["data"]["fields"]["scope"]


def test_a_reporting_key_reads_statistics_dashboards_and_reports_only(client, db, demo_ids):
    key = _key(client, demo_ids[ADVERTISER], "reporting")
    for path in ("/api/dashboard/overview", "/api/statistics", "/api/report/get"):
        assert client.get(path, headers=key).status_code == 200, path
    for method, path, body in (("GET", "/api/campaigns", None), ("GET", "/api/auth/profile", None),
                               ("PATCH", "/api/auth/profile", {"companyName": "Written"}),
                               ("POST", "/api/reports", {"name": "Written"})):
        refused = client.request(method, path, headers=key, json=body)
        assert refused.status_code == 403, (path, refused.text)
        assert "(scope: reporting)" in refused.json()["message"]


def test_a_reporting_key_downloads_its_users_report_results(client, demo_ids):
    """The report's CSV is served outside /api (/files/exports/...): still a reporting read."""
    from tests.helpers import wait_for_run

    me = bearer_headers(client, ADVERTISER)
    report = client.post("/api/report/create", headers=me, json={"name": "Weekly", "report_type": "exchange"})
    run_id = client.post("/api/reports/generate", headers=me, json={"report_id": report.json()["data"]["id"]})
    assert run_id.status_code == 200, run_id.text
    assert wait_for_run(run_id.json()["data"]["run_id"]).status == "completed"
    for scope in ("reporting", "read"):
        key = _key(client, demo_ids[ADVERTISER], scope)
        link = client.get("/api/report/download", headers=key, params={"run_id": run_id.json()["data"]["run_id"]})
        assert link.status_code == 200, link.text
        csv = client.get(link.json()["data"]["csv_download_url"], headers=key)
        assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv"), (scope, csv.text)


def test_the_key_list_shows_each_keys_scope(client, demo_ids):
    me = demo_ids[ADVERTISER]
    _key(client, me, "reporting")
    _key(client, me, "read")
    listed = client.get(f"/api/users/{me}/api-keys", headers=bearer_headers(client, ADVERTISER)).json()["data"]
    assert [k["scope"] for k in listed["items"]] == ["read", "reporting"]


def test_every_reporting_tag_names_api_routes() -> None:
    """A renamed router tag would leave reporting keys with nothing to read: the declaration follows the routes."""
    tags = {tag for operations in create_api().openapi()["paths"].values() for operation in operations.values()
            for tag in operation.get("tags", [])}
    assert not REPORTING_TAGS - tags


def test_the_openapi_bearer_scheme_says_what_a_key_may_do() -> None:
    description = create_api().openapi()["components"]["securitySchemes"]["bearer"]["description"]
    assert "`read`" in description and "`reporting`" in description and "credentials" in description


def test_keys_made_before_scopes_become_read_write_and_the_downgrade_works(empty_database: str) -> None:
    import sqlalchemy as sa

    from tests.helpers import run_alembic

    run_alembic(empty_database, "upgrade", "0029_more_sort_keys")
    engine = sa.create_engine(empty_database)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text(
                "INSERT INTO users (id, email, password_hash, first_name, last_name, company_name, role, status, "
                "created_at, updated_at) VALUES (1, 'old@key.example', 'x', '', '', '', 'ADVERTISER', 'active', "
                ":now, :now)"), {"now": utcnow()})
            connection.execute(sa.text(
                "INSERT INTO api_credentials (user_id, label, key_id, secret_hash, created_at, last_used_address) "
                "VALUES (1, 'Old', 'oldkey', 'hash', :now, '')"), {"now": utcnow()})
        run_alembic(empty_database, "upgrade", "head")
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT scope FROM api_credentials")).scalar_one() == "read_write"
        run_alembic(empty_database, "downgrade", "0029_more_sort_keys")
        with engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("api_credentials")}
        assert "scope" not in columns and "key_id" in columns
    finally:
        engine.dispose()


# ---- co-admins and each other's sign-in ----

@pytest.fixture
def second_co_admin(db: Session) -> int:
    other = create_user(db, email="coadmin2@demo.example", role=Role.CO_ADMIN, password=DEMO_PASSWORD,
                        first_name="Cora", last_name="Second")
    db.commit()
    assert other.id is not None
    return other.id


def test_a_co_admin_cannot_manage_another_co_admins_sign_in(client, db, second_co_admin):
    co_admin = bearer_headers(client, CO_ADMIN)
    _enrol(client, bearer_headers(client, "coadmin2@demo.example"))
    for method, path, body in (("PATCH", f"/api/users/{second_co_admin}", {"email": "taken@evil.example"}),
                               ("POST", f"/api/users/{second_co_admin}/password-reset", None),
                               ("POST", f"/api/users/{second_co_admin}/second-factor/reset", None),
                               ("PUT", f"/api/users/{second_co_admin}/status", {"status": "disabled"})):
        refused = client.request(method, path, headers=co_admin, json=body)
        assert refused.status_code == 403, (path, refused.text)
    assert _email_of(db, second_co_admin) == "coadmin2@demo.example"
    assert db.get(User, second_co_admin).status == "active"  # type: ignore[union-attr]
    # Names are not a sign-in: the co-admin may still correct them.
    assert client.patch(f"/api/users/{second_co_admin}", headers=co_admin, json={"lastName": "Seconda"}).status_code == 200
    # The user list offers none of those actions on the row, and the account's page says so.
    rows = {r["id"]: r for r in client.get("/api/users", params={"limit": 100}, headers=co_admin).json()["data"]["items"]}
    row = rows[second_co_admin]
    assert not (row["can_reset"] or row["can_disable"] or row["can_reset_second_factor"])
    assert client.get(f"/api/users/{second_co_admin}", headers=co_admin).json()["data"]["can_manage_sign_in"] is False


def test_a_co_admin_still_manages_clients_and_an_admin_manages_co_admins(client, db, demo_ids, second_co_admin):
    co_admin = bearer_headers(client, CO_ADMIN)
    assert client.post(f"/api/users/{demo_ids[AGENCY]}/password-reset", headers=co_admin).status_code == 200
    admin = bearer_headers(client, ADMIN)
    _enrol(client, bearer_headers(client, "coadmin2@demo.example"))
    for method, path, body in (("PATCH", f"/api/users/{second_co_admin}", {"email": "cora@demo.example"}),
                               ("POST", f"/api/users/{second_co_admin}/password-reset", None),
                               ("POST", f"/api/users/{second_co_admin}/second-factor/reset", None),
                               ("PUT", f"/api/users/{second_co_admin}/status", {"status": "disabled"})):
        done = client.request(method, path, headers=admin, json=body)
        assert done.status_code == 200, (path, done.text)


def _edit_form(db: Session, viewer: str, user_id: int) -> list[dict]:
    from app.accounts import users
    from components.accounts.users.user_form import EditUserForm
    from tests.helpers import actor_of
    from tests.render import render_model, signed_in_console, walk

    shown = users.get_user(db, actor=actor_of(db, viewer), user_id=user_id)
    db.commit()  # the sign-in it made, so the page's own sign-in does not wait on this one's lock
    return list(walk(render_model(lambda: EditUserForm(shown, lambda: None), signed_in_console(viewer))))


def test_the_edit_page_shows_another_co_admins_email_locked_and_an_admin_can_edit_it(db, second_co_admin):
    def email_input(elements: list[dict]) -> dict:
        return next(e for e in elements if e.get("tagName") == "input" and e["attributes"].get("id") == "field-email")

    as_co_admin = _edit_form(db, CO_ADMIN, second_co_admin)
    locked = email_input(as_co_admin)["attributes"]
    assert locked.get("disabled") and "name" not in locked  # shown, never submitted
    assert any(e.get("attributes", {}).get("data-locked") == "email" for e in as_co_admin)
    editable = email_input(_edit_form(db, ADMIN, second_co_admin))["attributes"]
    assert editable.get("name") == "email" and not editable.get("disabled")


def test_the_co_admin_rule_is_the_permission_tables_data(db, second_co_admin, monkeypatch):
    """An install that declares co-admins manage each other's sign-in (app/access/permissions.py) gets it everywhere
    the rule is asked: the check is derived from the table, not written beside it."""
    from app.access import permissions
    from app.accounts import users
    from app.kernel.errors import Forbidden
    from tests.helpers import actor_of

    co_admin = actor_of(db, CO_ADMIN)
    with pytest.raises(Forbidden):
        users.send_password_reset(db, actor=co_admin, user_id=second_co_admin)
    monkeypatch.setitem(permissions.CREDENTIALS_MANAGED, Role.CO_ADMIN,
                        frozenset({Role.CO_ADMIN, Role.AGENCY, Role.ADVERTISER}))
    assert users.send_password_reset(db, actor=co_admin, user_id=second_co_admin) == "coadmin2@demo.example"
    assert users.get_user(db, actor=co_admin, user_id=second_co_admin).can_manage_sign_in
