"""Typed models of the API's main replies (the names of /docs' schemas are in each docstring).

Every model allows fields it does not name (`model_extra`): a server newer than this client may add fields, and an
old client must keep reading its replies. tests/test_python_client.py checks each named field against the live
OpenAPI document, so a field renamed on the server fails there instead of in an integrator's code. Money is
decimal dollars (Decimal, never float) or integer micro-dollars where the API says `_micros`; times are UTC."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class ApiModel(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Page(ApiModel, Generic[T]):
    """One page of a list (Page_*): ask for the next with `cursor=next_cursor`, which is None on the last page."""

    items: list[T]
    next_cursor: str | None
    total: int | None = None  # rows the filters match in all; None where the server does not count
    limit: int


class Campaign(ApiModel):
    """A campaign as lists show it (CampaignListRow)."""

    id: int
    name: str
    status: str
    shown_status: str  # "ended" once the flight is over while draft, active or paused, else the status
    objective: str
    advertiser_id: int
    advertiser: str
    starts_at: datetime | None  # with the offset of the campaign's time zone
    ends_at: datetime | None  # exclusive: the first instant it no longer runs
    starts_on: date | None = None  # the flight's first day in the campaign's time zone
    ends_on: date | None = None  # its last day there, inclusive
    total_budget: Decimal | None
    daily_budget: Decimal | None
    bid_strategy: str
    bid: Decimal | None
    traffic_type: str
    updated_at: datetime | None
    version: int | None = None  # counts its saves: send it back as If-Match (or a bulk call's `versions`)


class CampaignDetail(Campaign):
    """One campaign, all of it (CampaignRead): the list's fields, its bidding, goal and targeting."""

    time_zone: str
    pacing: str
    frequency_cap: int | None
    frequency_period: str | None
    goal_metric: str
    goal_target: str
    created_at: datetime
    bid_min: Decimal | None
    bid_max: Decimal | None
    targeting: dict[str, Any]
    next_statuses: list[str]


class Creative(ApiModel):
    """A creative as lists show it (CreativeRow)."""

    id: int
    name: str
    type: str
    status: str
    advertiser_id: int
    advertiser: str
    click_url: str
    width: int | None
    height: int | None
    duration_ms: int | None
    asset_url: str | None
    updated_at: datetime
    version: int | None = None  # counts its saves: send it back as If-Match (or a bulk call's `versions`)


class User(ApiModel):
    """An account as the users list shows it (AccountRow)."""

    id: int
    name: str
    email: str
    company: str
    role: str
    agency: str
    agency_id: int | None
    status: str
    balance: Decimal | None
    created: str


class ApiKey(ApiModel):
    """A new API key (ApiKeyCreated): `token` is the whole key, shown this once only."""

    id: int
    label: str
    key_id: str
    scope: str = "read_write"  # what it may call (a server older than scopes does not say: its keys could do all)
    token: str


class BatchRow(ApiModel):
    """One hour of delivery for a statistics batch: money in micro-dollars ($1.00 = 1_000_000)."""

    hour: datetime  # on the hour, with a time zone (UTC is safest)
    advertiser_id: int
    campaign_id: int
    creative_id: int = 0  # 0: not broken down by creative
    exchange: str
    os: str
    app: str
    country: str  # ISO 3166-1 alpha-2
    device_type: str  # phone, tablet, desktop, ctv, other
    impressions: int
    clicks: int
    spend_micros: int
    conversions: int = 0
    events: dict[str, int] = Field(default_factory=dict)  # custom event name -> count


class BatchStored(ApiModel):
    """What a statistics batch did (BatchStored): `duplicate` when this batch_id was stored before (nothing was
    written or charged again)."""

    batch_id: str
    rows: int
    duplicate: bool
    spend_micros_by_advertiser: dict[int, int]


class Report(ApiModel):
    """A saved report (ReportRead)."""

    id: int
    name: str
    report_type: str
    advertiser_id: int | None
    dimensions: list[str]
    metrics: list[str]
    period: str
    start_date: date | None
    end_date: date | None
    time_zone: str


class ReportRun(ApiModel):
    """A report's run (ReportRunRead): status pending, running, completed or failed."""

    id: int
    report_id: int
    status: str
    progress: int
    error: str | None
    row_count: int | None
    has_file: bool


# A statistics row: the dimensions and metrics asked for, by name (ids with their names beside them, dates as ISO
# text, money in dollars as text, `spend_micros` exact, ratios None when their denominator is 0).
Figures = dict[str, str | int | float | None]
