"""The funds ledger: append-only; an advertiser's balance is the sum of its entries (micro-dollars)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column
from sqlmodel import Field, SQLModel

from app.models.base import created_at_field

MICROS_PER_DOLLAR = 1_000_000


class LedgerEntry(SQLModel, table=True):
    __tablename__ = "ledger_entries"

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    amount_micros: int = Field(sa_column=Column(BigInteger, nullable=False))
    kind: str = Field(max_length=16)  # deposit | spend | refund | adjustment
    note: str = Field(default="", max_length=255)
    created_by: int | None = Field(default=None, foreign_key="users.id")
    created_at: datetime = created_at_field()
