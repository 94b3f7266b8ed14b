"""Funds: an advertiser's balance is the sum of its append-only ledger entries."""

from __future__ import annotations

from decimal import Decimal

from sqlmodel import Session, col, func, select

from app.auth.policy import Actor, require, require_user_in_scope
from app.auth.roles import Role
from app.errors import NotFound
from app.models.ledger import MICROS_PER_DOLLAR, LedgerEntry
from app.models.user import User

CENT = Decimal("0.01")


def dollars(micros: int) -> str:
    """Micro-dollars as the API shows money: dollars with two decimals as text ("5000.00", "-12.35"), never a
    float (0.1 + 0.2 is not 0.3, and a client cannot tell 12.3 from 12.30)."""
    return str((Decimal(micros) / MICROS_PER_DOLLAR).quantize(CENT))


def balance_micros(db: Session, *, actor: Actor, advertiser_id: int) -> int:
    require(actor, "funds", "view")
    require_user_in_scope(actor, db.get(User, advertiser_id))
    total = db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0)).where(LedgerEntry.advertiser_id == advertiser_id)).one()
    return int(total)


def payment_history(db: Session, *, actor: Actor, advertiser_id: int) -> list[dict[str, object]]:
    """An advertiser's ledger, newest first, with the balance after each entry (payment-list pages); amount and
    balance as dollar text ("-12.35")."""
    require(actor, "funds", "view")
    advertiser = require_user_in_scope(actor, db.get(User, advertiser_id))
    if advertiser.role != Role.ADVERTISER:
        raise NotFound("User not found.")
    rows = list(db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == advertiser_id)
                        .order_by(col(LedgerEntry.id))))
    people = {u.id: u.display_name for u in db.exec(select(User).where(
        col(User.id).in_({r.created_by for r in rows if r.created_by})))}
    running, history = 0, []
    for row in rows:
        running += row.amount_micros
        history.append({"id": row.id, "date": row.created_at.isoformat(), "kind": row.kind, "note": row.note,
                        "amount": dollars(row.amount_micros), "balance": dollars(running),
                        "by": people.get(row.created_by, "") if row.created_by else ""})
    return history[::-1]


def advertiser_balance(db: Session, *, actor: Actor, advertiser_id: int) -> dict[str, object]:
    """An advertiser's balance (getAdvertiserBalance): {advertiser_id, balance (dollars as text, "5000.00"),
    balance_micros}. Another tenant's advertiser, or an account that is no advertiser, answers not found."""
    require(actor, "funds", "view")
    advertiser = require_user_in_scope(actor, db.get(User, advertiser_id))
    if advertiser.role != Role.ADVERTISER:
        raise NotFound("User not found.")
    micros = balance_micros(db, actor=actor, advertiser_id=advertiser_id)
    return {"advertiser_id": advertiser_id, "balance": dollars(micros), "balance_micros": micros}
