"""The calls that e-mail a code (forgot-password, resend a code, register) are throttled like sign-in, per
e-mail address and per client address, by the one limiter in app/access/throttle.py; past the limit no mail leaves."""

from __future__ import annotations

import pytest
from sqlmodel import select

from app.access.models import User
from app.accounts import service as accounts
from app.kernel.errors import TooManyAttempts
from tests.helpers import settle_jobs
from tests.test_mail import smtp_server  # noqa: F401 (the SMTP fake, a fixture)

TWELVE = 12


def _forgot(db, email: str, address: str) -> str:
    """'sent', or the refusal's message."""
    try:
        accounts.request_password_reset(db, email=email, address=address)
    except TooManyAttempts as refusal:
        return refusal.message
    return "sent"


def test_twelve_forgot_password_requests_for_one_account_send_five_mails(db, settings, smtp_server):  # noqa: F811
    # From a new address each time: spreading the requests over many networks does not flood the inbox either.
    answers = [_forgot(db, "advertiser@demo.example", f"10.1.0.{n}") for n in range(TWELVE)]
    limit = settings.mail_max_per_account
    assert answers[:limit] == ["sent"] * limit
    assert answers[limit:] == ["Too many codes were requested for this e-mail address. Try again in 15 minutes."] * (
        TWELVE - limit)
    db.commit()
    settle_jobs()
    assert len(smtp_server.messages) == limit
    # Another account is not held up by it.
    assert _forgot(db, "agency@demo.example", "10.1.0.1") == "sent"


def test_a_refusal_does_not_tell_whether_the_account_exists(db, settings):
    known = [_forgot(db, "advertiser@demo.example", "10.2.0.1") for _ in range(TWELVE)]
    unknown = [_forgot(db, "nobody@demo.example", "10.2.0.2") for _ in range(TWELVE)]
    assert known == unknown


def test_one_network_asking_for_many_accounts_is_refused(db, settings, smtp_server):  # noqa: F811
    limit = settings.mail_max_per_address
    for n in range(limit):
        assert _forgot(db, f"someone{n}@demo.example", "10.3.0.1") == "sent"
    assert _forgot(db, "advertiser@demo.example", "10.3.0.1") == (
        "Too many codes were requested from your network. Try again in 15 minutes.")
    db.commit()
    settle_jobs()
    assert smtp_server.messages == []  # none of the twenty had an account; the refused one did and got nothing
    assert _forgot(db, "advertiser@demo.example", "10.3.0.2") == "sent"  # from elsewhere it is mailed
    db.commit()
    settle_jobs()
    assert len(smtp_server.messages) == 1


def _resend(client, email: str, purpose: str = "reset"):
    return client.post("/api/auth/resend-verify-otp", json={"email": email, "purpose": purpose})


def test_the_api_answers_429_with_retry_after_and_sends_nothing_past_the_limit(client, settings,
                                                                                smtp_server):  # noqa: F811
    replies = [_resend(client, "advertiser@demo.example") for _ in range(TWELVE)]
    limit = settings.mail_max_per_account
    assert [r.status_code for r in replies] == [200] * limit + [429] * (TWELVE - limit)
    refused = replies[-1]
    assert refused.json()["message"] == "Too many codes were requested for this e-mail address. Try again in 15 minutes."
    assert 0 < int(refused.headers["retry-after"]) <= settings.mail_window_s
    settle_jobs()
    assert len(smtp_server.messages) == limit


def test_register_counts_against_the_same_limit(client, settings, smtp_server):  # noqa: F811
    for n in range(settings.mail_max_per_address):
        assert _resend(client, f"someone{n}@demo.example", "verify").status_code == 200
    reply = client.post("/api/auth/register", json={"email": "new@shop.example", "password": "new-Shop-2027",
                                                    "firstName": "Nia", "lastName": "New", "companyName": "Shop"})
    assert reply.status_code == 429 and "retry-after" in reply.headers
    assert reply.json()["message"] == "Too many codes were requested from your network. Try again in 15 minutes."
    settle_jobs()
    assert smtp_server.messages == []

    def registered(db):
        return db.exec(select(User).where(User.email == "new@shop.example")).first()
    from app.kernel.db import run
    assert run(registered) is None


def test_sign_in_refusal_tells_how_long_to_wait(client, settings):
    for _ in range(settings.login_max_failures_per_account):
        assert client.post("/api/auth/login/", json={"email": "agency@demo.example",
                                                      "password": "wrong-pass-1"}).status_code == 401
    refused = client.post("/api/auth/login/", json={"email": "agency@demo.example", "password": "wrong-pass-1"})
    assert refused.status_code == 429
    assert 0 < int(refused.headers["retry-after"]) <= settings.login_window_s


@pytest.mark.parametrize("language", ["gr"])
def test_the_refusal_reads_in_the_users_language(db, language):
    from app.kernel.i18n.catalog import translator

    for _ in range(TWELVE):
        message = _forgot(db, "advertiser@demo.example", "10.4.0.1")
    assert translator(language)(message) == (
        "Für diese E-Mail-Adresse wurden zu viele Codes angefordert. Versuchen Sie es in 15 Minuten erneut.")
