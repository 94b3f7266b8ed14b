"""Server-side sessions and their impersonation stack (entering and leaving accounts: app/accounts/impersonation.py).

A browser login makes a session with a one-time ticket; the browser swaps the ticket for the
HttpOnly cookie over HTTP (the websocket cannot set cookies). Every websocket event and every API
call resolves its token again, so revocation and expiry take effect at once.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session, col, select

from app.access.models import AuthSession, User, UserStatus
from app.access.policy import Actor, can_impersonate
from app.kernel.config import get_settings
from app.kernel.errors import NotAuthenticated
from app.kernel.model_base import table_of, utcnow

# The HttpOnly cookie a browser keeps its session token in (the API reads it, pages' websocket checks it).
SESSION_COOKIE = "dsp_session"
TICKET_LIFETIME = timedelta(seconds=60)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _lifetime() -> timedelta:
    return timedelta(milliseconds=get_settings().session_lifetime_ms)


@dataclass(frozen=True)
class NewSession:
    session: AuthSession
    secret: str  # the browser's one-time ticket, stored only as a digest (unused for api sessions)


def start(db: Session, *, user: User, kind: str, address: str = "", user_agent: str = "") -> NewSession:
    assert user.id is not None
    now = utcnow()
    secret = secrets.token_urlsafe(32)
    row = AuthSession(
        id=secrets.token_hex(16),
        kind=kind,
        user_id=user.id,
        stack=[user.id],
        issued_at=now,
        expires_at=now + _lifetime(),
        address=address[:64],
        user_agent=user_agent[:255],
    )
    if kind == "browser":
        row.ticket_hash = token_digest(secret)
        row.ticket_expires_at = now + TICKET_LIFETIME
    # API sessions are named by the signed JWT's `sid` claim; they hold no secret of their own.
    db.add(row)
    return NewSession(row, secret)


def redeem_ticket(db: Session, *, ticket: str) -> tuple[AuthSession, str]:
    """Swap a login ticket for the cookie token. A ticket works once, within a minute."""
    row = db.exec(select(AuthSession).where(AuthSession.ticket_hash == token_digest(ticket))).first()
    now = utcnow()
    if row is None or row.revoked_at or row.ticket_expires_at is None or row.ticket_expires_at < now:
        raise NotAuthenticated("This sign-in link has expired. Please log in again.")
    token = secrets.token_urlsafe(32)
    row.token_hash = token_digest(token)
    row.ticket_hash = None
    row.ticket_expires_at = None
    db.add(row)
    return row, token


def _live(db: Session, row: AuthSession | None) -> AuthSession | None:
    if row is None or row.revoked_at is not None or row.expires_at <= utcnow():
        return None
    return row


def find(db: Session, *, token: str | None) -> AuthSession | None:
    if not token:
        return None
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == token_digest(token))).first()
    return _live(db, row)


def why_not_live(db: Session, *, token: str) -> str:
    """Why a session token does not sign anyone in (for the log; never shown to users)."""
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == token_digest(token))).first()
    if row is None:
        return "no such session"
    if row.revoked_at is not None:
        return f"session {row.id} revoked at {row.revoked_at.isoformat()}"
    if row.expires_at <= utcnow():
        return f"session {row.id} expired at {row.expires_at.isoformat()}"
    return f"session {row.id} is live but its user cannot act (disabled or gone)"


def find_by_id(db: Session, *, session_id: str | None) -> AuthSession | None:
    return _live(db, db.get(AuthSession, session_id)) if session_id else None


def actor_for(db: Session, row: AuthSession | None) -> Actor | None:
    """The acting user of a live session, or None when any user in its chain can no longer act."""
    if row is None or not row.stack:
        return None
    found = [db.get(User, user_id) for user_id in row.stack]
    users = [u for u in found if u is not None and u.status == UserStatus.ACTIVE]
    if len(users) < len(found):
        return None
    # Each step of the chain must still be allowed (an advertiser moved to another agency, say).
    for depth in range(1, len(users)):
        above = Actor(user=users[depth - 1], stack=tuple(row.stack[:depth]))
        if not can_impersonate(above, users[depth]):
            return None
    acting = users[-1]
    assert acting is not None
    return Actor(user=acting, stack=tuple(row.stack), session_id=row.id)


def resolve(db: Session, *, token: str | None) -> Actor | None:
    return actor_for(db, find(db, token=token))


# What decides whether a session may still act, in one narrow Core SELECT: the session joined with the user who signed
# in. Built once; SQLAlchemy caches its compiled form. A page's websocket asks on every event (app/web/middleware.py),
# and loading both rows through the ORM (find + actor_for) was most of the ~3 ms a click the check cost on a cold CPU
# (bench/README.md, client_events.py).
_SESSIONS, _USERS = table_of(AuthSession), table_of(User)
_LIVE_SESSION = (
    sa.select(_SESSIONS.c.user_id, _SESSIONS.c.stack, _SESSIONS.c.expires_at, _SESSIONS.c.revoked_at, _USERS.c.status,
              _USERS.c.role)
    .join_from(_SESSIONS, _USERS, _SESSIONS.c.user_id == _USERS.c.id)
    .where(_SESSIONS.c.token_hash == sa.bindparam("digest"))
)


class LiveSession(NamedTuple):
    acting_id: int
    # Who acts, through whom and in which role: a page drawn for one grant must not act under another (a move that
    # ended its impersonation, a role change). The websocket guard ends a page whose grant changed.
    grant: tuple[tuple[int, ...], str]
    expires_at: datetime


def live_until(connection: Connection, *, token: str) -> LiveSession | None:
    """The acting user, the session's grant and its expiry while `token`'s session lets its user act, else None: the
    answer of resolve(), from one query when the session impersonates no one (the ORM path checks an
    impersonation's chain: every user in it and each step, as actor_for does)."""
    found = connection.execute(_LIVE_SESSION, {"digest": token_digest(token)}).first()
    if (found is None or found.revoked_at is not None or found.expires_at <= utcnow()
            or found.status != UserStatus.ACTIVE):
        return None
    expires_at: datetime = found.expires_at
    if found.stack == [found.user_id]:
        return LiveSession(found.user_id, ((found.user_id,), found.role), expires_at)
    with Session(bind=connection) as db:
        actor = resolve(db, token=token)
    return LiveSession(actor.id, (actor.stack, actor.role.value), expires_at) if actor is not None else None


def take_notice(db: Session, *, session_id: str, notice: str) -> bool:
    """Clear the session's notice if it is still `notice`; whether this call cleared it. Atomic, so of the tabs a
    move sent back at once, one shows it."""
    cleared = db.exec(sa.update(AuthSession).where(col(AuthSession.id) == session_id, col(AuthSession.notice) == notice)
                      .values(notice=""))
    return bool(notice) and cleared.rowcount == 1


def refresh(db: Session, *, token: str | None) -> AuthSession:
    row = find(db, token=token)
    if row is None or actor_for(db, row) is None:
        raise NotAuthenticated("Your session has ended. Please log in again.")
    return refresh_row(db, row)


def refresh_row(db: Session, row: AuthSession) -> AuthSession:
    """Extend a live session for one more full lifetime from now."""
    now = utcnow()
    row.issued_at = now
    row.expires_at = now + _lifetime()
    db.add(row)
    return row


def revoke(db: Session, *, token: str | None = None, session_id: str | None = None) -> None:
    row = find(db, token=token) if token else find_by_id(db, session_id=session_id)
    if row is not None:
        row.revoked_at = utcnow()
        db.add(row)


def revoke_all_for_user(db: Session, *, user_id: int, except_session: str | None = None) -> None:
    for row in db.exec(select(AuthSession).where(AuthSession.user_id == user_id, AuthSession.revoked_at == None)):  # noqa: E711
        if row.id != except_session:
            row.revoked_at = utcnow()
            db.add(row)
