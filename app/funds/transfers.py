"""Moving money between two advertisers of one agency (/agency/funds/transfer, POST /api/funds/transfers).

A transfer is a pair of "transfer" ledger entries in one transaction: minus the amount on the source, plus it on
the destination, each note naming the other side by its shown name ("Transfer to Acme Outdoor"), both audited.

Never more than the source's balance, even for two transfers at once: the balance is read and the entries written
while the source is locked, so the second transfer reads the first one's entries. PostgreSQL: both accounts' rows
are locked FOR UPDATE, in id order (two transfers between the same pair, either way, never deadlock). SQLite: the
savepoint opens the transaction with BEGIN IMMEDIATE (app/kernel/db.py), the database's one write lock, before the
balance is read. A source left at $0.00 has its active campaigns paused by the one rule (activation.pause_when_empty).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, select

from app.access.models import User, shown_name
from app.access.policy import Actor, require
from app.funds.activation import pause_when_empty
from app.funds.ledger import balances_micros
from app.funds.schemas import FundsTransferred
from app.funds.service import CHOOSE_ADVERTISER, advertiser_in_scope, append_entry
from app.history import audit
from app.kernel import money
from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message
from app.kernel.money import dollars
from app.kernel.validation import too_long

NOTE_MAX_LENGTH = 100  # with "Transfer from <a company of 120>: " it fits the ledger's 255
SAME_ADVERTISER = "Choose another advertiser to move the money to."
OTHER_AGENCY = "Money moves only between advertisers of one agency."
NOTHING_TO_MOVE = "Enter an amount above zero."
OVER_BALANCE = "At most {available} can be moved: the balance of {name}."
TO_NOTE, FROM_NOTE = "Transfer to {name}", "Transfer from {name}"


def _label(user: User) -> str:
    return shown_name(lambda name: getattr(user, name))


def _note(template: str, other: User, note: str) -> str:
    text = template.format(name=_label(other))
    return f"{text}: {note}" if note else text


def _lock(db: Session, ids: list[int]) -> None:
    """Hold both accounts until the transaction ends (see the module's docstring): PostgreSQL's row locks; SQLite
    already holds its write lock since the savepoint began."""
    if db.get_bind().dialect.name == "postgresql":
        db.exec(select(User.id).where(col(User.id).in_(ids)).order_by(col(User.id)).with_for_update()).all()


def transfer_funds(db: Session, *, actor: Actor, from_advertiser_id: Any, to_advertiser_id: Any, amount: Any,
                   note: str = "") -> FundsTransferred:
    """Move `amount` (dollar text) from one advertiser's balance to another's: both in the actor's row scope (an
    agency: its own advertisers; staff: any two) and of one agency. Refused naming the field (422) for an advertiser
    out of scope or of another agency, the same advertiser twice, an amount that is no amount, zero, or more than
    the source's balance, or an over-long note. Answers the amount and both balances after it."""
    require(actor, "funds", "transfer")
    errors: dict[str, str | Message] = {}
    source = advertiser_in_scope(db, actor, from_advertiser_id)
    target = advertiser_in_scope(db, actor, to_advertiser_id)
    if source is None:
        errors["from_advertiser_id"] = CHOOSE_ADVERTISER
    if target is None:
        errors["to_advertiser_id"] = CHOOSE_ADVERTISER
    elif source is not None and target.id == source.id:
        errors["to_advertiser_id"] = SAME_ADVERTISER
    elif source is not None and (source.agency_id is None or target.agency_id != source.agency_id):
        errors["to_advertiser_id"] = OTHER_AGENCY
    value, problem = money.check(amount, field="transfer")
    if problem:
        errors["amount"] = problem
    elif value == 0:
        errors["amount"] = NOTHING_TO_MOVE
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        errors["note"] = too_long(NOTE_MAX_LENGTH)
    if errors:
        raise Invalid(errors)
    assert source is not None and target is not None and source.id is not None and target.id is not None
    assert value is not None
    micros = money.to_micros(value)
    with db.begin_nested():  # SQLite: BEGIN IMMEDIATE here, before the balance is read
        _lock(db, [source.id, target.id])
        available = balances_micros(db, [source.id])[source.id]
        if micros > available:
            raise Invalid({"amount": Message(OVER_BALANCE, available=money.shown(Decimal(dollars(max(available, 0)))),
                                                      name=_label(source))})
        for advertiser, other, signed, template in ((source, target, -micros, TO_NOTE),
                                                    (target, source, micros, FROM_NOTE)):
            entry = append_entry(db, advertiser_id=advertiser.id, amount_micros=signed, kind="transfer",  # type: ignore[arg-type]
                                 note=_note(template, other, note), reference=None, created_by=actor.id)
            audit.record(db, actor=actor, entity="funds", entity_id=advertiser.id, action="transfer",
                         after={"entry": entry, "kind": "transfer", "amount": dollars(signed),
                                "other_advertiser": other.id, "note": _note(template, other, note)})
        balances = pause_when_empty(db, [source.id, target.id])
    return FundsTransferred(from_advertiser_id=source.id, to_advertiser_id=target.id, amount=dollars(micros),
                            amount_micros=micros, from_balance=dollars(balances[source.id]),
                            from_balance_micros=balances[source.id], to_balance=dollars(balances[target.id]),
                            to_balance_micros=balances[target.id])
