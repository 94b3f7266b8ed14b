"""Funds: an advertiser's balance is the sum of its append-only ledger entries."""

from __future__ import annotations

from sqlmodel import Session, func, select

from app.auth.policy import Actor, require, require_user_in_scope
from app.models.ledger import LedgerEntry
from app.models.user import User


def balance_micros(db: Session, *, actor: Actor, advertiser_id: int) -> int:
    require(actor, "funds", "view")
    require_user_in_scope(actor, db.get(User, advertiser_id))
    total = db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0)).where(LedgerEntry.advertiser_id == advertiser_id)).one()
    return int(total)
