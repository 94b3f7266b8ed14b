"""CSV export of the campaign list as the user sees it: the status filter, the grid's visible columns, its
search and its sort. The file is written to the data directory and fetched through a signed link that only
its requester can open, for 15 minutes (GET /api/exports/{token}: pages and API clients alike)."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jwt
from sqlmodel import Session

from app.auth.policy import Actor, require
from app.errors import Invalid, NotFound
from app.services import campaigns
from app.settings import get_settings, new_token

LINK_LIFETIME = timedelta(minutes=15)
COLUMNS = ("id", "name", "advertiser", "status", "objective", "starts_at", "ends_at", "total_budget", "daily_budget",
           "bid", "bid_strategy", "traffic_type", "updated_at")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_FILE_NAME = re.compile(r"^[A-Za-z0-9_-]{20,64}\.csv$")
_NUMERIC = re.compile(r"^-?\d+(\.\d+)?$")


def exports_dir() -> Path:
    path = get_settings().data_dir / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet will not run: text starting like a formula gets a leading quote (OWASP)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) and not _NUMERIC.match(text) else text


def _matches(row: dict[str, Any], columns: list[str], query: str) -> bool:
    """The grid's search: every whitespace-separated term occurs in some shown column."""
    haystack = "\u0000".join(str(row.get(c) or "") for c in columns).lower()
    return all(term in haystack for term in query.lower().split())


def _sorted(rows: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    key = sort.removeprefix("-")
    if not key:
        return rows
    if key not in COLUMNS:
        raise Invalid({"sort": "Not an allowed value."})
    present = [r for r in rows if r.get(key) not in (None, "")]
    absent = [r for r in rows if r.get(key) in (None, "")]

    def value(row: dict[str, Any]) -> Any:
        raw = row[key]
        return (0, float(raw)) if isinstance(raw, int | float) or _NUMERIC.match(str(raw)) else (1, str(raw).casefold())

    return sorted(present, key=value, reverse=sort.startswith("-")) + absent  # empty cells last, as in the grid


def export_campaigns(db: Session, *, actor: Actor, columns: list[str], status: str = "", search: str = "",
                     sort: str = "", advertiser_id: int | None = None, include_archived: bool = False,
                     headers: list[str] | None = None) -> dict[str, Any]:
    """{"csv_download_url", "filename", "rows"}. `headers` are the column titles to write (the page's
    translated labels); the column keys otherwise."""
    require(actor, "campaign", "view")
    columns = [c for c in columns if c != "active"] or list(COLUMNS)
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown:
        raise Invalid({"columns": f"Unknown column: {', '.join(unknown)}."})
    if headers is not None and len(headers) != len(columns):
        raise Invalid({"headers": "Give one title per column."})
    rows = campaigns.list_campaigns(db, actor=actor, advertiser_id=advertiser_id, status=status,
                                    include_archived=include_archived)
    rows = _sorted([r for r in rows if _matches(r, columns, search)], sort)
    name = f"{new_token()}.csv"
    with (exports_dir() / name).open("w", newline="", encoding="utf-8-sig") as out:  # the BOM: Excel reads UTF-8
        writer = csv.writer(out)
        writer.writerow([_cell(h) for h in headers or columns])
        writer.writerows([_cell(row.get(c)) for c in columns] for row in rows)
    token = jwt.encode({"file": name, "sub": str(actor.id), "exp": datetime.now(UTC) + LINK_LIFETIME},
                       get_settings().secret_key, algorithm="HS256")
    return {"csv_download_url": f"/api/exports/{token}", "filename": "campaigns.csv", "rows": len(rows)}


def export_file(*, actor: Actor, token: str) -> Path:
    """The file a download link points at, for the user who asked for it while the link is fresh."""
    try:
        claims = jwt.decode(token, get_settings().secret_key, algorithms=["HS256"])
    except jwt.PyJWTError:
        raise NotFound("This download link has expired or is not valid.") from None
    name = str(claims.get("file", ""))
    path = exports_dir() / name
    if claims.get("sub") != str(actor.id) or not _FILE_NAME.match(name) or not path.is_file():
        raise NotFound("This download link has expired or is not valid.")
    return path
