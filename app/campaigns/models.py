"""Campaigns: what an advertiser buys, when, at what price, and for whom (targeting).

Fields follow what DSP consoles (DV360, Xandr Invest, The Trade Desk) put on a line item: a flight with
its time zone, total and daily budgets with pacing, a bid strategy with a bid and a bid range, a frequency
cap and an optimisation goal. Money is integer micro-dollars. Targeting is one validated JSON document
(app/campaigns/targeting.py), so adding a dimension needs no migration.

Exchange approvals: a campaign runs on an exchange only once that campaign x exchange is approved by staff.

A request is made for each exchange a campaign asks for (its targeting's exchanges; without any, every exchange
its advertiser may buy on) when the campaign is saved; staff approve or reject it with a reason."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field, utcnow, version_field
from app.kernel.natural_order import keep_sort_key, name_column, sort_key_field


class CampaignStatus(StrEnum):
    DRAFT = "draft"
    ACTIVE = "active"
    PAUSED = "paused"
    COMPLETED = "completed"
    ARCHIVED = "archived"


S = CampaignStatus
# Every status change a campaign may make, declared once (services/campaigns.set_status enforces it).
# Archived is final: delivery history stays attached to an archived campaign, and a new flight is a clone.
STATUS_TRANSITIONS: dict[CampaignStatus, frozenset[CampaignStatus]] = {
    S.DRAFT: frozenset({S.ACTIVE, S.ARCHIVED}),
    S.ACTIVE: frozenset({S.PAUSED, S.COMPLETED, S.ARCHIVED}),
    S.PAUSED: frozenset({S.ACTIVE, S.COMPLETED, S.ARCHIVED}),
    S.COMPLETED: frozenset({S.ARCHIVED}),
    S.ARCHIVED: frozenset(),
}
# A campaign whose flight is over shows as "ended" (list, view, filters, API) while its stored status is one of
# these, without anyone changing it; it cannot become active until its end date is moved on.
ENDED = "ended"
ENDS_SHOWN = frozenset({S.DRAFT, S.ACTIVE, S.PAUSED})


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite gives naive UTC back, PostgreSQL aware)."""
    return moment.replace(tzinfo=UTC) if moment.utcoffset() is None else moment.astimezone(UTC)


def flight_ended(ends_at: datetime | None, now: datetime | None = None) -> bool:
    return ends_at is not None and as_utc(ends_at) <= (now or datetime.now(UTC))


def shown_status(status: str, ends_at: datetime | None, now: datetime | None = None) -> str:
    """The status a campaign shows: "ended" once its flight is over (see ENDS_SHOWN), else the stored one."""
    return ENDED if status in ENDS_SHOWN and flight_ended(ends_at, now) else str(status)


def next_statuses(status: str, ends_at: datetime | None, now: datetime | None = None) -> frozenset[CampaignStatus]:
    """STATUS_TRANSITIONS, less activation once the flight is over."""
    moves = STATUS_TRANSITIONS[CampaignStatus(status)]
    return moves - {S.ACTIVE} if flight_ended(ends_at, now) else moves


OBJECTIVES = ("awareness", "traffic", "conversions", "app_installs", "video_views")
PACING = ("even", "asap")
BID_STRATEGIES = ("cpm", "cpc")
FREQUENCY_PERIODS = ("hour", "day", "week")
GOAL_METRICS = ("none", "ctr", "cpa", "cpi", "vcr")
# Targeting keys whose values are ids from a reference list (/admin/metadata) -> that list's kind. A used
# value cannot be deleted: app/reference/metadata.py counts these.
TARGETING_REFERENCE_KEYS: dict[str, str] = {
    "exchanges": "exchange",
    "operating_systems": "operating_system",
    "os_versions": "os_version",
    "browsers": "browser",
    "manufacturers": "manufacturer",
    "carriers": "carrier",
}


# The campaign list's sortable columns (app/campaigns/service.py's _SORT_KEYS; `advertiser` sorts on the users'
# name_key): each has an index ending with the id, the keyset's tie-break, so a sorted page of the API's list is an
# index range whatever the sort (issue 26: <= 100 ms p95 at 10,000 campaigns).
SORTED_COLUMNS = ("name_key", "status", "objective", "advertiser_id", "starts_at", "ends_at", "total_budget_micros",
                  "daily_budget_micros", "bid_strategy", "bid_micros", "traffic_type", "updated_at")


_VERSION, _VERSIONED = version_field()


class Campaign(SQLModel, table=True):
    __tablename__ = "campaigns"
    __table_args__ = tuple(Index(f"ix_campaigns_{column}_id", column, "id") for column in SORTED_COLUMNS)
    __mapper_args__ = _VERSIONED

    id: int | None = Field(default=None, primary_key=True)
    advertiser_id: int = Field(foreign_key="users.id", index=True)
    name: str = Field(max_length=120, index=True)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: sort=name
    objective: str = Field(default="awareness", max_length=24)
    status: str = Field(default=CampaignStatus.DRAFT, max_length=16, index=True)
    starts_at: datetime
    ends_at: datetime | None = None  # open-ended flights run until paused or out of budget
    time_zone: str = Field(default="UTC", max_length=64)  # IANA name; the flight's days are its days
    total_budget_micros: int = Field(sa_column=Column(BigInteger, nullable=False))
    daily_budget_micros: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    pacing: str = Field(default="even", max_length=8)
    bid_strategy: str = Field(default="cpm", max_length=8)
    bid_micros: int = Field(sa_column=Column(BigInteger, nullable=False))
    bid_min_micros: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    bid_max_micros: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    frequency_cap: int | None = None  # impressions per user per `frequency_period`
    frequency_period: str | None = Field(default=None, max_length=8)
    traffic_type: str = Field(default="app", max_length=8)
    goal_metric: str = Field(default="none", max_length=8)
    goal_target: str = Field(default="", max_length=24)  # a decimal: CTR/VCR in %, CPA/CPI in dollars
    targeting: dict[str, Any] = json_field(dict)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, index=True)  # the list sorts by it (newest change first)
    version: int = _VERSION  # counts its saves; a save names the one it read (app/history/versions.py)


keep_sort_key(Campaign, "name_key", name_column)


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
