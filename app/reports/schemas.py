"""What the report services take and answer, and so what the API's report calls send and receive.

A report's settings come as ReportSettings from the builder page (its fields as typed text) and as ReportCreate or
ReportUpdate from the API (typed, unknown keys refused). The service judges every value (app/reports/service.py
names each bad one), so ReportSettings' fields take what the form sends."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.kernel.schema_examples import example
from app.reference.schemas import CountryRead

Period = Literal["yesterday", "last_7_days", "last_30_days", "this_month", "last_month", "custom"]
Schedule = Literal["none", "daily", "weekly", "monthly"]
# Report types (the spec's /report/create/{report_type}): each presets its dimensions; the first one is the
# type's own and stays, up to MAX_EXTRA_DIMENSIONS more may be added. Multi-dimensional (staff) takes any.
REPORT_TYPES: dict[str, tuple[str, ...]] = {
    "performance": ("date",),
    "campaign": ("campaign_id",),
    "creative": ("creative_id",),
    "exchange": ("exchange",),
    "geo": ("country",),
    "os": ("os",),
    "app": ("app",),
    "device": ("device_type",),
    "multi-dimensional": ("date", "campaign_id", "exchange", "country"),
}
FILTER_KEYS = ("campaign_id", "country", "exchange", "os", "device_type")
REPORT_TYPES_TEXT = f"{', '.join(REPORT_TYPES)} (multi-dimensional: admin and co-admin)"
# A result's cell: an id or a count (int), a ratio or dollars (float), a name or an ISO day (str), empty (None).
Cell = str | int | float | None


class ReportSettings(BaseModel):
    """A report's settings as the service judges them: every field may be left out (None: the type's preset, or
    the default), lists may be given as comma-separated text, days as ISO text."""

    name: str | None = None
    report_type: str | None = Field(None, description=f"One of: {REPORT_TYPES_TEXT}")
    advertiser_id: int | str | None = Field(None, description="One advertiser, or none for all in your scope")
    dimensions: list[str] | str | None = None
    metrics: list[str] | str | None = None
    events: list[str] | str | None = None
    filters: Mapping[str, list[str | int] | str] | None = Field(None, description="Dimension -> the values kept")
    period: str | None = None
    start_date: date | str | None = None
    end_date: date | str | None = None
    time_zone: str | None = None
    schedule: str | None = None
    recipients: list[str] | str | None = None


class ReportCreate(ReportSettings):
    """A report's settings. Dimensions, metrics and filters use the keys of the statistics store; a custom event
    is its name (its column is event_<name>). Leaving dimensions out takes the type's preset."""

    model_config = example({
        "name": "Weekly by campaign", "report_type": "campaign", "metrics": ["impressions", "clicks", "spend"],
        "filters": {"country": ["US"]}, "period": "last_7_days", "schedule": "weekly",
        "recipients": ["reports@example.com"]}, extra="forbid")

    name: str
    report_type: str = Field(..., description=f"One of: {REPORT_TYPES_TEXT}")
    advertiser_id: int | None = Field(None, description="One advertiser, or none for all in your scope")
    dimensions: list[str] = Field(default_factory=list)
    metrics: list[str] = Field(default_factory=lambda: ["impressions", "clicks", "ctr", "spend"])
    events: list[str] = Field(default_factory=list)
    filters: dict[str, list[str | int]] = Field(
        default_factory=dict, description=f"Of: {', '.join(FILTER_KEYS)}")
    period: Period = "last_7_days"
    start_date: date | None = Field(None, description="With period custom")
    end_date: date | None = None
    time_zone: str = "UTC"
    schedule: Schedule = "none"
    recipients: list[str] = Field(default_factory=list, description="E-mail addresses of a scheduled report")


class ReportUpdate(ReportSettings):
    """Every field but report_id is optional: a field left out keeps its value."""

    model_config = example({"report_id": 9, "name": "Weekly by campaign (EU)", "filters": {"country": ["DE", "FR"]}},
                           extra="forbid")

    report_id: int
    name: str | None = None
    report_type: str | None = None
    advertiser_id: int | None = None
    dimensions: list[str] | None = None
    metrics: list[str] | None = None
    events: list[str] | None = None
    filters: dict[str, list[str | int]] | None = None
    period: Period | None = None
    start_date: date | None = None
    end_date: date | None = None
    time_zone: str | None = None
    schedule: Schedule | None = None
    recipients: list[str] | None = None


class ReportRead(BaseModel):
    """A saved report (dates ISO, times ISO-8601 UTC)."""

    id: int
    name: str
    report_type: str
    advertiser_id: int | None = Field(description="The one advertiser it reads; null: every one in the owner's scope")
    advertiser: str = Field(description="That advertiser's name; empty: all advertisers")
    owner_id: int
    owner: str = Field(description="Who saved it")
    dimensions: list[str]
    metrics: list[str]
    events: list[str] = Field(description="Custom event names; each is a column event_<name>")
    filters: dict[str, list[str | int]] = Field(description="Dimension -> the values kept")
    period: str = Field(description="yesterday, last_7_days, last_30_days, this_month, last_month or custom")
    start_date: str | None = Field(description="With period custom")
    end_date: str | None
    time_zone: str = Field(description="IANA time zone its days are counted in")
    schedule: str = Field(description="none, daily, weekly or monthly")
    recipients: list[str]
    created_at: str
    updated_at: str


class ReportListItem(ReportRead):
    """A report in a list, with its last run."""

    last_status: str = Field(description="The last run's status; empty: never run")
    last_run_at: str | None
    last_run_id: int | None


class ReportRunRead(BaseModel):
    """One generation of a report."""

    id: int
    report_id: int
    status: str = Field(description="pending, running, completed or failed")
    progress: int = Field(description="0-100")
    error: str = Field(description="Why it failed; empty otherwise")
    row_count: int | None
    has_file: bool = Field(description="Whether its CSV is still there")
    requested_by: int = Field(description="The user who started it (the owner, for a scheduled run)")
    scheduled: bool = Field(description="Started by the report's schedule")
    period_start: str | None = Field(description="The days it covers, ISO dates")
    period_end: str | None
    attempts: int
    created_at: str
    started_at: str | None
    finished_at: str | None


class ReportWithRuns(BaseModel):
    report: ReportRead
    runs: list[ReportRunRead] = Field(description="The latest runs, newest first")


class RunQueued(BaseModel):
    run_id: int
    status: str
    progress: int


class ReportFileRead(BaseModel):
    """A run's generated CSV; `GET /report/download?run_id=` gives its link."""

    run_id: int
    report_id: int
    report_name: str
    period_start: str | None
    period_end: str | None
    row_count: int | None
    finished_at: str | None


class RunResult(BaseModel):
    """A completed run's table, as the report page shows it."""

    columns: list[str]
    rows: list[dict[str, Cell]] = Field(description="At most the page's limit; _row numbers them")
    row_count: int
    totals: dict[str, float | int | None]
    truncated: bool
    available: bool = Field(description="false: the run has no file (not completed, or deleted)")


class ReportSaved(BaseModel):
    """The builder's "Save & run": the report and its new run."""

    report: ReportRead
    run: ReportRunRead


class Choice(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str


class CampaignChoice(Choice):
    advertiser: str


class BuilderOptions(BaseModel):
    """What the report builder offers."""

    types: list[str]
    dimensions: list[str]
    metrics: list[str]
    events: list[str]
    advertisers: list[Choice]
    campaigns: list[CampaignChoice]
    countries: list[CountryRead]
    exchanges: list[str]
    os: list[str]
    device_types: list[str]
    periods: list[str]
    schedules: list[str]
