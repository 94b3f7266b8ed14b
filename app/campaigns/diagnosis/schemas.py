"""What a delivery check answers (GET /api/campaigns/{id}/diagnosis and the campaign view's "Delivery check"):
every reason a campaign is not spending, most blocking first, each with the figures behind it and the page that
fixes it."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, Field, PlainValidator, WithJsonSchema

from app.kernel.schema_examples import example

Severity = Literal["blocking", "limiting", "info"]
# blocking: the campaign cannot spend at all until it is fixed; limiting: it can spend, less than it could;
# info: worth knowing, not a fault. Reasons are listed in this order, then in CODES' order.
SEVERITIES: tuple[Severity, ...] = ("blocking", "limiting", "info")

# Every reason a check can give, declared once, in the order they are listed within a severity (the first is the
# one to fix first: nothing else matters while a campaign is paused).
Code = Literal["status_not_active", "flight_not_started", "flight_ended", "balance_empty", "total_budget_reached",
               "daily_budget_reached", "no_exchanges", "exchanges_rejected", "exchanges_pending",
               "no_active_creative", "balance_low", "targeting_no_delivery", "bid_below_market", "frequency_cap"]
CODES: tuple[Code, ...] = get_args(Code)  # in declaration order



def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("text expected")
    return value


# Text that keeps what it is: a kernel.i18n Message stays one (pydantic's str would copy it into a plain str,
# losing the template and values the campaign view translates it by); the API sends it as its English text.
Text = Annotated[str, PlainValidator(_text), WithJsonSchema({"type": "string"})]

# A figure behind a reason: an amount in dollars as decimal text ("12.50"), a date or time in ISO 8601, a count,
# or names (exchanges, countries).
Figure = str | int | list[str]


class Fix(BaseModel):
    label: Text = Field(description="What to do, as a button or link says it")
    page: str = Field(description="The console page that fixes it, by name (campaign.edit, funds.add, ...)")
    link: str | None = Field(description="That page's path for you; null when your role has no such page (ask "
                                         "whoever manages your account)")


class Reason(BaseModel):
    code: Code
    severity: Severity
    message: Text = Field(description="The reason, as a buyer reads it")
    details: dict[str, Figure] = Field(description="The figures behind it (money in dollars as decimal text)")
    fix: Fix | None


class Diagnosis(BaseModel):
    model_config = example({
        "campaign_id": 12, "campaign_name": "Spring Sale DACH", "status": "active", "eligible": False,
        "spent": "1840.20", "spent_today": "0.00", "checked_at": "2027-03-02T09:15:00+00:00",
        "reasons": [
            {"code": "balance_empty", "severity": "blocking",
             "message": "The advertiser's balance is $0.00: nothing can be bought until funds are added.",
             "details": {"balance": "0.00"},
             "fix": {"label": "Add funds", "page": "funds.add", "link": "/admin/addfund"}},
            {"code": "bid_below_market", "severity": "limiting",
             "message": "The bid of $1.20 CPM is below the $2.35 that comparable delivery cleared at in the "
                        "last 7 days: it will win few auctions.",
             "details": {"bid": "1.20", "p25": "1.80", "median": "2.35", "p75": "3.10", "impressions": 1250000},
             "fix": {"label": "Raise the bid", "page": "campaign.edit", "link": "/admin/campaignEditForm/12"}},
        ]})

    campaign_id: int
    campaign_name: str
    status: str = Field(description="The status the campaign shows (draft, active, paused, completed, archived, ended)")
    eligible: bool = Field(description="True when no reason blocks delivery (limiting and info ones may remain)")
    spent: str = Field(description="Spent so far over the whole flight, in dollars")
    spent_today: str = Field(description="Spent today (the campaign's time zone's day), in dollars")
    checked_at: str = Field(description="When the check ran (UTC, ISO 8601)")
    reasons: list[Reason] = Field(description="Most blocking first; empty when nothing holds the campaign back")
