"""Websocket guards: foreign origins are refused; a session ended elsewhere closes the socket."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.deps import SESSION_COOKIE
from app.db import run
from app.main import create_app
from app.middleware import FOREIGN_ORIGIN_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE
from app.services import accounts, sessions
from app.services.seed import DEMO_PASSWORD

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
