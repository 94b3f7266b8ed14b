"""Websocket guards: foreign origins are refused; a session ended elsewhere closes the socket."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.access import sessions
from app.access.sessions import SESSION_COOKIE
from app.accounts import service as accounts
from app.accounts.auth_api import CROSS_ORIGIN_REFUSED
from app.demo.seed import DEMO_PASSWORD
from app.kernel.db import run
from app.main import create_app
from app.web.middleware import FOREIGN_ORIGIN_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE
from tests.render import run_async

WS_PATH = "/reactpy/?path=/dashboard&qs="


def _cookie_token() -> str:
    def make(db):
        result = accounts.login(db, email="advertiser@demo.example", password=DEMO_PASSWORD, kind="browser")
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


def test_same_origin_websocket_renders_and_a_revoked_session_closes_it(demo_ids):
    token = _cookie_token()
    with TestClient(create_app(), base_url="http://testserver") as client:
        client.cookies.set(SESSION_COOKIE, token)
        with client.websocket_connect(WS_PATH, headers={"origin": "http://testserver"}) as ws:
            first = ws.receive_json()
            assert first["type"] == "layout-update"
            run(sessions.revoke, token=token)
            ws.send_json({"type": "layout-event", "target": "nothing", "data": []})
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(10):  # renders already on their way may arrive first; then the close
                    assert ws.receive_json()["type"] == "layout-update"
            assert closed.value.code == SESSION_ENDED_CLOSE_CODE


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
    guard = WebsocketGuard(app, cookie_name=SESSION_COOKIE, session_alive=lambda _token: True)
    with pytest.raises(ClientDisconnected):  # the close is not an update: its failure is not hidden
        run_async(guard(scope, receive, gone_send))
    assert seen == ["websocket.disconnect"]  # the update's failure did not end the app before the disconnect
