"""A move re-derives every grant (issue 37, item 2): keys, impersonation sessions and open tabs whose authority came
through an agency end when the advertiser leaves it, by any path: moved to another agency or to none, the maker
disabled, removed or given another role."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from starlette.testclient import TestClient

from app.access import grants, sessions, tokens
from app.access.models import ApiCredential, User, UserStatus
from app.access.roles import Role
from app.accounts import impersonation, users
from app.accounts.console import console_state
from app.history.models import AuditEntry
from app.kernel.db import run
from app.kernel.errors import NotFound
from app.main import _session_live_until, create_app
from app.settings import api_credentials
from app.web.middleware import SessionCheck
from tests.helpers import (
    actor_of,
    browser_session,
    insert_bare_user,
    other_tenant,
    run_alembic,
    user_by_email,
)
from tests.render import run_async

ADMIN, AGENCY, ADVERTISER = "admin@demo.example", "agency@demo.example", "advertiser@demo.example"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _profile(client: TestClient, token: str) -> tuple[int, str | None]:
    """(status, the e-mail of whoever the call acted as) of GET /api/auth/profile with a bearer token."""
    answer = client.get("/api/auth/profile", headers={"Authorization": f"Bearer {token}"})
    return answer.status_code, (answer.json()["data"] or {}).get("email") if answer.status_code == 200 else None


def _keys_by_maker(db: Session) -> dict[str, str]:
    """{maker's e-mail: token} of one key for the demo advertiser made by itself, its agency and the admin."""
    advertiser_id = user_by_email(db, ADVERTISER).id
    made = {email: api_credentials.generate(db, actor=actor_of(db, email), user_id=advertiser_id, label=email.split("@")[0])
            for email in (ADVERTISER, AGENCY, ADMIN)}
    db.commit()  # the API answers from its own unit of work
    return {email: reply.token for email, reply in made.items()}


def _move(db: Session, to_rival: bool) -> User | None:
    rival = other_tenant(db)[0] if to_rival else None
    users.assign_advertisers(db, actor=actor_of(db, ADMIN), advertiser_ids=[user_by_email(db, ADVERTISER).id],
                             agency_id=rival.id if rival else None)
    db.commit()
    return rival


@pytest.mark.parametrize("to_rival", [True, False], ids=["to another agency", "to no agency"])
def test_a_key_the_old_agency_made_ends_at_the_move(client: TestClient, db: Session, to_rival: bool) -> None:
    keys = _keys_by_maker(db)
    assert {email: _profile(client, token) for email, token in keys.items()} == \
        {email: (200, ADVERTISER) for email in keys}
    _move(db, to_rival)

    assert _profile(client, keys[AGENCY]) == (401, None)  # before: 200, still reading the advertiser's account
    assert _profile(client, keys[ADVERTISER]) == (200, ADVERTISER)  # keys the move did not touch go on working
    assert _profile(client, keys[ADMIN]) == (200, ADVERTISER)

    # The advertiser's list and the admin's say the move ended it; the old agency no longer reaches it at all.
    advertiser_id = user_by_email(db, ADVERTISER).id
    for email in (ADVERTISER, ADMIN):
        listed = {k.created_by_name: k for k in
                  api_credentials.list_credentials(db, actor=actor_of(db, email), user_id=advertiser_id)}
        assert (listed["Agnes Agency"].ended, bool(listed["Agnes Agency"].revoked)) == ("moved", True)
        assert [k.ended for name, k in listed.items() if name != "Agnes Agency"] == ["", ""]
    with pytest.raises(NotFound):
        api_credentials.list_credentials(db, actor=actor_of(db, AGENCY), user_id=advertiser_id)
    revoked = db.exec(select(AuditEntry).where(AuditEntry.entity == "api_credential",
                                               AuditEntry.action == "revoke")).one()
    assert revoked.changes["revoked_reason"] == [None, "moved"]
    assert revoked.real_user_id == user_by_email(db, ADMIN).id


def test_a_key_ends_while_its_maker_is_disabled_removed_or_given_another_role(client: TestClient,
                                                                             db: Session) -> None:
    keys = _keys_by_maker(db)
    agency = user_by_email(db, AGENCY)
    users.set_status(db, actor=actor_of(db, ADMIN), user_id=agency.id, status=UserStatus.DISABLED)
    db.commit()
    assert _profile(client, keys[AGENCY]) == (401, None)  # before: 200
    assert _profile(client, keys[ADVERTISER]) == (200, ADVERTISER)
    listed = api_credentials.list_credentials(db, actor=actor_of(db, ADVERTISER), user_id=user_by_email(db, ADVERTISER).id)
    assert {k.created_by_name: (k.ended, k.revoked) for k in listed}["Agnes Agency"] == ("maker", None)

    # Derived at each use, not copied: the agency back on, its key works again.
    users.set_status(db, actor=actor_of(db, ADMIN), user_id=agency.id, status=UserStatus.ACTIVE)
    db.commit()
    assert _profile(client, keys[AGENCY]) == (200, ADVERTISER)

    # The maker given another role (no page changes roles; an operator's database edit, say).
    agency.role = Role.ADVERTISER
    db.add(agency)
    db.commit()
    assert _profile(client, keys[AGENCY]) == (401, None)  # before: 200

    # A maker that no longer exists.
    assert not grants.maker_may_act_for(db, maker_id=10**9, user=user_by_email(db, ADVERTISER))


def _impersonating_api_token(client: TestClient, db: Session) -> str:
    """A bearer JWT of the agency's API session, acting as its advertiser."""
    token = client.post("/api/auth/login/", json={"email": AGENCY, "password": "demo-Pass-2026"}).json()["data"]["token"]
    agency = sessions.actor_for(db, sessions.find_by_id(db, session_id=tokens.session_id_of(token)))
    assert agency is not None
    impersonation.impersonate(db, actor=agency, target_id=user_by_email(db, ADVERTISER).id)
    db.commit()
    assert _profile(client, token) == (200, ADVERTISER)
    return token


def _disable_agency(db: Session) -> None:
    users.set_status(db, actor=actor_of(db, ADMIN), user_id=user_by_email(db, AGENCY).id, status=UserStatus.DISABLED)


def _agency_becomes_an_advertiser(db: Session) -> None:
    agency = user_by_email(db, AGENCY)
    agency.role = Role.ADVERTISER
    db.add(agency)


@pytest.mark.parametrize(("end", "after"), [
    (lambda db: _move(db, True), (200, AGENCY)),  # the session falls back to the agency itself
    (lambda db: _move(db, False), (200, AGENCY)),
    (_disable_agency, (401, None)),
    (_agency_becomes_an_advertiser, (401, None)),
], ids=["moved to another agency", "moved to no agency", "agency disabled", "agency given another role"])
def test_an_api_session_impersonating_through_the_agency_stops_acting_as_the_advertiser(
        client: TestClient, db: Session, end: Callable[[Session], object], after: tuple[int, str | None]) -> None:
    token = _impersonating_api_token(client, db)
    end(db)
    db.commit()
    assert _profile(client, token) == after


def _agency_tab_acting_as_the_advertiser() -> str:
    """The cookie of the agency's browser session, acting as its advertiser ("Login as")."""
    token, _session_id = browser_session(AGENCY)

    def enter(db: Session) -> None:
        agency = sessions.resolve(db, token=token)
        assert agency is not None
        impersonation.impersonate(db, actor=agency, target_id=user_by_email(db, ADVERTISER).id)
    run(enter)
    return token


def _moved(to_rival: bool) -> Callable[[], None]:
    return lambda: run(_move, to_rival=to_rival)


def _role_changed() -> None:
    def change(db: Session) -> None:
        advertiser = user_by_email(db, ADVERTISER)
        advertiser.role = Role.AGENCY
        db.add(advertiser)
    run(change)


@pytest.mark.parametrize(("signed_in", "end"), [
    (_agency_tab_acting_as_the_advertiser, _moved(True)),
    (_agency_tab_acting_as_the_advertiser, _moved(False)),
    (_agency_tab_acting_as_the_advertiser, lambda: run(_disable_agency)),
    (lambda: browser_session(ADVERTISER)[0], _role_changed),
], ids=["moved to another agency", "moved to no agency", "agency disabled", "own role changed"])
def test_an_open_tab_ends_at_its_next_event_when_its_grant_changed(demo_ids: dict[str, int],
                                                                   signed_in: Callable[[], str],
                                                                   end: Callable[[], None]) -> None:
    """The tab keeps the actor it was drawn for; the session living on under another grant (the agency itself, a
    new role) must not let it act: before, the move and the role change left the tab acting as the advertiser. The
    page's check as the websocket guard makes it (pinned at the handshake, asked at each event); the guard closing a
    page whose check fails is tests/test_middleware.py's, the whole flow in a browser tests/e2e/test_acting_as.py's."""
    check = SessionCheck(signed_in(), live_until=_session_live_until, changes=lambda: 0, recheck_seconds=0)
    run_async(check.pin())
    assert run_async(check.alive())  # an event: acting
    end()
    assert not run_async(check.alive())


def test_the_agency_is_told_once_why_its_tab_came_back_as_itself(db: Session) -> None:
    token = _agency_tab_acting_as_the_advertiser()
    _move(db, to_rival=True)
    state = run(console_state, token=token, host="")
    assert (state.actor.user.email, state.notice) == (AGENCY, users.IMPERSONATION_ENDED_BY_MOVE)
    assert state.actor is not None and state.actor.session_id is not None
    assert run(sessions.take_notice, session_id=state.actor.session_id, notice=state.notice)
    assert not run(sessions.take_notice, session_id=state.actor.session_id, notice=state.notice)  # one tab tells it
    assert run(console_state, token=token, host="").notice == ""
    assert db.exec(select(ApiCredential)).all() == []  # no key was involved


def test_the_migration_keeps_every_key_and_session_and_comes_back_down(empty_database: str) -> None:
    """0031 adds why a key was revoked and a session's notice: keys and sessions saved before keep working (no
    reason: revoked by hand; no notice), and the downgrade takes the two columns away, rows intact."""
    run_alembic(empty_database, "upgrade", "0029_more_sort_keys")
    engine = sa.create_engine(empty_database)
    with engine.begin() as connection:
        insert_bare_user(connection, role="ADVERTISER")
        connection.execute(sa.text("INSERT INTO api_credentials (user_id, label, key_id, secret_hash, created_at, "
                                   "last_used_address) SELECT id, 'k', 'key1', 'h', CURRENT_TIMESTAMP, '' FROM users"))
        connection.execute(sa.text("INSERT INTO auth_sessions (id, kind, user_id, stack, issued_at, expires_at, "
                                   "address, user_agent, created_at) SELECT 's1', 'api', id, '[]', CURRENT_TIMESTAMP, "
                                   "CURRENT_TIMESTAMP, '', '', CURRENT_TIMESTAMP FROM users"))
    try:
        run_alembic(empty_database, "upgrade", "head")
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT revoked_reason FROM api_credentials")).all() == [("",)]
            assert connection.execute(sa.text("SELECT notice FROM auth_sessions")).all() == [("",)]
        run_alembic(empty_database, "downgrade", "0029_more_sort_keys")
        inspector = sa.inspect(engine)
        assert "revoked_reason" not in {c["name"] for c in inspector.get_columns("api_credentials")}
        assert "notice" not in {c["name"] for c in inspector.get_columns("auth_sessions")}
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT key_id FROM api_credentials")).all() == [("key1",)]
            assert connection.execute(sa.text("SELECT id FROM auth_sessions")).all() == [("s1",)]
    finally:
        engine.dispose()
