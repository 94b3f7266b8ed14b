"""One limiter for the signed-out calls a stranger can repeat without limit: sign-in (a password guess, then the
second factor's code) and the
calls that e-mail a code (register, resend a code, forgot-password: each one a mail to someone's inbox).

Each attempt is a row of login_attempts (action, e-mail, client address, time); a call is refused while too
many rows fall in a sliding window, per account and per address. The row is reserved (inserted and counted under
a lock, and committed) before the password or code is checked, and released when the guess was right: requests
sent at the same moment never share a free place. What differs between the two actions is data
(the limits below), not code:
- sign-in counts failures only, and an account's failures per address: anyone who knows an e-mail address could
  otherwise keep its owner out; the owner's own network still signs in.
- sign-in (and its code) also has an account-wide ceiling over every address: past it the account is slowed,
  never locked (each further attempt waits longer: a guesser with many addresses gets a handful more guesses a
  window, not five per address), and a password reset, which proves the mailbox, ends it.
- a mail counts every request, for an e-mail address from any network: a request for an address that has no
  account counts the same as one that has, so a refusal never tells whether the account exists, and an inbox
  cannot be flooded by spreading the requests over many addresses.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session, col, func, select, text

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
    # The account-wide ceiling (sign-in and its code): past this many failures in the window from every address
    # together, each further attempt waits ceiling_delay_s after the last failure, doubling per failure; 0: none.
    account_ceiling: int = 0
    ceiling_delay_s: int = 0
    ceiling_refusal: str = ""  # {n}: seconds to wait


SIGN_IN_ACCOUNT = "Too many failed sign-ins for this account. Try again in {n} minutes."
SIGN_IN_ADDRESS = "Too many failed sign-ins from your network. Try again in {n} minutes."
SECOND_FACTOR_ACCOUNT = "Too many wrong codes for this account. Try again in {n} minutes."
SECOND_FACTOR_ADDRESS = "Too many wrong codes from your network. Try again in {n} minutes."
SIGN_IN_SLOWED = ("Sign-ins to this account are slowed after many failed attempts. Try again in {n} seconds, or "
                  "reset your password.")
SECOND_FACTOR_SLOWED = ("Codes for this account are slowed after many wrong attempts. Try again in {n} seconds.")
MAIL_ACCOUNT = "Too many codes were requested for this e-mail address. Try again in {n} minutes."
MAIL_ADDRESS = "Too many codes were requested from your network. Try again in {n} minutes."


def sign_in() -> Limit:
    s = get_settings()
    return Limit("sign_in", s.login_window_s, s.login_max_failures_per_account, s.login_max_failures_per_address,
                 failures_only=True, account_per_address=True, account_refusal=SIGN_IN_ACCOUNT,
                 address_refusal=SIGN_IN_ADDRESS, account_ceiling=s.login_account_ceiling,
                 ceiling_delay_s=s.login_ceiling_delay_s, ceiling_refusal=SIGN_IN_SLOWED)


def second_factor() -> Limit:
    """The code asked for after the password (app/accounts/second_factor.py): counted like the password, under its
    own action, so guessing codes neither uses up nor hides behind the password's count."""
    s = get_settings()
    return Limit("second_factor", s.login_window_s, s.login_max_failures_per_account,
                 s.login_max_failures_per_address, failures_only=True, account_per_address=True,
                 account_refusal=SECOND_FACTOR_ACCOUNT, address_refusal=SECOND_FACTOR_ADDRESS,
                 account_ceiling=s.login_account_ceiling, ceiling_delay_s=s.login_ceiling_delay_s,
                 ceiling_refusal=SECOND_FACTOR_SLOWED)


def mail() -> Limit:
    s = get_settings()
    return Limit("mail", s.mail_window_s, s.mail_max_per_account, s.mail_max_per_address,
                 failures_only=False, account_per_address=False, account_refusal=MAIL_ACCOUNT,
                 address_refusal=MAIL_ADDRESS)


def _counted(limit: Limit, *conditions: Any, since: datetime | None = None) -> list[Any]:
    window_start = utcnow() - timedelta(seconds=limit.window_s)
    where = [LoginAttempt.action == limit.action, LoginAttempt.created_at >= max(window_start, since or window_start),
             *conditions]
    if limit.failures_only:
        where.append(LoginAttempt.succeeded == False)  # noqa: E712
    return where


def _account(limit: Limit, email: str, address: str) -> list[Any]:
    return _counted(limit, LoginAttempt.email == email,
                    *([LoginAttempt.address == address] if limit.account_per_address else []))


def account_count(db: Session, limit: Limit, email: str, address: str) -> int:
    """The attempts that count against this account (from this address, for sign-in) in the window."""
    return int(db.exec(select(func.count()).where(*_account(limit, email, address))).one())


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite hands back naive UTC


def _refusal(template: str, wait_s: float, *, unit_s: int = 60) -> TooManyAttempts:
    wait = max(1, math.ceil(wait_s))
    return TooManyAttempts(Message(template, n=max(1, math.ceil(wait / unit_s))), retry_after_s=wait)


def _refuse_when_full(db: Session, where: list[Any], allowed: int, refusal: str, window_s: int) -> None:
    count = int(db.exec(select(func.count()).where(*where)).one())
    if count < allowed:
        return
    # Allowed again once enough of the counted attempts have left the window: the (count - allowed + 1)-th oldest.
    freed_by = db.exec(select(LoginAttempt.created_at).where(*where).order_by(col(LoginAttempt.created_at))
                       .offset(count - allowed)).first()
    wait_s: float = window_s
    if freed_by is not None:
        wait_s = (_aware(freed_by) + timedelta(seconds=window_s) - utcnow()).total_seconds()
    raise _refusal(refusal, wait_s)


def _last_success(db: Session, limit: Limit, email: str) -> datetime | None:
    last = db.exec(select(func.max(LoginAttempt.created_at)).where(
        LoginAttempt.action == limit.action, LoginAttempt.email == email, LoginAttempt.succeeded == True)).one()  # noqa: E712
    return _aware(last) if last is not None else None


def ceiling_wait_s(failures: int, ceiling: int, delay_s: int, window_s: int) -> int:
    """How long after the account's last failure the next attempt may come, once `failures` (from every address)
    have reached the ceiling: delay_s for the first past it, doubling with each further one, at most the window."""
    if not ceiling or failures < ceiling:
        return 0
    return int(min(window_s, delay_s * 2 ** min(failures - ceiling, 32)))


def _slow_when_over_ceiling(db: Session, limit: Limit, email: str, besides: list[Any]) -> None:
    """The account-wide ceiling: failures from every address together, since the owner last proved who they are
    (a sign-in, a password reset). Past it the account is slowed, never locked: one attempt at a time, each after
    a longer wait."""
    if not limit.account_ceiling:
        return
    where = _counted(limit, LoginAttempt.email == email, *besides, since=_last_success(db, limit, email))
    failures, last = db.exec(select(func.count(), func.max(LoginAttempt.created_at)).where(*where)).one()
    gap = ceiling_wait_s(int(failures), limit.account_ceiling, limit.ceiling_delay_s, limit.window_s)
    if gap and last is not None:
        wait_s = (_aware(last) + timedelta(seconds=gap) - utcnow()).total_seconds()
        if wait_s > 0:
            raise _refusal(limit.ceiling_refusal, wait_s, unit_s=1)


def _check(db: Session, limit: Limit, *, email: str, address: str, besides: list[Any]) -> None:
    _refuse_when_full(db, [*_account(limit, email, address), *besides], limit.per_account, limit.account_refusal,
                      limit.window_s)
    if address:
        _refuse_when_full(db, _counted(limit, LoginAttempt.address == address, *besides), limit.per_address,
                          limit.address_refusal, limit.window_s)
    _slow_when_over_ceiling(db, limit, email, besides)


def _lock_keys(db: Session, limit: Limit, email: str, address: str) -> None:
    """PostgreSQL: hold this account's and this address's advisory locks until the reservation commits, so two
    requests never count the same free places (each sees the other's committed row). Taken in one order, so two
    requests never wait on each other's second lock. SQLite needs none: the reservation's INSERT, made before the
    count, takes the database's one write lock, and the count then sees every attempt committed before it."""
    if db.get_bind().dialect.name != "postgresql":
        return
    names = [f"{limit.action}:email:{email}", *([f"{limit.action}:address:{address}"] if address else [])]
    keys = sorted({_lock_key(name) for name in names})
    for key in keys:
        db.exec(text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=key))  # type: ignore[call-overload]


def _lock_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def reserve(db: Session, limit: Limit, *, email: str, address: str) -> int:
    """Take one of the attempts this account and this address have left, before the guess is checked, or raise
    TooManyAttempts (with the seconds to wait). The place is taken and counted atomically and committed at once
    (the caller's unit of work with it): a burst sent at the same moment gets exactly the limit checked, where a
    count read before the check and written after it let every request of the burst through on the same free
    places. The reservation counts as a failure until release() says the guess was right. Returns its id."""
    _lock_keys(db, limit, email, address)
    attempt = LoginAttempt(action=limit.action, email=email[:254], address=address[:64], succeeded=False)
    db.add(attempt)
    db.flush()
    try:
        _check(db, limit, email=email[:254], address=address[:64], besides=[LoginAttempt.id != attempt.id])
    except TooManyAttempts:
        db.delete(attempt)  # a refused request is not an attempt: it checked nothing
        db.commit()
        raise
    db.commit()
    assert attempt.id is not None
    return attempt.id


def release(db: Session, attempt_id: int) -> None:
    """The reserved guess was right: it no longer counts as a failure (in the caller's unit of work)."""
    attempt = db.get(LoginAttempt, attempt_id)
    if attempt is not None:
        attempt.succeeded = True
        db.add(attempt)
        db.flush()


def owner_proven(db: Session, limit: Limit, *, email: str) -> None:
    """The account's owner proved who they are another way (a password reset by the mailed code): the account-wide
    ceiling counts only failures after this, as after a sign-in."""
    db.add(LoginAttempt(action=limit.action, email=email[:254], address="", succeeded=True))
    db.flush()


def admit(db: Session, limit: Limit, *, email: str, address: str) -> None:
    """Count this request, or refuse it (the mail calls: every request counts, whatever its outcome)."""
    reserve(db, limit, email=email, address=address)
