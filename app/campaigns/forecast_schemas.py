"""What POST /api/campaigns/forecast (and the campaign form's summary) asks and answers. Money is dollars as text,
like every campaign field; the draft's fields are the campaign form's, so a form's values can be sent as they are."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.campaigns import flight
from app.campaigns.schemas import BidStrategy
from app.kernel.schema_examples import example

_DOLLARS = "Dollars as text, e.g. \"12.50\""


class ForecastDraft(BaseModel):
    """A campaign as it is being edited: its advertiser, flight, budgets, bid and targeting."""

    model_config = example({"advertiser_id": 4, "starts_at": "2027-01-01", "ends_at": "2027-01-31",
                            "total_budget": "3000.00", "daily_budget": "100.00", "bid_strategy": "cpm", "bid": "2.50",
                            "targeting": {"countries": ["US", "DE"], "device_types": ["phone"]}})

    advertiser_id: int | None = Field(None, description="Whose delivery to forecast from; an advertiser's own "
                                                         "when left out by an advertiser")
    starts_at: str | None = Field(None, description="The flight's start, " + flight.GIVEN)
    ends_at: str | None = Field(None, description="The flight's end, " + flight.END_GIVEN
                                + "; empty: open-ended (reach is then over 28 days)")
    time_zone: str | None = Field(None, description="The campaign's IANA time zone, whose days the flight counts "
                                                    "(UTC when left out)")
    total_budget: str | None = Field(None, description=_DOLLARS + "; empty: no total cap")
    daily_budget: str | None = Field(None, description=_DOLLARS + "; empty: no daily cap")
    bid_strategy: BidStrategy = "cpm"
    bid: str | None = Field(None, description=_DOLLARS + " (per thousand impressions for cpm, per click for cpc)")
    targeting: dict[str, Any] = Field(default_factory=dict, description=(
        "The campaign's targeting document (as in POST /campaigns). The forecast narrows by countries, "
        "device_types, operating_systems, exchanges, inventory_lists and smart_app_lists (what delivery records); "
        "the rest is listed in `not_applied`"))


class CountRange(BaseModel):
    low: int = Field(description="The 10th percentile of the history's days")
    expected: int = Field(description="The mean of the history's days")
    high: int = Field(description="The 90th percentile of the history's days")


class MoneyRange(BaseModel):
    low: str
    expected: str
    high: str


class Forecast(BaseModel):
    """What the draft would deliver per day and reach over its flight, judged from the advertiser's own delivery of
    the last 28 days that matches its targeting, at its bid, within its budgets. Ranges are the spread of those
    days (10th to 90th percentile), never more precise than the history is."""

    model_config = example({
        "advertiser_id": 4, "no_history": False, "message": "", "history_start": "2026-10-29",
        "history_end": "2026-11-25", "history_days": 28, "flight_days": 31,
        "impressions_per_day": {"low": 12000, "expected": 15400, "high": 18100},
        "spend_per_day": {"low": "30.00", "expected": "38.50", "high": "45.25"},
        "reach": {"low": 41000, "expected": 52000, "high": 60000}, "reach_days": 31, "bid_share": 0.72,
        "cleared_price": "2.10", "capped_by": ["daily_budget"], "not_applied": ["languages"]})

    advertiser_id: int
    no_history: bool = Field(description="True when none of the history matches the targeting: no figures then")
    message: str = Field(description="Why figures are missing or low (no history, a bid below every cleared "
                                     "price, no device ids for reach); empty otherwise")
    history_start: date | None = Field(description="The first UTC day of the history read")
    history_end: date | None
    history_days: int
    flight_days: int | None = Field(description="The flight's days; none while it has no end")
    impressions_per_day: CountRange | None
    spend_per_day: MoneyRange | None
    reach: CountRange | None = Field(description="Distinct devices over `reach_days` (approximate counts)")
    reach_days: int | None
    bid_share: float | None = Field(description="Share of the targeting's past impressions whose price was at or "
                                                "below the bid (0-1)")
    cleared_price: str | None = Field(description="What the targeting's past delivery cost on average (eCPM for a "
                                                  "cpm bid, eCPC for cpc), dollars")
    capped_by: list[Literal["daily_budget", "total_budget"]] = Field(description="Budgets that cut the forecast")
    not_applied: list[str] = Field(description="Targeting keys the delivery history cannot narrow by")
