"""API keys: shown once, stored as a hash, usable as a bearer token on the real API until revoked or until
the account loses api_access or is disabled; managed only inside the actor's scope."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, select
from starlette.testclient import TestClient

from app.access.models import ApiCredential, UserSettings, UserStatus
from app.access.roles import Role
from app.accounts import users
from app.demo.seed import DEMO_PASSWORD, create_user
from app.history.models import AuditEntry
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.main import create_app
from app.settings import api_credentials
from app.settings.schemas import ApiKeyCreated
from tests.helpers import actor_of, other_tenant
from tests.render import signed_in_console

ADVERTISER = "advertiser@demo.example"
AGENCY = "agency@demo.example"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _profile(client: TestClient, token: str):  # type: ignore[no-untyped-def]
    return client.get("/api/auth/profile", headers={"Authorization": f"Bearer {token}"})


def _new_key(db: Session, email: str = ADVERTISER, label: str = "Reporting server", user_id: int | None = None) -> ApiKeyCreated:
    actor = actor_of(db, email)
    reply = api_credentials.generate(db, actor=actor, user_id=user_id or actor.id, label=label)
    db.commit()  # the API answers from its own unit of work
    return reply


def _set_api_access(db: Session, user_id: int, on: bool) -> None:
    row = db.get(UserSettings, user_id) or UserSettings(user_id=user_id)
    row.api_access = on
    db.add(row)
    db.commit()


def test_generate_shows_the_token_once_and_stores_only_its_hash(db: Session, demo_ids: dict[str, int]) -> None:
    reply = _new_key(db)
    token = reply.token
    assert token.startswith(f"dsp_{reply.key_id}.")
    secret = token.split(".", 1)[1]
    assert len(secret) >= 40

    row = db.exec(select(ApiCredential).where(ApiCredential.key_id == reply.key_id)).one()
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in json.dumps(row.model_dump(), default=str)
    assert row.user_id == demo_ids[ADVERTISER] and row.label == "Reporting server"

    listed = api_credentials.list_credentials(db, actor=actor_of(db, ADVERTISER), user_id=demo_ids[ADVERTISER])
    assert [r.key_id for r in listed] == [reply.key_id]
    assert secret not in json.dumps([r.model_dump() for r in listed])
    assert listed[0].created_by_name == "Arlo Advertiser" and listed[0].last_used is None

    audit = db.exec(select(AuditEntry).where(AuditEntry.entity == "api_credential")).all()
    assert [a.action for a in audit] == ["generate"]
    assert secret not in json.dumps(audit[0].changes)


def test_the_token_calls_the_api_and_its_use_is_recorded(client: TestClient, db: Session,
                                                         demo_ids: dict[str, int]) -> None:
    reply = _new_key(db)
    answer = _profile(client, reply.token)
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["email"] == ADVERTISER

    db.expire_all()
    row = db.exec(select(ApiCredential).where(ApiCredential.key_id == reply.key_id)).one()
    assert row.last_used_at is not None and row.last_used_address == "testclient"
    first_use = row.last_used_at

    # Within a minute the use is not written again; after it, it is.
    assert _profile(client, reply.token).status_code == 200
    db.expire_all()
    assert db.get(ApiCredential, row.id).last_used_at == first_use  # type: ignore[union-attr]
    row = db.get(ApiCredential, row.id)
    assert row is not None
    row.last_used_at = first_use - timedelta(minutes=2)
    db.add(row)
    db.commit()
    assert _profile(client, reply.token).status_code == 200
    db.expire_all()
    assert db.get(ApiCredential, row.id).last_used_at > first_use  # type: ignore[union-attr,operator]

    listed = api_credentials.list_credentials(db, actor=actor_of(db, ADVERTISER), user_id=demo_ids[ADVERTISER])
    assert listed[0].last_used and listed[0].last_used_address == "testclient"


def test_wrong_or_malformed_tokens_are_refused(client: TestClient, db: Session) -> None:
    reply = _new_key(db)
    for token in (f"dsp_{reply.key_id}.wrong-secret", f"dsp_{reply.key_id}", "dsp_", "dsp_nokey.secret",
                  reply.token + "x"):
        answer = _profile(client, token)
        assert answer.status_code == 401, token
        assert answer.json()["success"] is False


def test_a_revoked_token_stops_working_at_once(client: TestClient, db: Session) -> None:
    reply = _new_key(db)
    assert _profile(client, reply.token).status_code == 200
    actor = actor_of(db, ADVERTISER)
    api_credentials.revoke(db, actor=actor, credential_id=reply.id)
    api_credentials.revoke(db, actor=actor, credential_id=reply.id)  # a replayed click changes nothing
    db.commit()
    assert _profile(client, reply.token).status_code == 401
    listed = api_credentials.list_credentials(db, actor=actor, user_id=actor.id)
    assert listed[0].revoked
    actions = [a.action for a in db.exec(select(AuditEntry).where(AuditEntry.entity == "api_credential")
                                         .order_by(AuditEntry.id))]
    assert actions == ["generate", "revoke"]


def test_the_token_stops_working_without_api_access_or_when_the_user_is_disabled(
        client: TestClient, db: Session, demo_ids: dict[str, int]) -> None:
    reply = _new_key(db)
    advertiser_id = demo_ids[ADVERTISER]
    _set_api_access(db, advertiser_id, False)
    assert _profile(client, reply.token).status_code == 401
    _set_api_access(db, advertiser_id, True)
    assert _profile(client, reply.token).status_code == 200

    users.set_status(db, actor=actor_of(db, "admin@demo.example"), user_id=advertiser_id, status=UserStatus.DISABLED)
    db.commit()
    assert _profile(client, reply.token).status_code == 401


def test_the_login_token_path_still_works(client: TestClient, db: Session) -> None:
    login = client.post("/api/auth/login/", json={"email": ADVERTISER, "password": DEMO_PASSWORD})
    assert login.status_code == 200
    assert _profile(client, login.json()["data"]["token"]).json()["data"]["email"] == ADVERTISER


def test_an_agency_manages_its_own_advertisers_keys_only(db: Session, demo_ids: dict[str, int]) -> None:
    _rival_agency, rival_advertiser = other_tenant(db)
    assert rival_advertiser.id is not None
    _set_api_access(db, rival_advertiser.id, True)
    rival_key = _new_key(db, email="rival-adv@other.example")
    agency = actor_of(db, AGENCY)

    with pytest.raises(NotFound):
        api_credentials.list_credentials(db, actor=agency, user_id=rival_advertiser.id)
    with pytest.raises(NotFound):
        api_credentials.generate(db, actor=agency, user_id=rival_advertiser.id, label="Sneaky")
    with pytest.raises(NotFound):
        api_credentials.revoke(db, actor=agency, credential_id=rival_key.id)
    with pytest.raises(NotFound):
        api_credentials.overview(db, actor=agency, user_id=rival_advertiser.id)
    # An advertiser cannot reach another advertiser's keys either.
    with pytest.raises(NotFound):
        api_credentials.revoke(db, actor=actor_of(db, ADVERTISER), credential_id=rival_key.id)
    assert db.get(ApiCredential, rival_key.id).revoked_at is None  # type: ignore[union-attr]

    # Its own advertiser: allowed, and the advertiser sees who made the key.
    own = api_credentials.generate(db, actor=agency, user_id=demo_ids[ADVERTISER], label="Set up by the agency")
    listed = api_credentials.list_credentials(db, actor=actor_of(db, ADVERTISER), user_id=demo_ids[ADVERTISER])
    assert listed[0].key_id == own.key_id and listed[0].created_by_name == "Agnes Agency"
    api_credentials.revoke(db, actor=agency, credential_id=own.id)


def test_staff_manage_any_client_in_scope(db: Session, demo_ids: dict[str, int]) -> None:
    reply = _new_key(db)
    coadmin = actor_of(db, "coadmin@demo.example")
    assert [r.id for r in api_credentials.list_credentials(db, actor=coadmin, user_id=demo_ids[ADVERTISER])] \
        == [reply.id]
    api_credentials.revoke(db, actor=coadmin, credential_id=reply.id)
    admin = actor_of(db, "admin@demo.example")
    made = api_credentials.generate(db, actor=admin, user_id=demo_ids[ADVERTISER], label="Made by admin")
    assert made.token.startswith("dsp_")


def test_without_api_access_keys_are_refused(db: Session, demo_ids: dict[str, int]) -> None:
    plain = create_user(db, email="plain@demo.example", role=Role.ADVERTISER, password=DEMO_PASSWORD,
                        first_name="Plain", last_name="Advertiser", agency_id=demo_ids[AGENCY])
    assert plain.id is not None
    db.commit()
    me = actor_of(db, "plain@demo.example")
    with pytest.raises(Forbidden, match="API access is not enabled for this account."):
        api_credentials.generate(db, actor=me, user_id=plain.id, label="Mine")
    with pytest.raises(Forbidden):
        api_credentials.list_credentials(db, actor=me, user_id=plain.id)
    with pytest.raises(Forbidden):  # not even the admin can make keys for an account without API access
        api_credentials.generate(db, actor=actor_of(db, "admin@demo.example"), user_id=plain.id, label="x")
    assert api_credentials.overview(db, actor=me, user_id=plain.id).model_dump() == {
        "enabled": False, "credentials": [], "max_live": api_credentials.MAX_LIVE_CREDENTIALS}
    # Staff accounts never hold keys.
    with pytest.raises(Forbidden):
        api_credentials.generate(db, actor=actor_of(db, "admin@demo.example"), user_id=demo_ids["admin@demo.example"],
                                 label="Admin key")


def test_label_is_required_short_and_live_keys_are_limited(db: Session, demo_ids: dict[str, int]) -> None:
    me = actor_of(db, ADVERTISER)
    with pytest.raises(Invalid) as empty:
        api_credentials.generate(db, actor=me, user_id=me.id, label="   ")
    assert empty.value.fields == {"label": "This field is required."}
    with pytest.raises(Invalid) as long:
        api_credentials.generate(db, actor=me, user_id=me.id, label="x" * 61)
    assert long.value.fields == {"label": "At most 60 characters."}

    made = [api_credentials.generate(db, actor=me, user_id=me.id, label=f"Key {n}") for n in range(5)]
    with pytest.raises(Invalid) as full:
        api_credentials.generate(db, actor=me, user_id=me.id, label="One too many")
    assert full.value.fields == {"label": "You can have at most 5 active API keys. Revoke one first."}
    api_credentials.revoke(db, actor=me, credential_id=made[0].id)
    api_credentials.generate(db, actor=me, user_id=me.id, label="Replacement")
    listed = api_credentials.list_credentials(db, actor=me, user_id=me.id)
    assert [r.label for r in listed][:1] == ["Replacement"] and listed[-1].revoked  # live first


def test_unknown_key_is_not_found(db: Session) -> None:
    with pytest.raises(NotFound, match="API key not found."):
        api_credentials.revoke(db, actor=actor_of(db, ADVERTISER), credential_id=987654)


# ---- the panel, as mounted for another user (the admin's per-user config page) ----

def _panel(user_id: int, email: str) -> dict:
    from components.settings.api_credentials_panel import ApiCredentialsPanel
    from tests.render import render_model

    return render_model(lambda: ApiCredentialsPanel(user_id), signed_in_console(email))


def test_panel_lists_a_managed_users_keys_but_never_another_tenants(db: Session, demo_ids: dict[str, int]) -> None:
    from tests.render import text_of, walk

    mine = _new_key(db, label="Warehouse sync")
    _agency, rival = other_tenant(db)
    assert rival.id is not None
    _set_api_access(db, rival.id, True)
    theirs = _new_key(db, email="rival-adv@other.example", label="Rival secret project")

    model = _panel(demo_ids[ADVERTISER], "admin@demo.example")
    rows = [n["attributes"]["data-key-id"] for n in walk(model) if "data-key-id" in n.get("attributes", {})]
    assert rows == [mine.key_id]
    text = text_of(model)
    assert "Warehouse sync" in text and "Never used" in text and "1 of 5 active" in text
    assert mine.token not in text

    model = _panel(rival.id, AGENCY)
    text = text_of(model)
    assert "cannot be shown" in text
    assert theirs.key_id not in text and "Rival secret project" not in text


def test_panel_says_when_api_access_is_off(db: Session, demo_ids: dict[str, int]) -> None:
    from tests.render import text_of

    _set_api_access(db, demo_ids[ADVERTISER], False)
    text = text_of(_panel(demo_ids[ADVERTISER], "admin@demo.example"))
    assert "API access is not enabled for this account" in text
