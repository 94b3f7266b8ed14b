"""Accounts as a signed-in user may list them (row scope applied): the dashboards' account tables."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, func, select

from app.auth.policy import Actor, can, can_impersonate, can_see_user, require
from app.auth.roles import Role
from app.models.ledger import MICROS_PER_DOLLAR, LedgerEntry
from app.models.user import User, UserStatus
from app.services.users import can_change_status


def accounts_overview(db: Session, *, actor: Actor) -> list[dict[str, Any]]:
    """Users the actor may see (an agency: its advertisers), with balances for advertisers."""
    require(actor, "user", "view")
    statement = select(User).order_by(col(User.id))
    if actor.role == Role.AGENCY:
        statement = statement.where(User.agency_id == actor.id, User.role == Role.ADVERTISER)
    users = [u for u in db.exec(statement) if can_see_user(actor, u) and u.id != actor.id]
    balances = dict(
        db.exec(select(LedgerEntry.advertiser_id, func.sum(LedgerEntry.amount_micros))  # type: ignore[call-overload]
                .where(col(LedgerEntry.advertiser_id).in_([u.id for u in users]))
                .group_by(LedgerEntry.advertiser_id)).all()
    )
    may_update = can(actor, "user", "update")
    agencies = {u.id: u.company_name or u.email for u in users if u.role == Role.AGENCY}
    return [
        {
            "id": u.id, "name": u.display_name, "email": u.email, "company": u.company_name, "role": u.role,
            "agency": agencies.get(u.agency_id, "") if u.agency_id else "", "status": u.status,
            "balance": (int(balances.get(u.id, 0)) / MICROS_PER_DOLLAR) if u.role == Role.ADVERTISER else None,
            "created": u.created_at.isoformat(),
            "can_enter": u.status == UserStatus.ACTIVE and can_impersonate(actor, u),
            "can_disable": may_update and u.status == UserStatus.ACTIVE and can_change_status(actor, u),
            "can_enable": may_update and u.status == UserStatus.DISABLED and can_change_status(actor, u),
        }
        for u in users
    ]


def recent_transactions(db: Session, *, actor: Actor, limit: int = 50) -> list[dict[str, Any]]:
    """The acting advertiser's latest ledger entries."""
    require(actor, "funds", "view")
    rows = db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == actor.id)
                   .order_by(col(LedgerEntry.id).desc()).limit(limit))
    return [{"id": r.id, "date": r.created_at.isoformat(), "kind": r.kind, "note": r.note,
             "amount": r.amount_micros / MICROS_PER_DOLLAR} for r in rows]
