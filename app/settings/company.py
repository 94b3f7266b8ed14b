"""White-label configuration: which brand a host name gets, and the admin's edits to it."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.access.policy import Actor, require
from app.kernel import media
from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.errors import Invalid
from app.kernel.model_base import utcnow
from app.kernel.storage import UPLOADS, get_storage
from app.kernel.uploads import too_large
from app.settings.models import CompanyConfig

BRANDING_DIR = "branding"
# Pillow format -> (content type, extension) of the logo and favicon formats browsers show.
BRANDING_FORMATS: dict[str, tuple[str, str]] = {
    "PNG": ("image/png", "png"), "JPEG": ("image/jpeg", "jpg"), "GIF": ("image/gif", "gif"),
    "WEBP": ("image/webp", "webp"), "ICO": ("image/x-icon", "ico"),
}
NOT_A_BRANDING_IMAGE = "Upload a PNG, JPG, GIF, WEBP or ICO image."
EDITABLE_FIELDS = (
    "meta_title", "name", "help_and_support", "help_and_support_link", "primary_color", "hover_color",
    "text_agency_color", "card_background_color", "navbar_color", "footer_start_year", "footer_text",
    "maintenance_mode",
)
COLOUR_FIELDS = ("primary_color", "hover_color", "text_agency_color", "card_background_color", "navbar_color")


@dataclass(frozen=True)
class Branding:
    """What the shell needs to draw the brand: a plain snapshot, safe to hold in component state."""

    id: int
    host: str
    meta_title: str
    name: str
    logo_url: str
    favicon_url: str
    agency_id: int | None
    help_and_support: bool
    help_and_support_link: str
    primary_color: str
    hover_color: str
    text_agency_color: str
    card_background_color: str
    navbar_color: str
    footer_start_year: int
    footer_text: str
    maintenance_mode: bool


def _file_url(name: str, fallback: str) -> str:
    return f"/files/{BRANDING_DIR}/{name}" if name else fallback


def branding_of(row: CompanyConfig) -> Branding:
    assert row.id is not None
    return Branding(
        id=row.id, host=row.host, meta_title=row.meta_title, name=row.name,
        logo_url=_file_url(row.logo_file, "/static/img/logo.svg"),
        favicon_url=_file_url(row.favicon_file, "/static/img/favicon.svg"),
        agency_id=row.agency_id, help_and_support=row.help_and_support,
        help_and_support_link=row.help_and_support_link, primary_color=row.primary_color,
        hover_color=row.hover_color, text_agency_color=row.text_agency_color,
        card_background_color=row.card_background_color, navbar_color=row.navbar_color,
        footer_start_year=row.footer_start_year, footer_text=row.footer_text,
        maintenance_mode=row.maintenance_mode,
    )


def config_row_for_host(db: Session, host: str) -> CompanyConfig:
    host = (host or "").split(":")[0].lower()
    rows = db.exec(select(CompanyConfig).where(col(CompanyConfig.host).in_([host, ""]))).all()
    exact = [r for r in rows if r.host == host and host]
    if exact:
        return exact[0]
    default = [r for r in rows if r.host == ""]
    if default:
        return default[0]
    row = CompanyConfig(host="")  # first start: a neutral default brand
    try:
        with db.begin_nested():  # two first requests at once: one inserts, the other reads what it made
            db.add(row)
    except IntegrityError:
        return db.exec(select(CompanyConfig).where(CompanyConfig.host == "")).one()
    return row


def branding_for_host(db: Session, host: str) -> Branding:
    return branding_of(config_row_for_host(db, host))


def list_configs(db: Session, *, actor: Actor) -> list[CompanyConfig]:
    require(actor, "company_config", "manage")
    return list(db.exec(select(CompanyConfig).order_by(col(CompanyConfig.host))))


def update_config(db: Session, *, actor: Actor, config_id: int, values: dict[str, object]) -> Branding:
    from app.history import audit

    require(actor, "company_config", "manage")
    row = db.get(CompanyConfig, config_id)
    if row is None:
        raise Invalid({"config": "This configuration no longer exists."})
    unknown = set(values) - set(EDITABLE_FIELDS)
    if unknown:
        raise Invalid({k: "This field cannot be changed." for k in unknown})
    rules: dict[str, tuple[Callable[..., str | None], object]] = {c: (v.hex_colour, values[c]) for c in COLOUR_FIELDS if c in values}
    if "help_and_support_link" in values:
        rules["help_and_support_link"] = (v.optional_http_url, values["help_and_support_link"])
    for text_field, limit in (("meta_title", 120), ("name", 120), ("footer_text", 200)):
        if text_field in values:
            text = str(values[text_field] or "").strip()
            rules[text_field] = (lambda t, n=limit: "This field is required." if not t else (v.too_long(n) if len(t) > n else None), text)
    if "footer_start_year" in values:
        rules["footer_start_year"] = (_year_rule, values["footer_start_year"])
    v.check(rules)
    # The menu item needs a link: checked on the pair as it will be, whichever of the two this save changes.
    help_on = values.get("help_and_support", row.help_and_support)
    link = str(values.get("help_and_support_link", row.help_and_support_link) or "").strip()
    if help_on and not link and {"help_and_support", "help_and_support_link"} & set(values):
        raise Invalid({"help_and_support_link": "Enter the Help & Support link to show the menu item."})
    before = {f: getattr(row, f) for f in values}
    for field, value in values.items():
        setattr(row, field, int(value) if field == "footer_start_year" else (value.strip() if isinstance(value, str) else value))  # type: ignore[call-overload]  # the year was checked by _year_rule above
    after = {f: getattr(row, f) for f in values}
    if after != before:
        row.updated_at = utcnow()
        db.add(row)
        audit.record(db, actor=actor, entity="company_config", entity_id=row.id, action="update",
                     before=before, after=after)
    return branding_of(row)


def _year_rule(value: object) -> str | None:
    try:
        year = int(str(value))
    except ValueError:
        return "Enter a year like 2024."
    return None if 1990 <= year <= utcnow().year else f"Enter a year between 1990 and {utcnow().year}."


def store_image(db: Session, *, actor: Actor, config_id: int, kind: str, filename: str, content: bytes) -> Branding:
    """Save an uploaded logo or favicon in the file store (app/kernel/storage.py) and point the config at it."""
    from app.history import audit

    require(actor, "company_config", "manage")
    field = {"logo": "logo_file", "favicon": "favicon_file"}.get(kind)
    row = db.get(CompanyConfig, config_id)
    if field is None or row is None:
        raise Invalid({kind: "Unknown image."})
    limit = get_settings().max_image_upload_bytes
    if len(content) > limit:
        raise Invalid({kind: too_large(limit)})
    if not content:
        raise Invalid({kind: "The file is empty."})
    # What it is comes from its bytes, decoded whole (a truncated file, a decompression bomb and an .exe named
    # .png are refused); the stored name is the server's, its extension the format found: `filename` plays no part.
    picture = media.read_image(content, kind, BRANDING_FORMATS, NOT_A_BRANDING_IMAGE)
    stored = f"{kind}-{config_id}-{secrets.token_hex(6)}.{picture.extension}"
    get_storage().put(branding_key(stored), content)
    before = {field: getattr(row, field)}
    setattr(row, field, stored)
    row.updated_at = utcnow()
    db.add(row)
    audit.record(db, actor=actor, entity="company_config", entity_id=row.id, action=f"upload_{kind}",
                 before=before, after={field: stored})
    return branding_of(row)


def branding_key(name: str) -> str:
    """Where a branding image is kept: uploads/branding/<name>, in the data directory or the bucket."""
    return f"{UPLOADS}/{BRANDING_DIR}/{name}"


def branding_file(name: str) -> str | None:
    """The storage key of a branding image's name (public: logos show on the login page), or None for a name
    the server never makes (the route answers 404 too when no such file is stored)."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    return branding_key(name)
