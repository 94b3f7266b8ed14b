"""The funds ledger: append-only; an advertiser's balance is the sum of its entries (micro-dollars)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field

# deposit: money in (card or bank); spend: media bought; margin: the agency's margin on that spend;
# refund: money given back to the account; adjustment: a correction either way; transfer: money an agency moved
# between two of its advertisers (a pair of entries, each note naming the other side: app/funds/transfers.py).
LEDGER_KINDS = ("deposit", "spend", "margin", "refund", "adjustment", "transfer")


class LedgerEntry(SQLModel, table=True):
    __tablename__ = "ledger_entries"

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    amount_micros: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: str = Field(max_length=16)  # one of LEDGER_KINDS
    note: str = Field(default="", max_length=255)
    created_by: int | None = Field(default=None, foreign_key="users.id")
    # The campaign a delivery charge (spend, margin) paid for; NULL for money in and out, and for charges whose
    # campaign is unknown (booked before campaigns were recorded, or a statistics row without one).
    campaign_id: int | None = Field(default=None, foreign_key="campaigns.id")
    created_at: datetime = created_at_field()
    # Idempotency key of an entry that arrives from outside (a Stripe checkout session id, a statistics batch
    # and advertiser): unique, so a retried webhook or batch finds its entry already there and adds nothing.
    # NULL for entries a person types in (any number of NULLs may coexist in a unique index).
    reference: str | None = Field(default=None, max_length=191, unique=True, index=True)


class ChargeCheck(SQLModel, table=True):
    """How far the reconciler of lost charges (app/statistics/charge_reconciler.py) has read the statistics store:
    every batch it received before `checked_until` (the store's clock) has its ledger charge. One row."""

    __tablename__ = "charge_checks"

    key: str = Field(primary_key=True, max_length=40)  # "statistics"
    checked_until: datetime = Field(nullable=False)
