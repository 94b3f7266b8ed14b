"""Exchange approvals: a campaign runs on an exchange only once that campaign x exchange is approved by staff.

A request is made for each exchange a campaign asks for (its targeting's exchanges; without any, every exchange
its advertiser may buy on) when the campaign is saved; staff approve or reject it with a reason.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from app.models.base import created_at_field


class ApprovalStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class ExchangeApproval(SQLModel, table=True):
    __tablename__ = "exchange_approvals"
    __table_args__ = (UniqueConstraint("campaign_id", "exchange_id", name="uq_exchange_approvals_campaign_exchange"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id", index=True)
    exchange_id: int = Field(foreign_key="reference_values.id", index=True)
    status: str = Field(default=ApprovalStatus.PENDING, max_length=10, index=True)
    reason: str = Field(default="", max_length=255)  # why it was rejected (or a note on an approval)
    requested_at: datetime = created_at_field()
    decided_at: datetime | None = None
    decided_by: int | None = Field(default=None, foreign_key="users.id")
