"""Alerts: raise what a check found and is not open yet, clear what is open and no longer found, read them in
the actor's scope, and each user's subscription (kinds by e-mail, low-balance threshold).

Raising notifies, in the notifications dropdown, the alert's owner and the agency over an advertiser (an
admin-only kind: every admin), and e-mails those of them subscribed to its kind. Staff see every advertiser's
alerts in the list (their row scope) without a notification for each: with thousands of advertisers that would
bury the dropdown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, false, or_, true
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select, update

from app.access.models import User, UserStatus
from app.access.permissions import allowed_roles
from app.access.policy import Actor, advertiser_rows, can, require
from app.access.roles import Role
from app.alerts.checks import Cause
from app.alerts.kinds import (
    DEFAULT_LOW_BALANCE_DAYS,
    KINDS,
    MAX_LOW_BALANCE_DAYS,
    AlertKind,
    fix_link,
    subscribable,
)
from app.alerts.models import Alert, AlertSubscription
from app.alerts.schemas import AlertRead, SubscriptionRead
from app.kernel.errors import Invalid
from app.kernel.model_base import utcnow
from app.kernel.paging import DEFAULT_LIMIT, Page, after_condition, check_limit, decode_cursor, next_cursor
from app.messaging import mail
from app.messaging.notifications import notify

STAFF_ONLY = tuple(kind.value for kind, info in KINDS.items() if info.staff_only)


# --- raise and clear ----------------------------------------------------------------------------------------

def reconcile(db: Session, causes: Sequence[Cause], *, kinds: Iterable[AlertKind], owner_ids: Sequence[int] | None = None,
              now: datetime | None = None) -> tuple[list[Alert], int]:
    """Make the open alerts of `kinds` (of these owners; None: any owner) what `causes` say: raise each cause
    without an open alert, clear each open alert without a cause. Answers (raised, cleared count)."""
    now = now or utcnow()
    scope = col(Alert.kind).in_([str(k) for k in kinds]) & col(Alert.open_key).is_not(None)
    if owner_ids is not None:
        scope = scope & col(Alert.owner_id).in_(owner_ids)
    wanted = {cause.key: cause for cause in causes}
    open_keys = set(db.exec(select(Alert.open_key).where(scope)))
    gone = [key for key in open_keys if key not in wanted]
    if gone:
        db.exec(update(Alert).where(col(Alert.open_key).in_(gone)).values(open_key=None, cleared_at=now))
    raised = [alert for cause in wanted.values() if cause.key not in open_keys
              if (alert := _raise(db, cause, now)) is not None]
    return raised, len(gone)


def open_keys(db: Session, *, kinds: Iterable[AlertKind], owner_ids: Sequence[int]) -> dict[int, set[str]]:
    """The open alerts' keys of `kinds` for each of these owners (one read; an owner without any: no entry)."""
    rows = db.exec(select(Alert.owner_id, Alert.open_key).where(col(Alert.kind).in_([str(k) for k in kinds]),
                                                                col(Alert.owner_id).in_(owner_ids),
                                                                col(Alert.open_key).is_not(None)))
    found: dict[int, set[str]] = {}
    for owner_id, key in rows:
        if owner_id is not None and key is not None:
            found.setdefault(owner_id, set()).add(key)
    return found


def clear_unchecked(db: Session, *, kinds: Iterable[AlertKind], checked_owner_ids: Sequence[int],
                    now: datetime) -> None:
    """Clear the open alerts of `kinds` whose owner was not checked (an advertiser disabled or gone): no check
    will find their cause again."""
    db.exec(update(Alert).where(col(Alert.kind).in_([str(k) for k in kinds]), col(Alert.open_key).is_not(None),
                                col(Alert.owner_id).not_in(checked_owner_ids))
            .values(open_key=None, cleared_at=now))


def _raise(db: Session, cause: Cause, now: datetime) -> Alert | None:
    """Open one alert and tell its people; None when another check opened it first (the unique open_key)."""
    alert = Alert(kind=cause.kind, subject=cause.subject, open_key=cause.key, owner_id=cause.owner_id,
                  title=cause.title[:160], detail=cause.detail[:500], raised_at=now)
    try:
        with db.begin_nested():
            db.add(alert)
    except IntegrityError:
        return None
    people = recipients(db, cause)
    subscriptions = _subscriptions(db, [u.id for u in people if u.id is not None])
    for user in people:
        assert user.id is not None
        notify(db, user_id=user.id, title=alert.title, body=alert.detail,
               link=fix_link(cause.kind, cause.subject, Role(user.role)).link or "")
        if cause.kind in subscriptions.get(user.id, ()):
            mail.send_mail(db, to=user.email, subject=f"Alert: {alert.title}",
                           body=f"{alert.detail}\n\n{KINDS[cause.kind].label}: you receive these by e-mail because "
                                "of your alert settings (your profile, Alerts).")
    return alert


def recipients(db: Session, cause: Cause) -> list[User]:
    """Who is told: the owner and the agency over an advertiser owner; for an owner-less (admin-only) kind, the
    roles that may see it. Only active accounts."""
    if cause.owner_id is None:
        roles = [str(r) for r in allowed_roles("dsp", "view")]
        return list(db.exec(select(User).where(col(User.role).in_(roles), User.status == UserStatus.ACTIVE)))
    owner = db.get(User, cause.owner_id)
    people = [owner] if owner else []
    if owner is not None and owner.role == Role.ADVERTISER and owner.agency_id is not None:
        agency = db.get(User, owner.agency_id)
        people += [agency] if agency else []
    return [p for p in people if p.status == UserStatus.ACTIVE]


def _subscriptions(db: Session, user_ids: Sequence[int]) -> dict[int, list[str]]:
    rows = db.exec(select(AlertSubscription).where(col(AlertSubscription.user_id).in_(user_ids)))
    return {row.user_id: row.email_kinds for row in rows}


def low_balance_days(db: Session, user_ids: Sequence[int]) -> dict[int, int]:
    """Each user's low-balance threshold in days (the default where they set none)."""
    rows = db.exec(select(AlertSubscription.user_id, AlertSubscription.low_balance_days)
                   .where(col(AlertSubscription.user_id).in_(user_ids)))
    chosen = dict(rows.all())
    return {user_id: chosen.get(user_id, DEFAULT_LOW_BALANCE_DAYS) for user_id in user_ids}


# --- reading ------------------------------------------------------------------------------------------------

def _visible(actor: Actor) -> Any:
    """SQL: the alerts the actor may see. Admin-only kinds to those who may see the DSP connections; the rest by
    the owner's row scope (admin: all; co-admin: all but admin accounts'; agency: its own and its advertisers';
    advertiser: its own)."""
    kind = col(Alert.kind)
    owner = col(Alert.owner_id)
    if actor.role == Role.ADMIN:
        owned: Any = true()
    elif actor.role == Role.CO_ADMIN:
        owned = (owner == actor.id) | owner.in_(select(User.id).where(User.role != Role.ADMIN))
    else:
        owned = or_(owner == actor.id, advertiser_rows(actor, owner))
    staff_kinds = kind.in_(STAFF_ONLY)
    return or_(and_(staff_kinds, true() if can(actor, "dsp", "view") else false()), and_(~staff_kinds, owned))


def list_alerts(db: Session, *, actor: Actor, state: str = "all", limit: int = DEFAULT_LIMIT,
                cursor: str | None = None) -> Page[AlertRead]:
    """The alerts the actor may see, open ones first, then newest first (by id), a page at a time."""
    require(actor, "alert", "view")
    check_limit(limit)
    if state not in ("all", "open"):
        raise Invalid({"state": "Choose all or open."})
    scope = {"list": "alerts", "state": state}
    after = decode_cursor(cursor, scope)
    is_open = case((col(Alert.open_key).is_not(None), 1), else_=0)
    where = _visible(actor)
    if state == "open":
        where = where & col(Alert.open_key).is_not(None)
    total = db.exec(select(func.count()).select_from(Alert).where(where)).one()
    statement = select(Alert).where(where)
    if after is not None:
        statement = statement.where(after_condition(is_open, col(Alert.id), after, descending=True))
    rows = list(db.exec(statement.order_by(is_open.desc(), col(Alert.id).desc()).limit(limit + 1)))
    return Page[AlertRead](items=[AlertRead.of(row, actor.role) for row in rows[:limit]], total=int(total), limit=limit,
                           next_cursor=next_cursor(rows, limit, scope,
                                                   lambda r: (1 if r.open_key else 0, r.id)))


# --- subscriptions ------------------------------------------------------------------------------------------

def get_subscription(db: Session, *, actor: Actor) -> SubscriptionRead:
    require(actor, "alert", "subscribe")
    row = db.get(AlertSubscription, actor.id)
    return SubscriptionRead.of(row, actor)


def update_subscription(db: Session, *, actor: Actor, email_kinds: Sequence[str] | None = None,
                        low_balance_days: int | None = None) -> SubscriptionRead:
    """Change what was given (a field left out keeps its value). Kinds the actor never sees are refused."""
    require(actor, "alert", "subscribe")
    errors: dict[str, str] = {}
    allowed = subscribable(actor)
    if email_kinds is not None and (bad := [k for k in email_kinds if k not in allowed]):
        errors["email_kinds"] = f"Not an alert kind you receive: {', '.join(bad)}. Choose from {', '.join(allowed)}."
    if low_balance_days is not None and not 1 <= low_balance_days <= MAX_LOW_BALANCE_DAYS:
        errors["low_balance_days"] = f"Give a whole number of days from 1 to {MAX_LOW_BALANCE_DAYS}."
    if errors:
        raise Invalid(errors)
    row = db.get(AlertSubscription, actor.id) or AlertSubscription(user_id=actor.id)
    if email_kinds is not None:
        row.email_kinds = sorted(set(email_kinds))
    if low_balance_days is not None:
        row.low_balance_days = low_balance_days
    db.add(row)
    db.flush()
    return SubscriptionRead.of(row, actor)
