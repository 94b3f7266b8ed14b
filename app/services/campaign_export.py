"""CSV export of the campaign list as the user sees it (same filters, same row scope), downloaded once from a
short-lived link.

The file goes to <data dir>/exports under a random name. Its link, /files/exports/{token}, carries a JWT
signed with the app's secret that names the file and the user who exported it and expires after 15 minutes;
the download route (app/api/export_files.py) also requires that the request is signed in as that user, so a
leaked link is useless to anyone else. Files older than a link's lifetime are removed at the next export.
"""

from __future__ import annotations

import csv
import re
import secrets
import time
from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import jwt
from sqlmodel import Session

from app.auth.policy import Actor, require
from app.errors import Forbidden, Invalid, NotAuthenticated, NotFound
from app.models.base import utcnow
from app.services import campaigns
from app.settings import get_settings

LINK_LIFETIME = timedelta(minutes=15)
ALGORITHM = "HS256"
AUDIENCE = "dsp-console-export"  # an export link can never pass for an API token, nor the reverse
URL_PREFIX = "/files/exports/"
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection); a leading ' shows it as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Blanks a spreadsheet skips before it looks for a formula start (" =1+1" runs too), and line breaks after which
# an importer may start a new cell or row ("note\n=1+1").
_SKIPPED = " \t\r\n\f\v\u00a0"
_STORED_NAME = re.compile(r"^[A-Za-z0-9_-]{20,}\.csv$")
EXPIRED = "This download link has expired. Export the list again."
NOT_YOURS = "This download belongs to another user."
GONE = "This download no longer exists. Export the list again."


def exports_dir() -> Path:
    folder = get_settings().data_dir / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _runs_as_formula(text: str) -> bool:
    """Whether a spreadsheet could evaluate this text: it starts with a formula character, or one of its lines
    does once its leading blanks are skipped."""
    return text.startswith(FORMULA_STARTS) or any(line.lstrip(_SKIPPED).startswith(FORMULA_STARTS)
                                                  for line in text.splitlines())


def safe_cell(value: Any) -> Any:
    """A value as a CSV cell that a spreadsheet shows as it is and never runs as a formula: numbers (int, float,
    Decimal) stay numbers (-5 is written -5), text that could be evaluated gets a leading ' and shows as text
    (the text "-5" too: whoever wrote it as text meant text)."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    return "'" + text if _runs_as_formula(text) else text


def unguarded_cell(text: str) -> str:
    """A cell read back from a CSV this module wrote, as it was before safe_cell guarded it."""
    return text[1:] if text.startswith("'") and _runs_as_formula(text[1:]) else text


def _prune(folder: Path) -> None:
    """Remove exports whose links have expired (no scheduler needed: each export tidies up after the last)."""
    oldest = time.time() - LINK_LIFETIME.total_seconds()
    for path in folder.glob("*.csv"):
        if path.stat().st_mtime < oldest:
            path.unlink(missing_ok=True)


def _shown(row: dict[str, Any], columns: list[str], terms: list[str]) -> bool:
    """The list grid's search: every term occurs in one of the exported columns."""
    text = "\u0000".join("" if row[column] is None else str(row[column]) for column in columns).lower()
    return all(term in text for term in terms)


def export_campaigns(db: Session, *, actor: Actor, columns: list[str], status: str = "", search: str = "",
                     advertiser_id: int | None = None, include_archived: bool = False, sort: str = "",
                     headers: list[str] | None = None) -> dict[str, str]:
    """Write the campaign list (the rows list_campaigns gives for these filters, in its order) with `columns`
    (list columns; none: all of them) to a CSV file; returns {csv_download_url, filename}. `search` keeps rows
    where each of its words occurs in some exported column, as the list's search box does; `headers` titles
    the columns (the page's translated labels; the column keys otherwise). The link works for 15 minutes, for
    the exporting user only."""
    require(actor, "campaign", "view")
    chosen = list(columns or campaigns.LIST_COLUMNS)
    unknown = [column for column in chosen if column not in campaigns.LIST_COLUMNS]
    if unknown:
        raise Invalid({"columns": f"Unknown columns: {', '.join(map(str, unknown))}. "
                                  f"Choose from: {', '.join(campaigns.LIST_COLUMNS)}."})
    if headers is not None and len(headers) != len(chosen):
        raise Invalid({"headers": "Give one title per column."})
    terms = search.lower().split()
    rows = [row for row in campaigns.list_campaigns(db, actor=actor, status=status, advertiser_id=advertiser_id,
                                                    include_archived=include_archived, sort=sort)
            if _shown(row, chosen, terms)]
    stored = write_export(headers if headers is not None else chosen,
                          ([row[column] for column in chosen] for row in rows))
    return export_link(actor=actor, stored=stored, filename=f"Campaigns-{utcnow():%Y%m%d-%H%M%S}.csv")


def write_csv(path: Path, header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> int:
    """Write a CSV a spreadsheet opens safely; answers the number of data rows."""
    count = 0
    # utf-8-sig: Excel reads the file as UTF-8 (names with accents) only when it starts with a byte-order mark.
    with path.open("w", newline="", encoding="utf-8-sig") as out:
        writer = csv.writer(out)
        writer.writerow([safe_cell(title) for title in header])
        for row in rows:
            writer.writerow([safe_cell(value) for value in row])
            count += 1
    return count


def new_export_name() -> str:
    """A fresh random file name in the exports folder (expired exports are removed first)."""
    _prune(exports_dir())
    return f"{secrets.token_urlsafe(24)}.csv"


def write_export(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> str:
    """Write rows to a new file in the exports folder; answers its stored name for export_link."""
    stored = new_export_name()
    write_csv(exports_dir() / stored, header, rows)
    return stored


def export_link(*, actor: Actor, stored: str, filename: str) -> dict[str, str]:
    """{csv_download_url, filename}: a link to an exports-folder file that works for 15 minutes, for `actor`
    only, downloading as `filename`."""
    now = utcnow()
    token = jwt.encode({"aud": AUDIENCE, "sub": str(actor.id), "file": stored, "name": filename,
                        "iat": int(now.timestamp()), "exp": int((now + LINK_LIFETIME).timestamp())},
                       get_settings().secret_key, algorithm=ALGORITHM)
    return {"csv_download_url": URL_PREFIX + token, "filename": filename}


def open_export(*, token: str, actor: Actor | None) -> tuple[Path, str]:
    """(the file, its download name) for a link, when `actor` (who is signed in on the request) exported it
    and the link has not expired."""
    if actor is None:
        raise NotAuthenticated("Please log in.")
    try:
        claims = jwt.decode(token, get_settings().secret_key, algorithms=[ALGORITHM], audience=AUDIENCE,
                            options={"require": ["exp", "sub", "file"]})
    except jwt.ExpiredSignatureError:
        raise NotFound(EXPIRED) from None
    except jwt.PyJWTError:
        raise NotFound(GONE) from None
    if str(claims["sub"]) != str(actor.id):
        raise Forbidden(NOT_YOURS)
    stored = str(claims["file"])
    path = exports_dir() / stored
    if not _STORED_NAME.match(stored) or not path.is_file():
        raise NotFound(GONE)
    return path, str(claims.get("name") or "Campaigns.csv")
