"""A list filter that takes one of a few documented values (status, type, kind, role...): an unknown value is
refused with 422 naming the values it takes, never answered with an empty page that reads like "no such rows"
(`GET /api/campaigns?status=actve` answered 200 with nothing). One check for every list's choice filter, so their
messages agree; the API's Literal-typed query parameters (creatives, lists, audiences, DSPs) are refused the same
way by FastAPI before the service runs."""

from __future__ import annotations

from collections.abc import Iterable

from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message

UNKNOWN_CHOICE = "Not one of {allowed}: choose one of them, or leave it empty for all."


def filter_choice(field: str, value: str, allowed: Iterable[str]) -> str:
    """`value` when it is empty (no filter) or one of `allowed`; else Invalid on `field` naming the allowed
    values, in the order given."""
    choices = [str(choice) for choice in allowed]
    if value and value not in choices:
        raise Invalid({field: Message(UNKNOWN_CHOICE, allowed=", ".join(choices))})
    return value
