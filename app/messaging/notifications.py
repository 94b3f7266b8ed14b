"""In-app notifications of the acting user."""

from __future__ import annotations

from sqlmodel import Session, col, func, select

from app.access.policy import Actor, require
from app.kernel.model_base import utcnow
from app.messaging.models import Notification


def notify(db: Session, *, user_id: int, title: str, body: str = "", link: str = "") -> Notification:
    row = Notification(user_id=user_id, title=title[:160], body=body[:1000], link=link[:255])
    db.add(row)
    return row


def recent(db: Session, *, actor: Actor, limit: int = 8) -> list[Notification]:
    require(actor, "notification", "view")
    statement = (
        select(Notification).where(Notification.user_id == actor.id).order_by(col(Notification.id).desc()).limit(limit)
    )
    return list(db.exec(statement))


def unread_count(db: Session, *, actor: Actor) -> int:
    require(actor, "notification", "view")
    statement = select(func.count()).where(Notification.user_id == actor.id, Notification.read_at == None)  # noqa: E711
    return int(db.exec(statement).one())


def mark_read(db: Session, *, actor: Actor, notification_id: int | None = None) -> int:
    """Mark one notification (or all, when no id is given) read; returns how many changed."""
    require(actor, "notification", "update")
    statement = select(Notification).where(Notification.user_id == actor.id, Notification.read_at == None)  # noqa: E711
    if notification_id is not None:
        statement = statement.where(Notification.id == notification_id)
    rows = list(db.exec(statement))
    for row in rows:
        row.read_at = utcnow()
        db.add(row)
    return len(rows)
