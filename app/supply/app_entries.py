"""Entries of inventory and smart-app lists: app bundle ids and web domains, read from typed text or an
uploaded CSV, each line checked and normalised on its own, the whole batch in bulk.

A line is one of:
- an iOS App Store id: `id123456789`, `ID123456789` or `123456789` (6 to 12 digits), kept as the digits alone,
  the form OpenRTB bid requests carry as an iOS app's bundle;
- an Android package name: `com.example.app` (dot-separated segments of letters, digits and underscores, each
  starting with a letter), lower-cased;
- a web domain: `example.com` (lower-cased; a pasted URL gives its host; `*.` and a trailing dot are dropped),
  whose ending is a real public suffix (the Public Suffix List shipped with `publicsuffixlist`).

Packages and domains look alike (`com.example.app` ends in the real TLD `.app`). A dotted value is a domain
when it ends in a real suffix and its reversal does not; an app when only its reversal does, or when neither
does; when both do (`com.example.app`, `tv.apple.com`), it is an app if it starts with a root that package
names use (com, org, net, io, ...), a domain otherwise.

Everything is done with sets and one pass over the lines, so 100,000 lines take well under a second here;
callers insert the accepted values in one bulk statement.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from functools import lru_cache

from publicsuffixlist import PSLFILE, PublicSuffixList
from sqlalchemy import delete
from sqlmodel import Session, col, func, select

from app.kernel import csv_uploads
from app.kernel.errors import Invalid
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, read_page
from app.kernel.model_base import table_of
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.supply.models import AppListEntry, EntryKind, SmartAppEntry
from app.supply.schemas import EntryBatchResult, ListEntry, RefusedLine

MAX_UPLOAD_BYTES = 8 * 1024 * 1024  # 100,000 long domains fit in about 5 MB
MAX_LINES = 200_000
MAX_VALUE_LENGTH = 255
REFUSED_SHOWN = 1_000  # refusals listed back with their line; the count covers all of them
# First cells of a header row (skipped): what spreadsheets and our own export name the column.
HEADERS = frozenset({"value", "values", "entry", "entries", "bundle", "bundle_id", "bundle id", "app", "app_id",
                     "app id", "apps", "domain", "domains", "package", "package_name", "site", "sites"})
PACKAGE_ROOTS = frozenset({"com", "org", "net", "io", "co", "me", "de", "uk", "fr", "jp", "cn", "ru", "in", "br", "it",
                           "es", "nl", "kr", "au", "ca", "us", "ch", "se", "pl", "edu", "gov", "app", "dev", "info",
                           "biz", "air", "mobi"})

_IOS = re.compile(r"(?:id)?(\d{6,12})")
_PACKAGE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+")
_HOST = re.compile(r"(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{1,63}(?<!-)")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://([^/?#]+)")

NOT_ENTRY = "Not an app id (com.example.app, id123456789) or a domain (example.com)."
TOO_LONG = f"Longer than {MAX_VALUE_LENGTH} characters."
UNREADABLE_NOT_TEXT = "The file is not UTF-8 text: save it as CSV (UTF-8) and upload it again."
UNREADABLE_EMPTY = "The file is empty."
UNREADABLE_TOO_BIG = f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB: split it and upload the parts."
UNREADABLE_TOO_LONG = f"The file has more than {MAX_LINES:,} lines: split it and upload the parts."
UNREADABLE_NOT_CSV = "The file is not CSV text (it holds binary data). Upload a .csv or .txt file, one entry a line."


@lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList(only_icann=True)


@dataclass
class Parsed:
    """What a batch of lines holds: the accepted values (value -> kind, first occurrence kept), how many lines
    repeated a value already in the batch, and the refused lines as (line number, text, reason)."""

    values: dict[str, str] = field(default_factory=dict)
    repeated: int = 0
    refused: list[tuple[int, str, str]] = field(default_factory=list)
    lines: int = 0  # non-blank lines read (a header excluded)


@lru_cache(maxsize=1)
def _top_levels() -> frozenset[str]:
    """Every top-level domain of the list's ICANN section (its rules' last labels): most values are settled by
    their last label alone, with no lookup."""
    found: set[str] = set()
    with open(PSLFILE, encoding="utf-8") as rules:
        for line in rules:
            if "===END ICANN DOMAINS===" in line:
                break
            rule = line.strip()
            if rule and not rule.startswith("//"):
                found.add(rule.rsplit(".", 1)[-1].lstrip("!*").encode("idna").decode("ascii")
                          if not rule.isascii() else rule.rsplit(".", 1)[-1].lstrip("!*"))
    return frozenset(found)


@lru_cache(maxsize=65_536)
def _suffix_size(tail: str) -> int:
    """How many labels the public suffix of `tail` has (0: not a known suffix)."""
    found = _suffixes().publicsuffix(tail, accept_unknown=False)
    return found.count(".") + 1 if found else 0


def _has_suffix(labels: list[str]) -> bool:
    """Whether the host ends in a known public suffix with a label before it. Asked of its last two labels (then
    three, under a two-label suffix such as co.uk): a host's suffix lies in its tail, and a cache over tails makes
    100,000 hosts under a few suffixes cost a few hundred lookups, not 100,000."""
    if labels[-1] not in _top_levels():
        return False
    size = _suffix_size(".".join(labels[-2:]))
    if size == 2 and len(labels) > 2:
        size = _suffix_size(".".join(labels[-3:]))
    return size > 0 and len(labels) > size


def normalise(raw: str) -> tuple[str, EntryKind] | str:
    """(value, kind) for one entry, or the reason it is refused."""
    text = raw.strip().strip('"').strip()
    if len(text) > MAX_VALUE_LENGTH:
        return TOO_LONG
    lowered = text.lower()
    if (ios := _IOS.fullmatch(lowered)) is not None:
        return ios.group(1), EntryKind.APP
    if (url := _URL.match(lowered)) is not None:
        lowered = url.group(1).rsplit("@", 1)[-1].split(":", 1)[0]
    lowered = lowered.removeprefix("*.").rstrip(".")
    if not lowered.isascii():
        try:
            lowered = lowered.encode("idna").decode("ascii")  # пример.рф -> xn--e1afmkfd.xn--p1ai
        except UnicodeError:
            return NOT_ENTRY
    labels = lowered.split(".")
    if len(labels) < 2:
        return NOT_ENTRY
    forward = _HOST.fullmatch(lowered) is not None and _has_suffix(labels)
    package = _PACKAGE.fullmatch(lowered) is not None
    if forward and package:
        reverse = _has_suffix(labels[::-1])
        is_app = reverse and labels[0] in PACKAGE_ROOTS
        return lowered, EntryKind.APP if is_app else EntryKind.DOMAIN
    if forward:
        return lowered, EntryKind.DOMAIN
    if package:
        return lowered, EntryKind.APP
    return NOT_ENTRY


def parse_lines(lines: list[tuple[int, str]]) -> Parsed:
    """Check and normalise numbered lines (blank ones skipped); repeats within the batch are counted, not kept."""
    parsed = Parsed()
    cache: dict[str, tuple[str, EntryKind] | str] = {}  # the same text twice is checked once
    for number, raw in lines:
        if not raw.strip():
            continue
        parsed.lines += 1
        found = cache.get(raw)
        if found is None:
            found = cache[raw] = normalise(raw)
        if isinstance(found, str):
            parsed.refused.append((number, raw.strip()[:80], found))
        elif found[0] in parsed.values:
            parsed.repeated += 1
        else:
            parsed.values[found[0]] = str(found[1].value)
    return parsed


def parse_text(text: str) -> Parsed:
    """Typed entries: one a line (commas, semicolons and tabs also separate entries on a line, as pasted from a
    spreadsheet row)."""
    lines = [(number, part) for number, line in enumerate(text.splitlines(), start=1)
             for part in re.split(r"[,;\t]+", line) if part.strip()]
    return parse_lines(lines)


def decode_upload(content: bytes) -> str:
    """The text of an uploaded file, or Invalid on `file` saying why it cannot be read (nothing is saved then)."""
    if not content.strip():
        raise Invalid({"file": UNREADABLE_EMPTY})
    if len(content) > MAX_UPLOAD_BYTES:
        raise Invalid({"file": UNREADABLE_TOO_BIG})
    if b"\x00" in content[:8192]:
        raise Invalid({"file": UNREADABLE_NOT_CSV})  # spreadsheets (xlsx, xls), images, UTF-16 text
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Invalid({"file": UNREADABLE_NOT_TEXT}) from None
    return text


def parse_csv(content: bytes) -> Parsed:
    """An uploaded CSV (or plain text), separated by commas, semicolons or tabs (app/kernel/csv_uploads.py): the
    first cell of each row is the entry; a first row naming its column (value, domain, bundle_id, ...) is skipped."""
    text = decode_upload(content)
    rows: list[tuple[int, str]] = []
    try:
        for number, row in enumerate(csv_uploads.rows(text)[1], start=1):
            if number > MAX_LINES:
                raise Invalid({"file": UNREADABLE_TOO_LONG})
            cell = next((c for c in row if c.strip()), "")
            if number == 1 and cell.strip().lower() in HEADERS:
                continue
            rows.append((number, cell))
    except csv.Error as problem:
        raise Invalid({"file": f"The file is not valid CSV: {problem}."}) from None
    parsed = parse_lines(rows)
    if parsed.lines == 0:
        raise Invalid({"file": UNREADABLE_EMPTY})
    return parsed


def summary(parsed: Parsed, *, added: int, already: int, removed: int, total: int) -> EntryBatchResult:
    """The result a page and the API show for a batch: counts and the refused lines with their reasons."""
    return EntryBatchResult(
        lines=parsed.lines, added=added, duplicates_in_batch=parsed.repeated, already_in_list=already,
        refused_count=len(parsed.refused),
        refused=[RefusedLine(line=n, text=text, reason=reason) for n, text, reason in parsed.refused[:REFUSED_SHOWN]],
        removed=removed, total=total)


# --- storing ---------------------------------------------------------------------------------------------

EntryModel = type[AppListEntry] | type[SmartAppEntry]
MODES = ("add", "replace", "remove")
MAX_ENTRIES = 500_000
TOO_MANY = f"A list holds at most {MAX_ENTRIES:,} entries."
INSERT_CHUNK = 20_000  # rows per INSERT statement (PostgreSQL caps one statement at 65,535 parameters)


def store(db: Session, model: EntryModel, list_id: int, parsed: Parsed, *, mode: str = "add") -> EntryBatchResult:
    """Apply a parsed batch to a list's entries: add the new values, replace all entries with the batch, or
    remove the batch's values. One read of the list's values, set arithmetic, then bulk statements: never a
    query per line. Answers the batch's counts, with `removed` and the list's new `total`."""
    if mode not in MODES:
        raise Invalid({"mode": "Choose add, replace or remove."})
    existing = set(db.exec(select(model.value).where(model.list_id == list_id)).all())
    gone = [value for value in parsed.values if value in existing] if mode == "remove" else \
        sorted(existing - set(parsed.values)) if mode == "replace" else []
    for start in range(0, len(gone), INSERT_CHUNK):
        db.execute(delete(model).where(col(model.list_id) == list_id,
                                       col(model.value).in_(gone[start:start + INSERT_CHUNK])))
    existing.difference_update(gone)
    if mode == "remove":
        return summary(parsed, added=0, already=0, removed=len(gone), total=len(existing))
    new = [{"list_id": list_id, "value": value, "kind": kind} for value, kind in parsed.values.items()
           if value not in existing]
    if len(existing) + len(new) > MAX_ENTRIES:
        raise Invalid({"entries": TOO_MANY})
    table = table_of(model)
    for start in range(0, len(new), INSERT_CHUNK):
        # The Core table, not the ORM entity: an executemany without the ORM's per-row bookkeeping (~40% faster).
        db.connection().execute(table.insert(), new[start:start + INSERT_CHUNK])
    return summary(parsed, added=len(new), already=len(parsed.values) - len(new), removed=len(gone),
                   total=len(existing) + len(new))


def delete_all(db: Session, model: EntryModel, list_id: int) -> None:
    db.execute(delete(model).where(col(model.list_id) == list_id))


def counts(db: Session, model: EntryModel, list_ids: list[int]) -> dict[int, dict[str, int]]:
    """{list id: {"app": n, "domain": n, "total": n}} in one grouped query."""
    found: dict[int, dict[str, int]] = {i: {"app": 0, "domain": 0, "total": 0} for i in list_ids}
    if not list_ids:
        return found
    rows = db.exec(select(model.list_id, model.kind, func.count()).where(col(model.list_id).in_(list_ids))
                   .group_by(col(model.list_id), col(model.kind))).all()
    for list_id, kind, count in rows:
        found[list_id][kind] = count
        found[list_id]["total"] += count
    return found


def entries_of(db: Session, model: EntryModel, list_id: int) -> list[ListEntry]:
    rows = db.exec(select(model.value, model.kind).where(model.list_id == list_id).order_by(col(model.value))).all()
    return [ListEntry(value=value, kind=kind) for value, kind in rows]


def entries_page(db: Session, model: EntryModel, list_id: int, *, search: str = "", limit: int = DEFAULT_LIMIT,
                 cursor: str | None = None) -> Page[ListEntry]:
    """A list's entries a page at a time, by value (unique in a list, then id), keyset on the list's
    (list_id, value) index; `search` keeps the values holding each of its words (app/kernel/grid_search.py). `total`
    by a COUNT on that index."""
    query = select(model.value, model.kind, model.id).where(model.list_id == list_id)
    query = query.where(*every_word(search, model.value))
    scope = {"list": f"{table_of(model).name}", "list_id": list_id, "search": search.strip()}
    return read_page(db, query, KeysetOrder(col(model.value), col(model.id)), limit=limit, cursor=cursor,
                     scope=scope, position=lambda row: (row[0], row[2]),
                     shown=lambda rows: [ListEntry(value=value, kind=kind) for value, kind, _id in rows])
