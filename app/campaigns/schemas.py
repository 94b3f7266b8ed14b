"""What the campaign services take and answer, and so what the API's campaign calls send and receive.

Money is dollars as decimal text ("12.50"), times ISO 8601 (UTC in replies, but a campaign's flight: with the offset of
its time zone, app/campaigns/flight.py). Request fields the campaign rules judge (money by app/kernel/money.py,
dates, the targeting document by app/campaigns/targeting.py) stay loose here, so a bad value gets the rule's own
message naming the field."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from app.campaigns import flight
from app.history.schemas import VERSION_HELP
from app.kernel.schema_examples import example
from app.reference.schemas import (
    CarrierOption,
    CountryRead,
    LanguageRead,
    OsVersionOption,
    ReferenceOption,
    TrafficTypeOption,
)

Objective = Literal["awareness", "traffic", "conversions", "app_installs", "video_views"]
Pacing = Literal["even", "asap"]
BidStrategy = Literal["cpm", "cpc"]
FrequencyPeriod = Literal["hour", "day", "week"]
GoalMetric = Literal["none", "ctr", "cpa", "cpi", "vcr"]
Status = Literal["draft", "active", "paused", "completed", "archived"]

_DOLLARS = "Dollars as text, e.g. \"12.50\""
_TIME = flight.GIVEN
_TARGETING = (
    "countries (ISO alpha-2), regions (ISO 3166-2), cities (GeoNames ids), geo_fence (lat,long,radius|...), "
    "languages (ISO 639-1), device_types, exchanges / operating_systems / os_versions / browsers / manufacturers / "
    "carriers (reference value ids; os_versions within the chosen operating_systems, carriers within the chosen "
    "countries), dayparting (7 lists of hours, Monday first), inventory_lists and audiences ({allow: [ids], "
    "block: [ids]}), smart_app_lists ([ids])")

_VERSION = ("On edit: the `version` you read (GET's `version`, or its ETag). A campaign changed since is refused "
            "with 409 naming who changed what; left out (and no If-Match header), the save is not checked")


class CampaignUpdate(BaseModel):
    """A campaign's settings. Money in dollars as text ("12.50"); times ISO 8601, in `time_zone` when they
    carry no offset. On edit, fields left out keep their values."""

    name: str | None = None
    objective: Objective | None = None
    starts_at: str | None = Field(None, description=_TIME)
    ends_at: str | None = Field(None, description=flight.END_GIVEN + "; empty: no end")
    time_zone: str | None = Field(None, description="IANA name, e.g. Europe/Berlin")
    total_budget: str | None = Field(None, description=_DOLLARS)
    daily_budget: str | None = Field(None, description=_DOLLARS + "; empty: none")
    pacing: Pacing | None = None
    bid_strategy: BidStrategy | None = None
    bid: str | None = Field(None, description=_DOLLARS + " (per thousand impressions for cpm, per click for cpc)")
    bid_min: str | None = Field(None, description=_DOLLARS + "; empty: no lowest bid")
    bid_max: str | None = Field(None, description=_DOLLARS + "; empty: no highest bid")
    frequency_cap: int | str | None = Field(None, description="Impressions per user per frequency_period, a whole "
                                                              "number, 1 or more; empty: no cap")
    frequency_period: FrequencyPeriod | None = None
    traffic_type: str | None = Field(None, max_length=120, description=(
        "The `code` of an active traffic type from GET /api/meta/traffic-type (app, web, ctv, ...); "
        "a campaign keeps the one it has after it is retired"))
    goal_metric: GoalMetric | None = None
    goal_target: str | None = Field(None, description="CTR/VCR in %, CPA/CPI in dollars; empty for none")
    targeting: dict[str, JsonValue] | None = Field(None, description=_TARGETING + ". On edit, each kind named "
                                                   "replaces that kind (an empty list clears it); kinds left out keep "
                                                   "their values")
    version: int | None = Field(None, description=_VERSION)


class CampaignBody(CampaignUpdate):
    """A campaign's settings as the API takes them: frequency_cap a whole number (the pages send what was typed,
    and the campaign rules judge it)."""

    model_config = example({"bid": "0.40", "daily_budget": "150"})

    frequency_cap: int | None = Field(None, description="Impressions per user per frequency_period, 1 or more; "
                                                        "null: no cap")


class CampaignCreate(CampaignBody):
    model_config = example({
        "name": "Launch Week", "objective": "app_installs", "starts_at": "2026-12-01",
        "ends_at": "2026-12-31", "time_zone": "UTC", "total_budget": "1200", "daily_budget": "100",
        "bid_strategy": "cpc", "bid": "0.35", "targeting": {"countries": ["US"], "device_types": ["phone"]}})

    advertiser_id: int | None = Field(None, description="Whose campaign; an advertiser's own calls leave it out")


class ListChoice(BaseModel):
    """Inventory lists or audiences a campaign allows and blocks."""

    allow: list[int] = Field(default_factory=list)
    block: list[int] = Field(default_factory=list)


class Targeting(BaseModel):
    """A campaign's saved targeting document; an empty list narrows nothing."""

    countries: list[str] = Field(default_factory=list, description="ISO 3166-1 alpha-2")
    regions: list[str] = Field(default_factory=list, description="ISO 3166-2")
    cities: list[int] = Field(default_factory=list, description="GeoNames ids")
    geo_fence: str = Field("", description="lat,long,radius points separated by |")
    languages: list[str] = Field(default_factory=list, description="ISO 639-1")
    device_types: list[str] = Field(default_factory=list)
    exchanges: list[int] = Field(default_factory=list, description="Reference value ids")
    operating_systems: list[int] = Field(default_factory=list, description="Reference value ids")
    os_versions: list[int] = Field(default_factory=list, description="Reference value ids")
    browsers: list[int] = Field(default_factory=list, description="Reference value ids")
    manufacturers: list[int] = Field(default_factory=list, description="Reference value ids")
    carriers: list[int] = Field(default_factory=list, description="Reference value ids")
    dayparting: list[list[int]] = Field(default_factory=list, description="7 lists of hours (0-23), Monday first; "
                                                                          "empty: every hour")
    inventory_lists: ListChoice = Field(default_factory=ListChoice)
    audiences: ListChoice = Field(default_factory=ListChoice)
    smart_app_lists: list[int] = Field(default_factory=list, description="Smart-app list ids")


# A campaign as the API answers it: the example of CampaignRead and of the replies built on it.
CAMPAIGN_READ_EXAMPLE: dict[str, Any] = {
    "id": 101, "advertiser_id": 4, "name": "Launch Week", "objective": "app_installs", "status": "draft",
    "starts_at": "2026-12-01T00:00:00+00:00", "ends_at": "2027-01-01T00:00:00+00:00", "time_zone": "UTC",
    "starts_on": "2026-12-01", "ends_on": "2026-12-31",
    "pacing": "even", "bid_strategy": "cpc", "frequency_cap": None, "frequency_period": None,
    "traffic_type": "app", "goal_metric": "none", "goal_target": "",
    "created_at": "2026-11-26T09:30:00+00:00", "updated_at": "2026-11-26T09:30:00+00:00",
    "total_budget": "1200.00", "daily_budget": "100.00", "bid": "0.35", "bid_min": None, "bid_max": None,
    "advertiser": "Acme Outdoor",
    "targeting": {
        "countries": ["US"], "regions": [], "cities": [], "geo_fence": "", "languages": [],
        "device_types": ["phone"], "exchanges": [], "operating_systems": [], "os_versions": [], "browsers": [],
        "manufacturers": [], "carriers": [], "dayparting": [], "inventory_lists": {"allow": [], "block": []},
        "audiences": {"allow": [], "block": []}, "smart_app_lists": []},
    "shown_status": "draft", "next_statuses": ["active", "archived"], "version": 1}


_STARTS_AT = "The first instant it runs, ISO 8601 with the offset of `time_zone`"
_ENDS_AT = ("The first instant it no longer runs (the end is exclusive here: an end date given runs through that "
            "day, so it shows as the next day's midnight), ISO 8601 with the offset of `time_zone`; null: no end")
_STARTS_ON = "The flight's first day in `time_zone` (ISO 8601 date)"
_ENDS_ON = "The flight's last day in `time_zone`, inclusive (ISO 8601 date); null: no end"


class CampaignRead(BaseModel):
    """A campaign as pages and the API show it (money in dollars as decimal text; its flight in its `time_zone`,
    the other times ISO 8601 UTC)."""

    model_config = example(CAMPAIGN_READ_EXAMPLE)

    id: int
    advertiser_id: int
    name: str
    objective: str
    status: str = Field(description="The stored status")
    starts_at: str | None = Field(description=_STARTS_AT + "; null only in a clone's plan whose original's flight "
                                              "has ended")
    ends_at: str | None = Field(description=_ENDS_AT)
    starts_on: str | None = Field(description=_STARTS_ON + "; null as starts_at is")
    ends_on: str | None = Field(description=_ENDS_ON)
    time_zone: str
    pacing: str
    bid_strategy: str
    frequency_cap: int | None
    frequency_period: str | None
    traffic_type: str
    goal_metric: str
    goal_target: str
    created_at: str
    updated_at: str
    total_budget: str | None = Field(description=_DOLLARS)
    daily_budget: str | None
    bid: str | None
    bid_min: str | None
    bid_max: str | None
    advertiser: str = Field(description="The advertiser's company, or its person's name")
    targeting: Targeting
    shown_status: str = Field(description="The status shown: \"ended\" once the flight is over while draft, "
                                          "active or paused, else the stored one")
    next_statuses: list[str] = Field(description="The statuses it may move to now")
    version: int = Field(description=VERSION_HELP)


class CampaignClone(CampaignRead):
    model_config = example({**CAMPAIGN_READ_EXAMPLE, "id": 102, "name": "Launch Week copy", "left_out": []})

    left_out: list[str] = Field(description="Names of the archived lists and creatives and the retired values the "
                                            "clone did not take")


class CloneDraft(CampaignRead):
    """The settings a clone starts from: the original's, renamed, less what a new campaign cannot choose."""

    model_config = example({**CAMPAIGN_READ_EXAMPLE, "name": "Launch Week copy", "taken": {"creative_ids": [201]}})

    taken: dict[str, list[int]] = Field(description="What each part a clone takes holds, by the form field that "
                                                    "chooses it (creative_ids: the original's creatives, less "
                                                    "archived ones)")


class ClonePlan(BaseModel):
    campaign: CloneDraft
    left_out: list[str]
    needs_dates: bool = Field(description="The original's flight has ended: the clone needs new dates")


class CampaignListRow(BaseModel):
    """A row of the campaign list (its flight in its `time_zone`, the last change ISO 8601 UTC, money in dollars as
    text)."""

    id: int
    name: str
    status: str
    objective: str
    advertiser_id: int
    advertiser: str
    starts_at: str | None = Field(description=_STARTS_AT)
    ends_at: str | None = Field(description=_ENDS_AT)
    starts_on: str | None = Field(description=_STARTS_ON)
    ends_on: str | None = Field(description=_ENDS_ON)
    time_zone: str
    total_budget: str | None
    daily_budget: str | None
    bid_strategy: str
    bid: str | None
    traffic_type: str
    updated_at: str | None
    shown_status: str
    version: int = Field(description=VERSION_HELP)


class CampaignListPage(BaseModel):
    """One page of the campaign list and how many campaigns its filters match in all."""

    rows: list[CampaignListRow]
    total: int
    page: int = Field(description="Counted from 1")
    page_size: int


class StaleValue(BaseModel):
    """A reference value the campaign keeps but could not choose today."""

    id: int
    name: str
    reason: Literal["retired", "not_allowed"]


class CampaignDescription(BaseModel):
    """A campaign with the names behind its targeting codes and ids (the view page)."""

    campaign: CampaignRead
    names: dict[str, list[str]] = Field(description="Per targeting key (and inventory_allow, inventory_block, "
                                                    "smart_apps): the chosen values' names")
    stale: dict[str, list[StaleValue]] = Field(description="Per reference key: values it could not choose today")


class AdvertiserChoice(BaseModel):
    id: int
    name: str


class BulkResult(BaseModel):
    """One requested id's outcome, in request order."""

    id: int
    name: str
    ok: bool
    message: str = Field(description="Why the row was refused, naming the field; empty when applied")


class ListChange(ListChoice):
    """How to change a campaign's allow and block lists: add these ids, remove them, or replace both lists."""

    mode: Literal["add", "remove", "replace"]


class BulkChanges(BaseModel):
    """Any of these; the ones left out stay as they are on each campaign. Money in dollars as text ("2.50")."""

    model_config = ConfigDict(extra="forbid")  # a misspelt change is refused, never silently skipped

    bid: str | None = None
    bid_min: str | None = None
    bid_max: str | None = None
    total_budget: str | None = None
    daily_budget: str | None = Field(None, description='"" removes the daily budget')
    status: Status | None = None
    goal_metric: GoalMetric | None = None
    goal_target: str | None = None
    inventory_lists: ListChange | None = None
    audiences: ListChange | None = None


class ExchangeRequestRead(BaseModel):
    """A campaign's request to run on an exchange, as staff list them (times ISO 8601 UTC)."""

    id: int
    campaign_id: int
    campaign: str
    campaign_status: str
    advertiser_id: int
    advertiser: str
    exchange_id: int
    exchange: str
    status: str = Field(description="pending, approved or rejected")
    reason: str
    requested_at: str
    decided_at: str | None
    decided_by: str = Field(description="Who decided; empty while pending")


class CampaignExchangeRead(BaseModel):
    """An exchange a campaign asked for, with its state."""

    id: int
    exchange: str
    status: str = Field(description="pending, approved or rejected")
    reason: str = Field(description="Why it was rejected (or a note on an approval)")
    decided_at: str | None


class CampaignAudience(BaseModel):
    id: int
    name: str = Field(description="\"#<id>\" for an audience that no longer exists")
    kind: str
    status: str = Field(description="The audience's status; \"missing\" when it no longer exists")


class CampaignAudiences(BaseModel):
    allow: list[CampaignAudience]
    block: list[CampaignAudience]


class CampaignOptions(BaseModel):
    """Everything a campaign form's pickers offer. Lists of reference values hold {id, name} (OS versions with
    parent_id, carriers with country, traffic types with code); the fixed choices are codes. Cities are searched
    (/api/meta/city), never listed."""

    exchanges: list[ReferenceOption] = Field(description="The exchanges the advertiser may buy on")
    operating_systems: list[ReferenceOption]
    os_versions: list[OsVersionOption]
    browsers: list[ReferenceOption]
    manufacturers: list[ReferenceOption]
    carriers: list[CarrierOption]
    traffic_type_values: list[TrafficTypeOption] = Field(description="The admin's traffic types")
    countries: list[CountryRead]
    languages: list[LanguageRead]
    device_types: list[str]
    objectives: list[str]
    pacing: list[str]
    bid_strategies: list[str]
    frequency_periods: list[str]
    traffic_types: list[str] = Field(description="The admin's traffic types, as the codes campaigns keep")
    goal_metrics: list[str]
