"""One limiter for the signed-out calls a stranger can repeat without limit: sign-in (a password guess, then the
second factor's code) and the
calls that e-mail a code (register, resend a code, forgot-password: each one a mail to someone's inbox).

Each attempt is a row of login_attempts (action, e-mail, client address, time); a call is refused while too
many rows fall in a sliding window, per account and per address. What differs between the two actions is data
(the limits below), not code:
- sign-in counts failures only, and an account's failures per address: anyone who knows an e-mail address could
  otherwise keep its owner out; the owner's own network still signs in.
- a mail counts every request, for an e-mail address from any network: a request for an address that has no
  account counts the same as one that has, so a refusal never tells whether the account exists, and an inbox
  cannot be flooded by spreading the requests over many addresses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from sqlmodel import Session, col, func, select

from app.access.models import LoginAttempt
from app.kernel.config import get_settings
from app.kernel.errors import TooManyAttempts
from app.kernel.i18n.catalog import Message
from app.kernel.model_base import utcnow


@dataclass(frozen=True)
class Limit:
    action: str  # login_attempts.action
    window_s: int
    per_account: int
    per_address: int
    failures_only: bool  # count only failed attempts (sign-in), or every request (mail)
    account_per_address: bool  # an account's attempts count per client address (sign-in), or from anywhere
    account_refusal: str  # Message templates with {n}: minutes to wait
    address_refusal: str


SIGN_IN_ACCOUNT = "Too many failed sign-ins for this account. Try again in {n} minutes."
SIGN_IN_ADDRESS = "Too many failed sign-ins from your network. Try again in {n} minutes."
SECOND_FACTOR_ACCOUNT = "Too many wrong codes for this account. Try again in {n} minutes."
SECOND_FACTOR_ADDRESS = "Too many wrong codes from your network. Try again in {n} minutes."
MAIL_ACCOUNT = "Too many codes were requested for this e-mail address. Try again in {n} minutes."
MAIL_ADDRESS = "Too many codes were requested from your network. Try again in {n} minutes."


def sign_in() -> Limit:
    s = get_settings()
    return Limit("sign_in", s.login_window_s, s.login_max_failures_per_account, s.login_max_failures_per_address,
                 failures_only=True, account_per_address=True, account_refusal=SIGN_IN_ACCOUNT,
                 address_refusal=SIGN_IN_ADDRESS)


def second_factor() -> Limit:
    """The code asked for after the password (app/accounts/second_factor.py): counted like the password, under its
    own action, so guessing codes neither uses up nor hides behind the password's count."""
    s = get_settings()
    return Limit("second_factor", s.login_window_s, s.login_max_failures_per_account,
                 s.login_max_failures_per_address, failures_only=True, account_per_address=True,
                 account_refusal=SECOND_FACTOR_ACCOUNT, address_refusal=SECOND_FACTOR_ADDRESS)


def mail() -> Limit:
    s = get_settings()
    return Limit("mail", s.mail_window_s, s.mail_max_per_account, s.mail_max_per_address,
                 failures_only=False, account_per_address=False, account_refusal=MAIL_ACCOUNT,
                 address_refusal=MAIL_ADDRESS)


def _counted(limit: Limit, *conditions: Any) -> list[Any]:
    since = utcnow() - timedelta(seconds=limit.window_s)
    where = [LoginAttempt.action == limit.action, LoginAttempt.created_at >= since, *conditions]
    if limit.failures_only:
        where.append(LoginAttempt.succeeded == False)  # noqa: E712
    return where


def _account(limit: Limit, email: str, address: str) -> list[Any]:
    return _counted(limit, LoginAttempt.email == email,
                    *([LoginAttempt.address == address] if limit.account_per_address else []))


def account_count(db: Session, limit: Limit, email: str, address: str) -> int:
    """The attempts that count against this account (from this address, for sign-in) in the window."""
    return int(db.exec(select(func.count()).where(*_account(limit, email, address))).one())


def _refuse_when_full(db: Session, where: list[Any], allowed: int, refusal: str, window_s: int) -> None:
    count = int(db.exec(select(func.count()).where(*where)).one())
    if count < allowed:
        return
    # Allowed again once enough of the counted attempts have left the window: the (count - allowed + 1)-th oldest.
    freed_by = db.exec(select(LoginAttempt.created_at).where(*where).order_by(col(LoginAttempt.created_at))
                       .offset(count - allowed)).first()
    wait_s = window_s
    if freed_by is not None:
        freed_at = freed_by if freed_by.tzinfo else freed_by.replace(tzinfo=UTC)
        wait_s = max(1, math.ceil((freed_at + timedelta(seconds=window_s) - utcnow()).total_seconds()))
    raise TooManyAttempts(Message(refusal, n=max(1, math.ceil(wait_s / 60))), retry_after_s=wait_s)


def check(db: Session, limit: Limit, *, email: str, address: str) -> None:
    """Raise TooManyAttempts (with the seconds to wait) when this account or this address has used up its
    attempts in the window."""
    _refuse_when_full(db, _account(limit, email, address), limit.per_account, limit.account_refusal, limit.window_s)
    if address:
        _refuse_when_full(db, _counted(limit, LoginAttempt.address == address), limit.per_address,
                          limit.address_refusal, limit.window_s)


def record(db: Session, limit: Limit, *, email: str, address: str, succeeded: bool = False) -> None:
    db.add(LoginAttempt(action=limit.action, email=email[:254], address=address[:64], succeeded=succeeded))
    db.flush()


def admit(db: Session, limit: Limit, *, email: str, address: str) -> None:
    """Check, then count this request (the mail calls: every request counts, whatever its outcome)."""
    check(db, limit, email=email, address=address)
    record(db, limit, email=email, address=address)
