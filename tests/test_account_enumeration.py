"""Sign-up and password reset answer the same for an address with an account and one without (issue 37): the
same status and message, after the same password hashing, so neither the answer nor its time tells a stranger
which addresses have accounts. The owner of a taken address is told by e-mail instead."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import col, select

from app.access.models import User
from app.accounts import service as accounts
from app.demo.seed import DEMO_PASSWORD
from app.messaging.models import EmailOutbox
from tests.helpers import user_by_email

TAKEN = "advertiser@demo.example"
FREE = "someone.new@shop.example"


def _sign_up(client: Any, email: str) -> Any:
    return client.post("/api/auth/register", json={"email": email, "password": "new-Shop-2027", "firstName": "Nia",
                                                   "lastName": "New", "companyName": "Shop"})


def _answer(reply: Any, email: str) -> tuple[int, str, Any]:
    """The reply with the address it names made neutral: what a stranger can compare."""
    body = reply.json()
    data = body["data"]
    if isinstance(data, dict) and data.get("email") == email:
        data = {**data, "email": "<the address sent>"}
    return reply.status_code, body["message"], data


def test_sign_up_answers_the_same_for_a_taken_and_a_free_address(client) -> None:
    taken, free = _sign_up(client, TAKEN), _sign_up(client, FREE)
    assert _answer(taken, TAKEN) == _answer(free, FREE) == (
        200, "Registered. Check your email for the verification code.", {"email": "<the address sent>"})


def test_a_sign_up_for_a_taken_address_changes_nothing_and_tells_its_owner(client, db) -> None:
    before = user_by_email(db, TAKEN)
    kept = (before.password_hash, before.first_name, before.last_name, before.company_name, before.status)
    assert _sign_up(client, TAKEN.upper()).status_code == 200
    db.expire_all()
    after = user_by_email(db, TAKEN)
    assert (after.password_hash, after.first_name, after.last_name, after.company_name, after.status) == kept
    assert len(db.exec(select(User).where(col(User.email).ilike(TAKEN))).all()) == 1
    told = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == TAKEN)).all()
    assert [mail.subject for mail in told] == ["Someone tried to sign up with your e-mail address"]
    assert "Nothing was changed" in told[0].body and "Forgot password" in told[0].body
    # The owner still signs in with their own password; the stranger's does not open the account.
    assert client.post("/api/auth/login/", json={"email": TAKEN, "password": DEMO_PASSWORD}).status_code == 200
    assert client.post("/api/auth/login/", json={"email": TAKEN, "password": "new-Shop-2027"}).status_code == 401


@pytest.mark.parametrize("email", [TAKEN, FREE])
def test_sign_up_hashes_the_password_whether_or_not_the_address_is_taken(db, monkeypatch, email) -> None:
    """The hash (argon2, ~0.2 s of CPU) is the sign-up's cost: a taken address that skipped it answered at once."""
    hashed: list[str] = []
    real = accounts.hash_password
    monkeypatch.setattr(accounts, "hash_password", lambda password: hashed.append(password) or real(password))
    accounts.register(db, email=email, password="new-Shop-2027", first_name="Nia", last_name="New",
                      company_name="Shop", address="10.37.0.1")
    assert hashed == ["new-Shop-2027"]


def test_forgot_password_answers_the_same_for_a_known_and_an_unknown_address(client) -> None:
    def forgot(email: str) -> Any:
        return client.post("/api/auth/resend-verify-otp", json={"email": email, "purpose": "reset"})

    known, unknown = forgot(TAKEN), forgot(FREE)
    assert _answer(known, TAKEN) == _answer(unknown, FREE)
    assert known.status_code == 200
    # A wrong code reads the same too, for an account and for none.
    def wrong_code(email: str) -> Any:
        return client.post("/api/auth/changePassword", json={"email": email, "otp": "not-a-code",
                                                              "newPassword": "fresh-pass-37"})
    assert _answer(wrong_code(TAKEN), TAKEN) == _answer(wrong_code(FREE), FREE)
