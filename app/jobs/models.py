"""The jobs table: the queue on SQLite (app/jobs/table_queue.py). PostgreSQL uses procrastinate's own tables.
The clock's slots (app/jobs/clock.py), on both."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel

from app.kernel.model_base import created_at_field, json_field


class JobStatus:
    QUEUED = "queued"
    RUNNING = "running"
    FAILED = "failed"  # done jobs are deleted; failed ones stay for the operator (app/jobs: failures())


class JobRow(SQLModel, table=True):
    __tablename__ = "jobs"

    id: int | None = Field(default=None, primary_key=True)
    task: str = Field(max_length=80)
    queue: str = Field(default="default", max_length=40, index=True)  # settings.jobs_queue of who deferred it
    args: dict[str, Any] = json_field()
    key: str = Field(default="", max_length=120, index=True)  # what the job is about, e.g. "report-run:12"
    status: str = Field(default=JobStatus.QUEUED, max_length=8, index=True)
    attempts: int = 0  # runs started
    crashes: int = 0  # runs whose worker died (its lease expired) before they ended
    # Epoch seconds, not datetimes: compared in SQL on both databases without time-zone conversions.
    run_after: float = 0.0
    lease_until: float | None = None
    worker: str = Field(default="", max_length=80)
    error: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))
    created_at: datetime = created_at_field()


class ClockSlot(SQLModel, table=True):
    """One periodic key's schedule across processes (app/jobs/clock.py): a process takes a slot only when it moves
    `next_due` on (one UPDATE, so one process a slot), and work runs only while it holds `lease_until`, so two runs
    of a key never overlap even when one outlasts its interval."""

    __tablename__ = "clock_slots"

    key: str = Field(primary_key=True, max_length=80)  # "alerts-check", "report-schedule:7"
    next_due: datetime = Field(nullable=False)
    lease_until: datetime | None = None
