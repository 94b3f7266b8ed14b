"""Delivery statistics for people: the analytics store's answers, inside the actor's row scope, with names.

Every read of statistics goes through here (dashboards, reports, exports, the API), so row scope is decided
once: staff see every advertiser, an agency its advertisers, an advertiser itself. A filter can narrow the
scope, never widen it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session, col, select

from app.access.models import User
from app.access.policy import Actor, require, require_user_in_scope
from app.access.roles import STAFF_ROLES, Role
from app.campaigns.models import Campaign
from app.creatives.models import Creative
from app.kernel.errors import Invalid, NotFound
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, StatsRow, StatsValue, whole
from app.warehouse.schema import DIMENSIONS, EVENT_NAME_PATTERN, EVENT_PREFIX, METRICS

MAX_DAYS = 400  # a report spans at most this many days (a year and a bit: year-on-year views)
MAX_ROWS = 100_000  # rows one report answers; beyond it, narrow the dates or the dimensions
_EVENT_NAME = re.compile(EVENT_NAME_PATTERN)


def advertiser_scope(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> tuple[int, ...] | None:
    """The advertisers whose statistics the actor may read: None means every one (staff, no narrowing).
    Asking for one advertiser out of scope answers not found, like a missing one."""
    require(actor, "statistics", "view")
    if advertiser_id is not None:
        user = require_user_in_scope(actor, db.get(User, advertiser_id))
        if user.role != Role.ADVERTISER:
            raise NotFound("User not found.")
        return (advertiser_id,)
    if actor.role in STAFF_ROLES:
        return None
    if actor.role == Role.AGENCY:
        return tuple(i for i in db.exec(select(col(User.id)).where(User.agency_id == actor.id, User.role == Role.ADVERTISER)) if i)
    return (actor.id,)


def today_in(time_zone: str = "UTC") -> date:
    """The calendar day it is now in a time zone (dashboards count UTC days; a report, its own time zone's)."""
    return datetime.now(UTC if time_zone == "UTC" else ZoneInfo(time_zone)).date()


def last_days(days: int, *, time_zone: str = "UTC", today: date | None = None) -> tuple[date, date]:
    """What "last N days" means everywhere (dashboards, reports, the API): the N days ending today in the time
    zone, today included, so a dashboard and a report of the same days show the same figures."""
    last = today or today_in(time_zone)
    return last - timedelta(days=days - 1), last


def parse_period(start: str | date | None, end: str | date | None, *, default_days: int = 30) -> tuple[date, date]:
    """A report's days from form or query-string values; missing ones mean the last `default_days` days
    (last_days, UTC)."""
    errors: dict[str, str] = {}
    default_first, today = last_days(default_days)

    def read(field: str, value: str | date | None, fallback: date) -> date:
        if value in (None, ""):
            return fallback
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            errors[field] = "Enter a date as YYYY-MM-DD."
            return fallback

    last = read("end", end, today)
    first = read("start", start, last - (today - default_first))
    if not errors and first > last:
        errors["end"] = "The end date must not be before the start date."
    elif not errors and (last - first).days + 1 > MAX_DAYS:
        errors["start"] = f"A report spans at most {MAX_DAYS} days."
    if errors:
        raise Invalid(errors)
    return first, last


def zero_row(metrics: Sequence[str], events: Sequence[str] = ()) -> StatsRow:
    """A row's figures with no delivery: counts and money 0, ratios empty (their denominator is zero: NULLIF in
    schema.METRICS), as the store answers them."""
    row: StatsRow = {key: None if "NULLIF(" in METRICS[key].sql else 0 for key in metrics}
    row.update({EVENT_PREFIX + name: 0 for name in events})
    if "spend" in metrics:
        row["spend_micros"] = 0
    return row


def every_day(rows: Sequence[Mapping[str, StatsValue]], first: date, last: date,
              zero: Mapping[str, StatsValue]) -> list[StatsRow]:
    """Rows by "date", one for each day first..last in order: a day without delivery as a row of `zero`, so a
    quiet day shows as a day, not as a gap."""
    found = {row["date"]: dict(row) for row in rows}
    days = (first + timedelta(days=n) for n in range((last - first).days + 1))
    return [found.get(day) or {"date": day, **zero} for day in days]


def build_query(db: Session, *, actor: Actor, start: date, end: date, dimensions: Sequence[str] = (),
                metrics: Sequence[str] | None = None, events: Sequence[str] = (),
                filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
                time_zone: str = "UTC", order_by: str | None = None, descending: bool = False,
                limit: int | None = None) -> StatsQuery:
    """A checked query in the actor's scope; unknown names are refused naming the field."""
    scope = advertiser_scope(db, actor=actor, advertiser_id=advertiser_id)
    errors: dict[str, str] = {}
    if bad := [d for d in dimensions if d not in DIMENSIONS]:
        errors["dimensions"] = f"Unknown dimension: {', '.join(bad)}."
    if len(set(dimensions)) != len(dimensions):
        errors["dimensions"] = "A dimension is chosen twice."
    chosen_metrics = tuple(metrics) if metrics is not None else tuple(METRICS)
    if bad := [m for m in chosen_metrics if m not in METRICS]:
        errors["metrics"] = f"Unknown metric: {', '.join(bad)}."
    if bad := [e for e in events if not _EVENT_NAME.match(e)]:
        errors["events"] = f"Not an event name: {', '.join(bad)}."
    clean_filters: dict[str, tuple[int | str, ...]] = {}
    for key, values in (filters or {}).items():
        dimension = DIMENSIONS.get(key)
        if dimension is None or dimension.kind == "time":
            errors[f"filters.{key}"] = "Cannot filter on this."
            continue
        try:
            clean_filters[key] = tuple(int(v) for v in values) if dimension.kind == "int" else tuple(str(v) for v in values)
        except (TypeError, ValueError):
            errors[f"filters.{key}"] = "Give ids as whole numbers."
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        errors["time_zone"] = "Unknown time zone."
    if order_by and order_by not in (*dimensions, *chosen_metrics, *(f"event_{e}" for e in events)):
        errors["order_by"] = "Order by a chosen dimension or metric."
    if errors:
        raise Invalid(errors)
    return StatsQuery(start=start, end=end, dimensions=tuple(dimensions), metrics=chosen_metrics,
                      events=tuple(events), advertiser_ids=scope, filters=clean_filters, time_zone=time_zone,
                      order_by=order_by, descending=descending, limit=min(limit or MAX_ROWS, MAX_ROWS))


def run(db: Session, query: StatsQuery, *, names: bool = True) -> list[StatsRow]:
    """The store's rows for a query made by build_query, with advertiser, campaign and creative names beside
    their ids when those dimensions are asked for."""
    rows = get_store().query(query)
    if names:
        add_names(db, rows)
    return rows


def statistics(db: Session, *, actor: Actor, start: date, end: date, dimensions: Sequence[str] = (),
               metrics: Sequence[str] | None = None, events: Sequence[str] = (),
               filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
               time_zone: str = "UTC", order_by: str | None = None, descending: bool = False,
               limit: int | None = None) -> list[StatsRow]:
    """build_query then run: the one call for a page or an API call that wants rows."""
    return run(db, build_query(db, actor=actor, start=start, end=end, dimensions=dimensions, metrics=metrics,
                               events=events, filters=filters, advertiser_id=advertiser_id, time_zone=time_zone,
                               order_by=order_by, descending=descending, limit=limit))


def add_names(db: Session, rows: list[StatsRow]) -> None:
    """advertiser_name / campaign_name / creative_name beside the ids (one query per kind, not per row)."""
    for key, model, label in (("advertiser_id", User, "advertiser_name"), ("campaign_id", Campaign, "campaign_name"),
                              ("creative_id", Creative, "creative_name")):
        ids = {whole(row[key]) for row in rows if row.get(key)}
        if not ids:
            continue
        if model is User:
            found = {u.id: u.account_name for u in db.exec(select(User).where(col(User.id).in_(ids)))}
        else:
            found = dict(db.exec(select(model.id, model.name).where(col(model.id).in_(ids))).all())  # type: ignore[union-attr]  # User (no name) is the branch above; mypy does not narrow a class by `is`
        for row in rows:
            if key in row:
                ident = whole(row[key])
                row[label] = found.get(ident, f"#{ident}" if ident else "")


def event_names(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> list[str]:
    """The custom events recorded for the advertisers in scope (the report builder's event columns)."""
    return get_store().event_names(advertiser_scope(db, actor=actor, advertiser_id=advertiser_id))
