"""The sign-in throttle under bursts: many wrong passwords sent at the same moment, from one network or from many
(issue 37). Each request goes through the whole ASGI app; its sync routes run on the server's worker threads, so
the requests really overlap, as they would against a live server."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest
from sqlmodel import func, select

from app.access.models import LoginAttempt
from tests.render import run_async

BURST = 30
EMAIL = "agency@demo.example"


@pytest.fixture
def app(demo_ids: dict[str, int]) -> Any:
    from app.main import create_app

    return create_app()


async def _burst(app: Any, addresses: list[str], body: dict[str, str]) -> list[httpx.Response]:
    """One POST /api/auth/login/ from each of `addresses`, all sent at once."""
    clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)),
                                 base_url="http://testserver") for address in addresses]
    try:
        return list(await asyncio.gather(*(client.post("/api/auth/login/", json=body) for client in clients)))
    finally:
        for client in clients:
            await client.aclose()


def _failures(db: Any, email: str) -> int:
    return int(db.exec(select(func.count()).where(LoginAttempt.email == email,
                                                  LoginAttempt.succeeded == False)).one())  # noqa: E712


def test_thirty_wrong_passwords_at_once_from_one_network_get_exactly_the_limit_checked(app, db, settings) -> None:
    replies = run_async(_burst(app, ["10.7.0.1"] * BURST, {"email": EMAIL, "password": "wrong-pass-1"}))
    limit = settings.login_max_failures_per_account
    assert Counter(reply.status_code for reply in replies) == {401: limit, 429: BURST - limit}
    for refused in (reply for reply in replies if reply.status_code == 429):
        assert 0 < int(refused.headers["retry-after"]) <= settings.login_window_s
        assert refused.json()["message"] == "Too many failed sign-ins for this account. Try again in 15 minutes."
    assert _failures(db, EMAIL) == limit  # the refused guesses were never checked, so never counted
