"""The spec's validation rules and messages (section 5), used by forms and the API alike.

Each validator returns None when the value is fine, or the message to show beside the field.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from urllib.parse import urlparse

import email_validator
import idna

from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message

# Spec section 9: "two shared limits of 25". We apply them to first and last names.
FIRST_NAME_MAX_LENGTH = 25
LAST_NAME_MAX_LENGTH = 25
GEO_FENCE_MAX_POINTS = 2500
GEO_RADIUS_MIN = 0.5
GEO_RADIUS_MAX = 999.0
PASSWORD_MIN_LENGTH = 8
FILE_NAME_MAX_LENGTH = 100

CREATIVE_NAME_EMPTY = "Creative name cannot be empty."
CLICK_URL_MANDATORY = "Click URL is mandatory"
INVALID_URL = "Please enter a valid URL."
INVALID_NAME = "Invalid input. Please use only letters, numbers, spaces, and hyphens."
# Messages built with values are Messages: the catalogs translate the template, whatever the value.
TOO_LONG = "At most {n} characters."
PASSWORD_TOO_SHORT = "Password must be at least {n} characters."
INVALID_FILE_NAME = "File names use letters, digits, _ and - with single spaces, an extension, and may not start with x."
NOT_A_CSV_NAME = "The file is a CSV: end its name with .csv."
INVALID_IDENTIFIER = "Use only letters, digits, _ and -."

_TOKEN_FORBIDDEN_RE = re.compile(r"undefined|null|[|*><{}\[\]$~]|\s")
_FILE_NAME_RE = re.compile(r"^(?![xX])[A-Za-z0-9_\-]+(?: [A-Za-z0-9_\-]+)*\.[A-Za-z0-9]+$")
_IDENTIFIER_RE = re.compile(r"^[A-Za-z0-9_\-]+$")
_HEX_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def _letters_digits_and(value: str | None, others: str) -> bool:
    """Not empty, and only letters and digits of any script and the characters of `others`. "Letters" are Unicode
    letters: the console speaks Russian, German and Spanish (Иван, Müller, José), and names come from everywhere.
    A letter keeps its combining marks: after NFC an accent typed apart joins its letter (é), and the vowel signs
    and viramas of Devanagari, Bengali or Thai (हिन्दी), which have no precomposed form, follow theirs. A mark with
    no letter or digit before it is refused."""
    text = unicodedata.normalize("NFC", value or "")
    previous = " "
    for char in text:
        kind = unicodedata.category(char)[0]
        if not (char in others or kind in "LN" or (kind == "M" and previous in "LNM")):
            return False
        previous = "P" if char in others else kind
    return bool(text)


def ascii_host_name(host: str) -> str | None:
    """A host name (shop.example, bücher.example, пример.рф, localhost) in its ASCII form, or None when it is
    none. Checked by the idna library (IDNA 2008 with the UTS 46 mapping browsers use): a hand-written ASCII
    pattern refused every international domain name."""
    try:
        return idna.encode(host, uts46=True, std3_rules=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return None


def _is_domain(host: str) -> bool:
    """A host name with a domain. An IP address, `localhost` or a bare label is no domain."""
    ascii_host = ascii_host_name(host)
    if ascii_host is None:
        return False
    labels = ascii_host.split(".")
    top = labels[-1]
    return len(ascii_host) <= 253 and len(labels) >= 2 and (top.isalpha() or top.startswith("xn--"))


def _is_http_url(value: str) -> bool:
    try:
        parsed = urlparse(value)
        host = parsed.hostname or ""
    except ValueError:  # a broken [IPv6] part
        return False
    return parsed.scheme in ("http", "https") and _is_domain(host)


def creative_name(value: str | None) -> str | None:
    return CREATIVE_NAME_EMPTY if not (value or "").strip() else None


def click_url(value: str | None, *, mandatory: bool = True) -> str | None:
    value = (value or "").strip()
    if not value:
        return CLICK_URL_MANDATORY if mandatory else None
    return None if _is_http_url(value) else INVALID_URL


def url_list(value: str | None) -> str | None:
    """One or more comma-separated http(s) URLs, each ending with a slash."""
    parts = [p.strip() for p in (value or "").split(",")]
    if not parts or any(not p or not _is_http_url(p) or not p.endswith("/") for p in parts):
        return "Please enter valid http(s) URLs separated by commas, each ending with a slash (/)."
    return None


def geo_fence(value: str | None) -> str | None:
    """Entries `latitude,longitude,radius` separated by `|`."""
    entries = [e for e in (value or "").split("|") if e.strip()]
    if not entries:
        return "Enter at least one latitude,longitude,radius entry."
    if len(entries) > GEO_FENCE_MAX_POINTS:
        return f"At most {GEO_FENCE_MAX_POINTS} geo-fence points are allowed."
    for number, entry in enumerate(entries, start=1):
        try:
            lat, lng, radius = (float(x) for x in entry.split(","))
        except ValueError:
            return f"Entry {number} must be latitude,longitude,radius."
        if not -90 <= lat <= 90:
            return f"Entry {number}: latitude must be between -90 and 90."
        if not -180 <= lng <= 180:
            return f"Entry {number}: longitude must be between -180 and 180."
        if not GEO_RADIUS_MIN <= radius <= GEO_RADIUS_MAX:
            return f"Entry {number}: radius must be between {GEO_RADIUS_MIN} and {GEO_RADIUS_MAX:g}."
    return None


def name(value: str | None) -> str | None:
    """Letters, digits, spaces and hyphens, with at least one letter or digit: "---" or "  -  " names nothing."""
    text = value or ""
    if not _letters_digits_and(text, " -") or not any(unicodedata.category(c)[0] in "LN" for c in text):
        return INVALID_NAME
    return None


def token_text(value: str | None) -> str | None:
    if not value or _TOKEN_FORBIDDEN_RE.search(value):
        return "Must not contain spaces, the words undefined or null, or any of | * > < { } [ ] $ ~"
    return None


def file_name(value: str | None) -> str | None:
    return None if _FILE_NAME_RE.match(value or "") else INVALID_FILE_NAME


def csv_file_name(value: str | None) -> str | None:
    """A name for a CSV file the console writes: the file-name pattern, at most FILE_NAME_MAX_LENGTH characters,
    ending in .csv (a CSV saved as .xlsx or .txt would open in the wrong program)."""
    value = value or ""
    if len(value) > FILE_NAME_MAX_LENGTH:
        return too_long(FILE_NAME_MAX_LENGTH)
    return file_name(value) or (None if value.lower().endswith(".csv") else NOT_A_CSV_NAME)


def identifier(value: str | None) -> str | None:
    return None if _IDENTIFIER_RE.match(value or "") else INVALID_IDENTIFIER


def free_text(value: str | None) -> str | None:
    return None if _letters_digits_and(value, "_@! ") else "Use only letters, digits, spaces, _, @ and !."


def email(value: str | None) -> str | None:
    """Checked by email-validator (syntax only: no DNS lookup), which knows international addresses
    (josé@bücher.example) and the length limits."""
    value = (value or "").strip()
    if not value:
        return "Email is required."
    try:
        email_validator.validate_email(value, check_deliverability=False)
    except email_validator.EmailNotValidError:
        return "Please enter a valid email address."
    return None


def password(value: str | None) -> str | None:
    value = value or ""
    if len(value) < PASSWORD_MIN_LENGTH:
        return Message(PASSWORD_TOO_SHORT, n=PASSWORD_MIN_LENGTH)
    if not (re.search(r"[A-Za-z]", value) and re.search(r"\d", value)):
        return "Password must contain letters and numbers."
    return None


def person_name(value: str | None, *, max_length: int, required: bool = True) -> str | None:
    value = (value or "").strip()
    if not value:
        return "This field is required." if required else None
    if len(value) > max_length:
        return too_long(max_length)
    return name(value)


def too_long(limit: int) -> Message:
    """The message for text longer than `limit` characters."""
    return Message(TOO_LONG, n=limit)


def hex_colour(value: str | None) -> str | None:
    return None if _HEX_COLOUR_RE.match(value or "") else "Use a colour like #4f46e5."


def optional_http_url(value: str | None) -> str | None:
    value = (value or "").strip()
    return None if not value or _is_http_url(value) else INVALID_URL


# Spec section 5's patterns and the fields each governs, with why. The services named check these fields with
# the rule (tests/test_validation.py holds each of them to it); a field not listed was considered and left out
# for the reason given.
GOVERNED_FIELDS: dict[str, dict[str, str]] = {
    "name": {
        # What people call their own records: shown in lists, pickers and change logs.
        "campaign.name": "app/campaigns/service.py",
        "inventory_list.name": "app/supply/app_lists.py checked_name",
        "smart_app_list.name": "app/supply/smart_apps.py (app_lists.checked_name)",
        "audience.name": "app/supply/audiences.py",
        "report.name": "app/reports/service.py",
    },
    "token_text": {
        # A credential pasted into a form: whitespace, "null", "undefined" or markup characters there is a
        # copy-and-paste accident (a JavaScript value printed as text), not a key.
        "dsp.api_key": "app/dsps/service.py _new_key",
    },
    "free_text": {
        # A short label someone types to tell their own things apart. Notes and descriptions (funds notes,
        # report e-mail text) are not held to it: the pattern has no full stop or comma, so real sentences
        # would be refused.
        "api_key.label": "app/settings/api_credentials.py generate",
    },
    "file_name": {
        # A name the user gives a file the console makes for them. Held to csv_file_name: the pattern, ending
        # in .csv. Uploads keep the name the file came with (app/kernel/uploads.py shown_file_name); a report run's
        # CSV is named by the console after the report (app/reports/results.py csv_filename), not typed.
        "running_apps.file_name": "app/reports/service.py running_apps_export",
    },
    "identifier": {
        # An id someone types from another system's settings. Other ids keep a rule of their own, stricter or
        # different, and are not listed: custom event names (statistics ingestion, postbacks, report and
        # audience events) use app/warehouse/schema.py EVENT_NAME_PATTERN, lower case a-z, 0-9 and _ up to 40,
        # stricter, since each becomes a column name; ingestion batch ids (ingestion.BATCH_ID) allow . and :
        # as well, for the time stamps programs put in them; a postback's click_id is the partner's value,
        # passed on as sent; bundle ids carry dots (app_entries checks them); ids people pick (smart-app
        # taxonomy, exchanges) are checked against the list they come from; API key ids and the ids DSPs answer
        # (DSP associations) are made by a program, never typed.
        "dsp.seat_id": "app/dsps/service.py seat_problem",
    },
}


def check(rules: Mapping[str, tuple[Callable[..., str | None], object]]) -> None:
    """Run {field: (validator, value)} and raise Invalid naming every failing field."""
    errors = {field: msg for field, (rule, value) in rules.items() if (msg := rule(value))}
    if errors:
        raise Invalid(errors)
