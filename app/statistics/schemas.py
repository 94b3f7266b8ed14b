"""What the statistics services answer at the API and to the pages: the conversion postback's receipt, a stored
batch's receipt, the dashboards and Insight360. Rows of statistics take the columns asked for, so they are
FigureRows (column name -> figure); money in them, and in Insight360's amounts, is a number for the pages and
dollar text to the cent in a JSON reply (app/statistics/money_replies.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, RootModel

from app.statistics.money_replies import DollarFigure, FigureRow

# A row sent for ingestion, as the service judges it (app/statistics/ingestion.py names each bad value): JSON
# scalars, a custom event's counts under `events`, and `hour` as a datetime when a row comes from Python (the
# simulator).
RowScalar = str | int | float | bool | None
RowValue = RowScalar | datetime | list[RowScalar] | dict[str, RowScalar]


class PostbackReceipt(BaseModel):
    batch_id: str = Field(description="The postback's batch: the same click_id and event always make the same one")
    event: str
    conversion: bool = Field(description="Whether the event counts as a conversion")
    duplicate: bool = Field(description="true: sent before, nothing changed")
    forwarded: bool = Field(description="Whether it is passed on to your postback URL")


class PostbackDeliveryRead(BaseModel):
    """One forward of a postback to the client's own URL (its settings page lists the last ones)."""

    event: str
    url: str
    status_code: int | None = Field(description="The tracker's HTTP status of the last attempt; null: no answer")
    error: str = Field(description="Why the last attempt failed; empty on success")
    attempts: int
    at: str = Field(description="When it was recorded, ISO-8601 UTC")


class BatchStored(BaseModel):
    """A batch of delivery statistics, stored (or found stored before) and charged."""

    batch_id: str
    rows: int = Field(description="Rows in the batch")
    duplicate: bool = Field(description="true: this batch id was stored before; nothing was written or charged again")
    spend_micros_by_advertiser: dict[str, int] = Field(
        description="Advertiser id (as text) -> micro-dollars charged for this batch ($1.00 = 1000000)")


class FigureRows(RootModel[list[FigureRow]]):
    """Rows of statistics, each with the columns asked for: dimensions (ids with their names beside them, days as
    ISO dates), metrics (money in dollars as text, ratios null when their denominator is 0), spend_micros beside
    spend, event_<name> counts."""


class DashboardPeriod(BaseModel):
    """The days shown and the period of the same length before them (ISO dates, UTC days)."""

    start: str
    end: str
    previous_start: str
    previous_end: str


class DashboardOverview(BaseModel):
    """Headline figures of the period and of the one before it (dashboard/overview)."""

    period: DashboardPeriod
    totals: FigureRow = Field(description="Every metric over the period, spend_micros beside spend; money in dollars")
    previous: FigureRow = Field(description="The same over the previous period")
    trend: FigureRow = Field(description="Change against the previous period in percent per metric (null: nothing "
                                         "to compare with); written like the metric, so spend, cpa and ecpm as text")


class Dashboard(DashboardOverview):
    """Every classic-dashboard widget at once (the page's one query)."""

    by_day: list[FigureRow] = Field(description="Every day of the period, days without delivery as zeros")
    breakdowns: dict[str, list[FigureRow]] = Field(description="Breakdown name -> its top rows by spend")
    labels: dict[str, str] = Field(description="Breakdown name -> the key of its rows' label column")


class CampaignChoice(BaseModel):
    id: int
    name: str


class PacingRead(BaseModel):
    """An active campaign's spend against its budget over its flight so far."""

    campaign_id: int
    campaign_name: str
    advertiser_id: int
    advertiser_name: str
    starts_on: str = Field(description="First day of the flight, ISO date in the campaign's `time_zone`")
    ends_on: str | None = Field(description="Last day of the flight (inclusive), in the campaign's `time_zone`; "
                                            "null: open-ended")
    time_zone: str = Field(description="The campaign's IANA time zone, whose days these are")
    budget: DollarFigure = Field(description="The total budget, in dollars")
    spent: DollarFigure = Field(description="Spent over the flight so far, in dollars")
    spent_since: str = Field(description="The first day `spent` sums (ISO date in `time_zone`): the flight's first "
                                         "day, or the oldest day statistics are read for")
    expected: DollarFigure | None = Field(description="What an even pace would have spent by now (null: no daily "
                                                      "budget to pace an open-ended campaign by)")
    pacing: float | None = Field(description="spent against expected, in percent")
    budget_used: float | None = Field(description="spent against budget, in percent")


class AttentionRead(PacingRead):
    """A campaign that needs attention: no recent spend (severity 2) or under-delivery (1)."""

    reason: Literal["no_spend", "under_delivery", "low_balance"]
    severity: int = Field(description="3 low balance, 2 no spend, 1 under-delivery: the list is worst first")


class LowBalanceRead(AttentionRead):
    """A campaign whose advertiser's balance covers fewer than three days of its recent spend (severity 3)."""

    balance: DollarFigure = Field(description="The advertiser's balance, in dollars")


class Insight(BaseModel):
    """Insight360: the active campaigns' pacing (biggest spend first) and those that need attention (worst
    first), 20 of each at most."""

    pacing: list[PacingRead]
    attention: list[LowBalanceRead | AttentionRead]


class BatchRead(BaseModel):
    """An ingestion batch behind a figure: its rows inside the figure's period, scope and filters, summed."""

    batch_id: str
    source: str = Field(description="How it came: api, csv, postback, simulator")
    received_at: str = Field(description="When the statistics store recorded it, ISO-8601 UTC")
    rows: int = Field(description="Its hourly rows counted in the figure")
    impressions: int
    clicks: int
    spend: DollarFigure = Field(description="Its spend counted in the figure, in dollars")
    spend_micros: int
    conversions: int


class Explanation(BaseModel):
    """What a figure is made of (issue 27): the campaign x day x exchange rows it sums, and their batches."""

    metric: str
    kind: str = Field(description="number, money or percent: how the figure is written")
    start: str = Field(description="First day, ISO date")
    end: str = Field(description="Last day (inclusive), ISO date")
    time_zone: str
    totals: FigureRow = Field(description="impressions, clicks, spend_micros, conversions and spend summed over every "
                                          "row (the rows add up to these exactly), and the metric itself: the figure "
                                          "the page shows (a ratio is of the sums; null when its denominator is 0)")
    total_rows: int = Field(description="Rows behind the figure (this answer carries `rows` from `offset`)")
    offset: int
    rows: list[FigureRow] = Field(description="day, advertiser, campaign (with names) and exchange, with their "
                                              "impressions, clicks, spend (spend_micros beside) and conversions")
    total_batches: int = Field(description="Batches the rows came from (at most 500 are listed, oldest first)")
    batches: list[BatchRead]
