"""The sign-in throttle under bursts: many wrong passwords sent at the same moment, from one network or from many
(issue 37). Each request goes through the whole ASGI app; its sync routes run on the server's worker threads, so
the requests really overlap, as they would against a live server."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlmodel import col, func, select

from app.access.models import LoginAttempt
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.kernel.errors import Invalid, NotAuthenticated, TooManyAttempts
from app.messaging.models import EmailOutbox
from tests.helpers import user_by_email
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


def test_a_burst_from_thirty_networks_stops_at_the_accounts_ceiling(app, db, settings) -> None:
    """Five guesses per network used to be the only bound: thirty networks got thirty guesses, and more networks
    more. The account-wide ceiling counts them together."""
    addresses = [f"10.8.0.{n}" for n in range(BURST)]
    replies = run_async(_burst(app, addresses, {"email": EMAIL, "password": "wrong-pass-1"}))
    ceiling = settings.login_account_ceiling
    assert Counter(reply.status_code for reply in replies) == {401: ceiling, 429: BURST - ceiling}
    for refused in (reply for reply in replies if reply.status_code == 429):
        assert 0 < int(refused.headers["retry-after"]) <= settings.login_ceiling_delay_s
        assert refused.json()["message"].startswith("Sign-ins to this account are slowed after many failed attempts.")
    assert _failures(db, EMAIL) == ceiling


def _earlier(db: Any, seconds: float) -> None:
    """Every attempt so far happened `seconds` earlier: time passes for the throttle."""
    for attempt in db.exec(select(LoginAttempt)).all():
        attempt.created_at = attempt.created_at - timedelta(seconds=seconds)
        db.add(attempt)
    db.commit()


def _sign_in(db: Any, address: str, password: str = "wrong-pass-1") -> str | int:
    """'signed in', 'wrong', or the seconds a refusal asks to wait."""
    try:
        accounts.login(db, email=EMAIL, password=password, kind="browser", address=address)
    except NotAuthenticated:
        return "wrong"
    except TooManyAttempts as refusal:
        assert refusal.retry_after_s is not None
        return refusal.retry_after_s
    return "signed in"


def test_past_the_ceiling_the_account_is_slowed_with_a_growing_wait_never_locked(db, settings) -> None:
    ceiling, delay = settings.login_account_ceiling, settings.login_ceiling_delay_s
    for n in range(ceiling):  # four guesses from each network: no network reaches its own limit of five
        assert _sign_in(db, f"10.9.{n // 4}.{n % 4}") == "wrong"
    # The next attempt, from a network with no failures at all, waits: the first wait past the ceiling.
    assert delay - 2 <= int(_sign_in(db, "10.9.100.1")) <= delay
    assert delay - 2 <= int(_sign_in(db, "10.9.100.2", DEMO_PASSWORD)) <= delay  # the owner too: slowed for all
    waits = []
    for _ in range(3):  # each wait over, one more guess is checked, and the wait after it doubles
        _earlier(db, delay * 2 ** len(waits) + 1)
        assert _sign_in(db, "10.9.100.3") == "wrong"
        waits.append(int(_sign_in(db, "10.9.100.3")))
    assert [2 * delay - 2 <= waits[0] <= 2 * delay, 4 * delay - 2 <= waits[1] <= 4 * delay,
            8 * delay - 2 <= waits[2] <= 8 * delay] == [True] * 3
    # Never locked: once the wait is over, the owner's right password signs in from their own network.
    _earlier(db, waits[-1] + 1)
    assert _sign_in(db, "10.9.200.1", DEMO_PASSWORD) == "signed in"


def test_the_owner_of_a_slowed_account_can_reset_the_password_and_sign_in_at_once(db, settings) -> None:
    for n in range(settings.login_account_ceiling):
        assert _sign_in(db, f"10.10.{n // 4}.{n % 4}") == "wrong"
    assert isinstance(_sign_in(db, "10.10.200.1", DEMO_PASSWORD), int)  # slowed
    accounts.request_password_reset(db, email=EMAIL, address="10.10.200.1")
    db.commit()
    code = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == EMAIL)
                   .order_by(col(EmailOutbox.id).desc())).first().subject.split()[-1]
    accounts.reset_password(db, email=EMAIL, code=code, new_password="fresh-pass-37")
    db.commit()
    # The reset proved the mailbox: the failures before it no longer slow the account.
    assert _sign_in(db, "10.10.200.1", "fresh-pass-37") == "signed in"


def test_thirty_wrong_reset_codes_at_once_get_five_checked_and_the_code_is_then_dead(app, db, monkeypatch) -> None:
    """The code's own count of wrong guesses was read, compared, then written back: guesses sent together all read
    the same count, every one was checked, and some increments were lost, so the code often still worked after."""
    accounts.request_password_reset(db, email=EMAIL, address="10.11.0.1")
    db.commit()
    code = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == EMAIL)
                   .order_by(col(EmailOutbox.id).desc())).first().subject.split()[-1]
    checked: list[str] = []
    real = accounts.secrets.compare_digest
    monkeypatch.setattr(accounts.secrets, "compare_digest", lambda a, b: checked.append(a) or real(a, b))
    wrong = "000000" if code != "000000" else "111111"

    async def guesses() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("10.11.0.2", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return list(await asyncio.gather(*(client.post("/api/auth/changePassword", json={
                "email": EMAIL, "otp": wrong, "newPassword": "fresh-pass-37"}) for _ in range(BURST))))

    replies = run_async(guesses())
    assert {(reply.status_code, reply.json()["message"]) for reply in replies} == {
        (422, "code: The code is wrong or has expired.")}
    assert len(checked) == accounts.OTP_MAX_ATTEMPTS
    with pytest.raises(Invalid):  # its attempts used up, the right code no longer works either
        accounts.reset_password(db, email=EMAIL, code=code, new_password="fresh-pass-37")


def test_thirty_wrong_second_factor_codes_at_once_get_exactly_the_limit_checked(app, db, settings) -> None:
    from app.accounts import second_factor
    from tests.test_second_factor import _enrol

    _enrol(db, EMAIL)
    user = user_by_email(db, EMAIL)
    challenge = second_factor.open_challenge(db, user=user, step="code").challenge
    db.commit()

    async def guesses() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=("10.12.0.1", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return list(await asyncio.gather(*(client.post("/api/auth/login/second-factor", json={
                "challenge": challenge, "code": "not-a-code"}) for _ in range(BURST))))

    replies = run_async(guesses())
    limit = settings.login_max_failures_per_account
    assert Counter(reply.status_code for reply in replies) == {422: limit, 429: BURST - limit}
    assert all("retry-after" in reply.headers for reply in replies if reply.status_code == 429)
