"""Saved reports and their runs.

A report is a saved question (dimensions, metrics, events, filters, a period) owned by the user who made it;
`advertiser_id` narrows it to one advertiser, or is None for an agency's or staff's report across every
advertiser in the owner's scope. Each generation is a ReportRun: a background job with status and progress
whose result is a CSV file in <data dir>/reports.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field, utcnow
from app.kernel.natural_order import keep_sort_key, name_column, sort_key_field


class ReportSchedule(StrEnum):
    NONE = "none"
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class RunStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


PERIOD_PRESETS: tuple[str, ...] = ("yesterday", "last_7_days", "last_30_days", "this_month", "last_month")
FIXED_PERIOD = "custom"  # the period is start_date .. end_date


class Report(SQLModel, table=True):
    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_name_key_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="users.id", index=True)
    advertiser_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    name: str = Field(max_length=120)
    name_key: str | None = sort_key_field(name_column)  # the name's natural-order key: the grid's sort by name
    report_type: str = Field(max_length=32)
    dimensions: list[str] = json_field(list)
    metrics: list[str] = json_field(list)
    events: list[str] = json_field(list)
    filters: dict[str, list[str | int]] = json_field(dict)
    period: str = Field(default="last_7_days", max_length=16)  # a PERIOD_PRESETS entry or FIXED_PERIOD
    start_date: date | None = None
    end_date: date | None = None
    time_zone: str = Field(default="UTC", max_length=64)
    schedule: str = Field(default=ReportSchedule.NONE, max_length=8, index=True)
    recipients: list[str] = json_field(list)
    created_at: datetime = created_at_field()
    updated_at: datetime = Field(default_factory=utcnow, nullable=False)


keep_sort_key(Report, "name_key", name_column)


class ReportRun(SQLModel, table=True):
    __tablename__ = "report_runs"
    # A scheduled firing is claimed once: two app processes firing the same cron slot insert the same
    # (report, scheduled_for) and the second insert fails, so recipients get one mail. Manual runs have
    # scheduled_for NULL, which never collides (NULLs are distinct on SQLite and PostgreSQL).
    __table_args__ = (UniqueConstraint("report_id", "scheduled_for", name="uq_report_runs_scheduled"),)

    id: int | None = Field(default=None, primary_key=True)
    report_id: int = Field(foreign_key="reports.id", index=True)
    status: str = Field(default=RunStatus.PENDING, max_length=10, index=True)
    progress: int = 0  # 0-100
    error: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))
    row_count: int | None = None
    result_file: str = Field(default="", max_length=80)  # under <data dir>/reports; "" when none (or deleted)
    requested_by: int = Field(foreign_key="users.id")
    scheduled_for: datetime | None = None  # the cron slot of a scheduled run
    period_start: date | None = None
    period_end: date | None = None
    attempts: int = 0  # executions started; a run interrupted twice is not tried again
    columns: list[str] = json_field(list)  # the CSV's column keys, in order
    totals: dict[str, float | int | None] = json_field(dict)  # the whole period's metrics (ratios of sums)
    created_at: datetime = created_at_field()
    started_at: datetime | None = None
    finished_at: datetime | None = None
