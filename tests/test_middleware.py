"""Websocket guards: foreign origins are refused; a session ended closes the socket at the page's next event."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.access import sessions
from app.access.models import UserStatus
from app.access.sessions import SESSION_COOKIE
from app.accounts import service as accounts
from app.accounts import users
from app.accounts.auth_api import CROSS_ORIGIN_REFUSED
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import get_settings
from app.kernel.db import run
from app.main import create_app
from app.web import middleware
from app.web.middleware import FOREIGN_ORIGIN_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE, PageGrant, SessionCheck
from tests.helpers import actor_of
from tests.render import run_async

WS_PATH = "/reactpy/?path=/dashboard&qs="


def _cookie_token(email: str = "advertiser@demo.example") -> str:
    def make(db):
        result = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
        db.flush()
        return sessions.redeem_ticket(db, ticket=result.new_session.secret)[1]
    return run(make)


def test_foreign_origin_websocket_is_refused(demo_ids):
    with TestClient(create_app(), base_url="http://testserver") as client:
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(WS_PATH, headers={"origin": "https://evil.example", "host": "testserver"}) as ws:
            ws.receive_json()
        assert closed.value.code == FOREIGN_ORIGIN_CLOSE_CODE


def test_a_proxy_that_does_not_pass_the_host_on_is_told_so(demo_ids, caplog):
    """Behind a proxy that sends its own Host (the upstream's address), the page's Origin never matches: the
    websocket and the sign-in's session call are refused, and the log (and the call's answer) say what to change."""
    page_origin = {"origin": "https://console.example.com", "host": "127.0.0.1:8000"}
    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(WS_PATH, headers=page_origin) as ws:
            ws.receive_json()
        assert closed.value.code == FOREIGN_ORIGIN_CLOSE_CODE
        session = client.post("/api/auth/session", json={"ticket": "any"},
                              headers={**page_origin, "x-requested-with": "dsp-console"})
        assert (session.status_code, session.json()["message"]) == (403, CROSS_ORIGIN_REFUSED)
    refusals = [r.getMessage() for r in caplog.records if r.name == "dsp.web"]
    assert len(refusals) == 2
    assert all("'127.0.0.1:8000'" in note and "proxy_set_header Host $http_host" in note for note in refusals)


def _signed_in_page(client: TestClient, token: str) -> Any:
    client.cookies.set(SESSION_COOKIE, token)
    return client.websocket_connect(WS_PATH, headers={"origin": "http://testserver"})


def _send_event(ws: Any) -> None:
    ws.send_json({"type": "layout-event", "target": "nothing", "data": []})


def _closed_as_signed_out(ws: Any) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(10):  # renders already on their way may arrive first; then the close
            assert ws.receive_json()["type"] == "layout-update"
    assert closed.value.code == SESSION_ENDED_CLOSE_CODE


def _ended_in_this_process(end: Callable[[str], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """An open page whose session was checked, then ended by `end` in this process, is cut at its next event.
    The recheck bound is set to an hour, so only this process's change signal can have cut it."""
    monkeypatch.setattr(get_settings(), "session_recheck_ms", 3_600_000)
    token = _cookie_token()
    with TestClient(create_app(), base_url="http://testserver") as client, _signed_in_page(client, token) as ws:
        assert ws.receive_json()["type"] == "layout-update"
        _send_event(ws)  # checked against the database, and trusted from then on
        _send_event(ws)
        end(token)
        _send_event(ws)
        _closed_as_signed_out(ws)


def test_a_sign_out_in_this_process_cuts_an_open_page_at_its_next_event(demo_ids, monkeypatch):
    _ended_in_this_process(lambda token: run(sessions.revoke, token=token), monkeypatch)


def test_disabling_the_user_in_this_process_cuts_an_open_page_at_its_next_event(demo_ids, monkeypatch):
    def disable(_token: str) -> None:
        def change(db):
            admin = actor_of(db, "admin@demo.example")
            users.set_status(db, actor=admin, user_id=demo_ids["advertiser@demo.example"], status=UserStatus.DISABLED)
        run(change)
    _ended_in_this_process(disable, monkeypatch)


class _Database:
    """A stand-in for the session query: counts the questions, answers with the session's expiry or None."""

    def __init__(self, expires: datetime | None) -> None:
        self.expires, self.asked = expires, 0

    def live_until(self, _token: str) -> PageGrant | None:
        self.asked += 1
        return PageGrant("advertiser", self.expires) if self.expires else None


def test_a_page_asks_the_database_again_only_after_a_change_the_recheck_bound_or_the_expiry(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(middleware.time, "monotonic", lambda: clock[0])
    change = [7]
    database = _Database(datetime.now(UTC) + timedelta(hours=2))
    check = SessionCheck("token", live_until=database.live_until, changes=lambda: change[0], recheck_seconds=1.5)

    assert all(run_async(check.alive()) for _ in range(20)) and database.asked == 1  # clicks in a burst: asked once
    change[0] += 1  # a session or user change committed in this process
    assert run_async(check.alive()) and database.asked == 2
    clock[0] += 1.4
    assert run_async(check.alive()) and database.asked == 2
    clock[0] += 0.2  # past the bound: another process may have signed it out
    database.expires = None
    assert not run_async(check.alive()) and database.asked == 3

    soon = _Database(datetime.now(UTC) + timedelta(seconds=0.5))  # expires before the bound
    expiring = SessionCheck("token", live_until=soon.live_until, changes=lambda: 0, recheck_seconds=60)
    assert run_async(expiring.alive())
    clock[0] += 0.6
    soon.expires = None
    assert not run_async(expiring.alive()) and soon.asked == 2


def test_an_update_for_a_tab_that_just_closed_is_dropped_not_raised():
    """A render that finishes after the browser closed its tab: uvicorn's send raises ClientDisconnected, and
    ReactPy would log it as a traceback ("Failed to send update"). The guard drops that update; the app goes on
    to see the disconnect. Any other message that cannot be sent still fails loudly."""
    from uvicorn.protocols.utils import ClientDisconnected

    from app.web.middleware import WebsocketGuard

    seen: list[str] = []

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "an update for the closed tab"})
        seen.append((await receive())["type"])
        await send({"type": "websocket.close", "code": 1000})

    async def gone_send(message):
        if message["type"] != "websocket.accept":
            raise ClientDisconnected

    incoming = iter([{"type": "websocket.connect"}, {"type": "websocket.disconnect", "code": 1001}])

    async def receive():
        return next(incoming)

    scope = {"type": "websocket", "headers": [(b"host", b"testserver"), (b"origin", b"http://testserver")]}
    guard = WebsocketGuard(app, cookie_name=SESSION_COOKIE, live_until=lambda _token: None)
    with pytest.raises(ClientDisconnected):  # the close is not an update: its failure is not hidden
        run_async(guard(scope, receive, gone_send))
    assert seen == ["websocket.disconnect"]  # the update's failure did not end the app before the disconnect


def test_the_check_names_the_pages_user_for_its_log_lines(demo_ids):
    """The session check runs on threads of its own; what it binds (the page's user) still reaches the page
    session's log fields, which the access line at its end reads."""
    from app.kernel import log_context
    from app.main import _session_live_until
    from app.web.middleware import WebsocketGuard

    async def page(scope, receive, send):
        fields = log_context.start(request_id="page-1", route="websocket")
        await receive()
        await send({"type": "websocket.accept"})
        await receive()  # the event: checked before it gets here
        await send({"type": "websocket.send", "text": str(fields.get("user_id"))})
        await send({"type": "websocket.close", "code": 1000})

    guard = WebsocketGuard(page, cookie_name=SESSION_COOKIE, live_until=_session_live_until)
    client = TestClient(guard, base_url="http://testserver")  # not entered: this app has no lifespan
    with _signed_in_page(client, _cookie_token()) as ws:
        ws.send_text("an event")
        assert ws.receive_text() == str(demo_ids["advertiser@demo.example"])


def test_the_check_replaces_a_connection_the_database_dropped(demo_ids):
    """The check keeps a connection per thread between events; one the database dropped (a PostgreSQL restart, a
    connection killed by an idle timeout) is replaced, and the page's event still checked, not failed. An
    impersonating session is checked on the same kept connection."""
    from app.accounts import impersonation
    from app.kernel import db as kernel_db
    from app.main import _session_live_until

    def impersonating(db):
        token = _cookie_token("admin@demo.example")
        staff = sessions.resolve(db, token=token)
        impersonation.impersonate(db, actor=staff, target_id=demo_ids["agency@demo.example"])
        return token

    token, staff_token = _cookie_token(), run(impersonating)
    try:
        assert _session_live_until(token) is not None
        kernel_db._kept.connection.connection.dbapi_connection.close()  # dropped under SQLAlchemy's feet
        assert _session_live_until(token) is not None
        assert _session_live_until(staff_token) is not None and _session_live_until("no-such-token") is None
        run(sessions.revoke, token=staff_token)
        assert _session_live_until(staff_token) is None
    finally:
        kernel_db._drop_kept_connection()
