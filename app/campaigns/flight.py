"""A campaign's flight in its own time zone: the one rule every page, API reply, forecast and check reads it by.

Stored: `starts_at` is the first instant the flight runs and `ends_at` the first instant it no longer runs (an
exclusive end), both UTC. A flight runs while starts_at <= now < ends_at.

Given: a time with an offset is that instant; a time without one is in the campaign's time zone; a date alone is
a whole day of that zone: a start date starts at its midnight, an end date runs through the end of that day, so it
is stored as the next day's midnight (2027-01-31 in Asia/Tokyo -> 2027-02-01T00:00+09:00). Shown: a flight's days
are the campaign's days, its last day the day of the last instant it runs (an end at a midnight shows the day
before), and its times carry the campaign's offset.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.campaigns.models import as_utc

_LAST_INSTANT = timedelta(microseconds=1)
# ISO 8601 as the API documents it for a flight (OpenAPI field descriptions, README).
GIVEN = ("ISO 8601 in the campaign's `time_zone`: a date alone (2027-01-31) is that whole day, a time without an "
         "offset is the zone's wall clock, one with an offset that instant")
END_GIVEN = (GIVEN + ". The end is inclusive: an end date runs through the end of that day (stored as the next "
             "day's midnight, the first instant the flight no longer runs)")


def zone(name: str | None) -> ZoneInfo:
    """The campaign's zone; an unknown name (a row older than the check) counts as UTC rather than failing a page."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _date_only(text: str) -> date | None:
    if len(text) != 10:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def midnight(day: date, where: ZoneInfo) -> datetime:
    """The UTC instant a day of the zone begins (DST days too: the zone's offset at that midnight)."""
    return datetime.combine(day, time(), tzinfo=where).astimezone(UTC)


def given(value: Any, where: ZoneInfo, *, end: bool) -> datetime:
    """A start or end as given (see the module docstring) as its stored UTC instant; ValueError when it is not
    ISO 8601."""
    text = str(value).strip()
    if (day := _date_only(text)) is not None:
        return midnight(day + timedelta(days=1) if end else day, where)
    parsed = datetime.fromisoformat(text)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=where)).astimezone(UTC)


def local(moment: datetime, where: ZoneInfo) -> datetime:
    return as_utc(moment).astimezone(where)


def first_day(starts_at: datetime, where: ZoneInfo) -> date:
    return local(starts_at, where).date()


def last_day(ends_at: datetime | None, where: ZoneInfo) -> date | None:
    """The last day of the zone the flight runs on (None: open-ended)."""
    return None if ends_at is None else (local(ends_at, where) - _LAST_INSTANT).date()


def flight_days(starts_at: datetime, ends_at: datetime | None, where: ZoneInfo) -> int | None:
    """How many of the zone's days the flight runs on, partly or whole (None: open-ended)."""
    last = last_day(ends_at, where)
    return None if last is None else max(0, (last - first_day(starts_at, where)).days + 1)


def is_whole_day(moment: datetime, where: ZoneInfo) -> bool:
    return local(moment, where).time() == time()


def iso(moment: datetime | None, where: ZoneInfo) -> str | None:
    """An instant as ISO 8601 with the campaign zone's offset (the API's replies)."""
    return None if moment is None else local(moment, where).isoformat()


def shown(starts_at: datetime | None, ends_at: datetime | None, time_zone: str) -> dict[str, str | None]:
    """A flight as replies show it: starts_at and ends_at with the zone's offset, starts_on and ends_on its first and
    last days. A UTC campaign's naive UTC times (the list's) by plain arithmetic: most rows are, and the list formats
    tens of thousands."""
    if time_zone == "UTC" and (starts_at is None or starts_at.tzinfo is None) and (
            ends_at is None or ends_at.tzinfo is None):
        return {"starts_at": None if starts_at is None else starts_at.isoformat() + "+00:00",
                "ends_at": None if ends_at is None else ends_at.isoformat() + "+00:00",
                "starts_on": None if starts_at is None else starts_at.date().isoformat(),
                "ends_on": None if ends_at is None else (ends_at - _LAST_INSTANT).date().isoformat()}
    where = zone(time_zone)
    return {"starts_at": iso(starts_at, where), "ends_at": iso(ends_at, where),
            "starts_on": None if starts_at is None else first_day(starts_at, where).isoformat(),
            "ends_on": None if ends_at is None else str(last_day(ends_at, where))}


def day_text(moment: datetime | None, where: ZoneInfo, *, end: bool, between: str = " ") -> str | None:
    """A start or end as the buyer gave it: the day (an end: its last day) when it falls on the zone's midnight,
    else the day and time of the zone ("2027-01-31 18:30"; `between` "T": the form's datetime-local text)."""
    if moment is None:
        return None
    if not is_whole_day(moment, where):
        return local(moment, where).strftime(f"%Y-%m-%d{between}%H:%M")
    shown = last_day(moment, where) if end else first_day(moment, where)
    return str(shown)


def read(iso: str | None) -> datetime | None:
    """A reply's ISO time back as a datetime (None for none or unreadable text)."""
    try:
        return datetime.fromisoformat(iso) if iso else None
    except ValueError:
        return None
