"""CSV downloads from short-lived signed links, and cells a spreadsheet shows as they are: every CSV the app
hands out (the campaign list, inventory-list entries, report results) is written and linked here.

The file goes to exports/ in the file store (app/kernel/storage.py: the data directory, or a bucket a fleet
shares) under a random name. Its link, /files/exports/{token}, carries a JWT
signed with the app's secret that names the file and the user who exported it and expires after 15 minutes;
the download route (app/web/export_files.py) also requires that the request is signed in as that user, so a
leaked link is useless to anyone else. Files older than a link's lifetime are removed at the next export.
"""

from __future__ import annotations

import csv
import io
import re
import secrets
from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal
from typing import IO, Any, Protocol

import jwt
from pydantic import BaseModel, Field

from app.kernel.config import get_settings
from app.kernel.errors import Forbidden, NotAuthenticated, NotFound
from app.kernel.model_base import utcnow
from app.kernel.storage import EXPORTS, get_storage

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


class Exporter(Protocol):
    """Whoever a link is for: the kernel knows users only by id (the access domain's Actor is one)."""

    @property
    def id(self) -> int | None: ...



def export_key(stored: str) -> str:
    """Where an export is kept in the file store."""
    return f"{EXPORTS}/{stored}"


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


def _prune() -> None:
    """Remove exports whose links have expired (no scheduler needed: each export tidies up after the last)."""
    storage = get_storage()
    oldest = utcnow() - LINK_LIFETIME
    for found in storage.list(EXPORTS + "/"):
        if found.key.endswith(".csv") and found.modified < oldest:
            storage.delete(found.key)


def write_csv(out: IO[bytes], header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> int:
    """Write a CSV a spreadsheet opens safely into the binary file `out`; answers the number of data rows."""
    count = 0
    # utf-8-sig: Excel reads the file as UTF-8 (names with accents) only when it starts with a byte-order mark.
    text = io.TextIOWrapper(out, encoding="utf-8-sig", newline="")
    try:
        writer = csv.writer(text)
        writer.writerow([safe_cell(title) for title in header])
        for row in rows:
            writer.writerow([safe_cell(value) for value in row])
            count += 1
        text.flush()
    finally:
        text.detach()  # `out` stays open: its owner closes it (and so decides whether the file is kept)
    return count


def new_export_name() -> str:
    """A fresh random file name in the exports folder (expired exports are removed first)."""
    _prune()
    return f"{secrets.token_urlsafe(24)}.csv"


def write_export(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> str:
    """Write rows to a new file in the exports folder; answers its stored name for export_link."""
    stored = new_export_name()
    with get_storage().writing(export_key(stored)) as out:
        write_csv(out, header, rows)
    return stored


class ExportLink(BaseModel):
    """A CSV's download link: it works for 15 minutes, only for the user who asked (every export answers this)."""

    csv_download_url: str = Field(description="Works for 15 minutes, only for the user who exported")
    filename: str = Field(description="The name the file downloads as")


def export_link(*, actor: Exporter, stored: str, filename: str) -> ExportLink:
    """A link to an exports-folder file that works for 15 minutes, for `actor` only, downloading as `filename`."""
    now = utcnow()
    token = jwt.encode({"aud": AUDIENCE, "sub": str(actor.id), "file": stored, "name": filename,
                        "iat": int(now.timestamp()), "exp": int((now + LINK_LIFETIME).timestamp())},
                       get_settings().secret_key, algorithm=ALGORITHM)
    return ExportLink(csv_download_url=URL_PREFIX + token, filename=filename)


def open_export(*, token: str, actor: Exporter | None) -> tuple[str, str]:
    """(the file's storage key, its download name) for a link, when `actor` (who is signed in on the request)
    exported it and the link has not expired."""
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
    if not _STORED_NAME.match(stored) or not get_storage().exists(export_key(stored)):
        raise NotFound(GONE)
    return export_key(stored), str(claims.get("name") or "Campaigns.csv")
