"""What an API key may call, chosen when the key is made (ApiCredential.scope), declared once.

- `read`: every read (GET, HEAD, OPTIONS) the key's user may make; any write is refused.
- `read_write`: every call its user may make, except credentials (app/access/policy.py require_signed_in). What
  every key could do before scopes existed: keys made then were given it (migration 0030).
- `reporting`: reads of delivery statistics, dashboards and reports only (the API's routes under the tags below,
  and the report downloads they link to); anything else is refused.

app/web/deps.py get_actor asks `refusal` on every call made with a key, so no route can forget it.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class KeyScope(StrEnum):
    READ = "read"
    READ_WRITE = "read_write"
    REPORTING = "reporting"


SCOPES: tuple[str, ...] = tuple(KeyScope)
# A key made without naming a scope (an API client written before scopes) can do what keys always could.
DEFAULT_SCOPE = KeyScope.READ_WRITE
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The OpenAPI tags of the routers a reporting key reads (app/statistics/api.py, dashboards_api.py,
# app/reports/api.py); tests/test_key_scopes.py checks each still names routes.
REPORTING_TAGS = frozenset({"delivery statistics", "dashboards", "reports"})
# Routes outside the API that serve what those reads link to: a report's CSV (app/web/export_files.py).
REPORTING_PATHS = frozenset({"/files/exports/{token}"})

WHAT_EACH_ALLOWS: dict[str, str] = {
    KeyScope.READ: "reads only (GET, HEAD, OPTIONS)",
    KeyScope.READ_WRITE: "every call its user may make, except sign-in credentials and API keys",
    KeyScope.REPORTING: "reads of delivery statistics, dashboards and reports only",
}
NOT_A_SCOPE = "Choose one of: " + ", ".join(SCOPES) + "."


def check_scope(value: str | None) -> str | None:
    """The field message for a scope that is not one of SCOPES, else None (the form, the API and the service)."""
    return None if value in SCOPES else NOT_A_SCOPE


def in_reporting_area(*, tags: Iterable[str], path: str) -> bool:
    return bool(REPORTING_TAGS.intersection(tags)) or path in REPORTING_PATHS


def refusal(scope: str, *, method: str, tags: Iterable[str], path: str) -> str | None:
    """Why a key of `scope` may not make this call (a 403's message naming the scope), or None when it may."""
    reading = method.upper() in READ_METHODS
    if scope == KeyScope.READ_WRITE:
        return None
    if scope == KeyScope.READ:
        return None if reading else (f"This API key is read-only (scope: {scope}): it cannot {method.upper()}. "
                                     "Make a key with the read_write scope for writes.")
    if scope == KeyScope.REPORTING and reading and in_reporting_area(tags=tags, path=path):
        return None
    # A reporting key outside its reads, or a scope this version does not know (never more than asked for).
    return (f"This API key may only read statistics, dashboards and reports (scope: {scope}). "
            "Make a key with the read or read_write scope for this call.")
