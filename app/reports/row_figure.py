"""One row of a report run's result as a figure to explain (issue 27): the run's query narrowed to the row's
dimension values.

A result row is the store's sum over the run's days, filters and scope where each of the run's dimensions has
the row's value. The same query with those values as filters (its day as the period) sums the same fact rows,
so the explanation of the narrowed query adds up to the row's figures. The store takes no hour as a filter
and the explanation's rows are by day: an hour's row is explained by its whole day (`by_day`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime

from app.kernel.errors import Invalid
from app.warehouse.base import StatsQuery
from app.warehouse.schema import DIMENSIONS

FIELD_PREFIX = "row_"  # a row value's field name, in errors and as the API's query parameter (row_campaign_id)


def row_dimensions(columns: Sequence[str]) -> list[str]:
    """The dimensions among a run's result columns (its names and metrics are not the row's key)."""
    return [column for column in columns if column in DIMENSIONS]


def by_day(dimensions: Sequence[str]) -> bool:
    """Whether rows of these dimensions are explained by their day rather than their hour."""
    return "hour" in dimensions


def _day(key: str, value: object) -> date:
    """The day of a date or hour cell (ISO text as the result CSV holds it, or a date/datetime)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value)
    return datetime.fromisoformat(text).date() if key == "hour" else date.fromisoformat(text)


def _value(key: str, value: object) -> int | str:
    if DIMENSIONS[key].kind == "int":
        if isinstance(value, bool) or not (isinstance(value, int) or str(value).isdigit()):
            raise ValueError(key)
        return int(str(value))
    return str(value)


def narrow(query: StatsQuery, dimensions: Sequence[str], row: Mapping[str, object]) -> StatsQuery:
    """`query` (a run's, checked and scoped) narrowed to the row whose `dimensions` have the values in `row`
    (its names and figures are not read). A missing or malformed value, a day outside the run's period, a value
    the report's filters leave out or a dimension the run is not broken down by is refused naming the field
    (row_<dimension>)."""
    errors: dict[str, str] = {FIELD_PREFIX + key: "Not a dimension of this report's rows." for key in row
                              if key in DIMENSIONS and key not in dimensions}
    start, end = query.start, query.end
    filters = dict(query.filters)
    for key in dimensions:
        field, value = FIELD_PREFIX + key, row.get(key)
        if value is None or (value == "" and DIMENSIONS[key].kind != "text"):
            errors[field] = "Give this row's value."
            continue
        if DIMENSIONS[key].kind == "time":
            try:
                day = _day(key, value)
            except ValueError:
                errors[field] = "Give a time as YYYY-MM-DDTHH:MM:SS." if key == "hour" else "Give a day as YYYY-MM-DD."
                continue
            if not start <= day <= end:
                errors[field] = f"Not a day of this run ({query.start.isoformat()} to {query.end.isoformat()})."
                continue
            start = end = day
            continue
        try:
            typed = _value(key, value)
        except ValueError:
            errors[field] = "Give an id as a whole number."
            continue
        if key in filters and typed not in filters[key]:
            errors[field] = "Not a value this report's filters keep."
            continue
        filters[key] = (typed,)
    if errors:
        raise Invalid(errors)
    return replace(query, start=start, end=end, filters=filters)
