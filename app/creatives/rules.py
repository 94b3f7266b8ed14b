"""What a creative of each type must and may hold (spec sections 3 and 5), checked in one pass that names
every bad field. Sizes and lengths are taken from the uploaded files, never from the client (html creatives,
which have no file, say their size themselves)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlmodel import Session

from app.creatives import sizes
from app.creatives.models import CreativeAsset, CreativeType
from app.kernel import validation as v
from app.kernel.errors import Invalid

NAME_MAX_LENGTH = 120
CLICK_URL_MAX_LENGTH = 2048
URLS_MAX = 10  # tracking URLs per creative: enough for an ad server, a verifier and a few partners
HTML_MAX_BYTES = 102_400  # 100 KB of markup; bigger ads belong in files
HTML_SIZE_MAX = 4096  # px, the largest ad slot side we accept
# Native text limits follow the IAB OpenRTB Native recommendations (title 90, description 140, CTA 25).
NATIVE_TEXT_MAX = {"title": 90, "description": 140, "call_to_action": 25}

# The input fields each type takes, besides its name (spec section 3).
TYPE_FIELDS: dict[CreativeType, frozenset[str]] = {
    CreativeType.IMAGE: frozenset({"click_url", "pixel_urls", "asset_id"}),
    CreativeType.NATIVE: frozenset({"click_url", "impression_urls", "title", "description", "call_to_action",
                                    "main_image_asset_id", "icon_asset_id"}),
    CreativeType.VIDEO: frozenset({"click_url", "impression_urls", "asset_id"}),
    CreativeType.HTML: frozenset({"html", "width", "height"}),
}
INPUT_FIELDS: tuple[str, ...] = ("name", "click_url", "pixel_urls", "impression_urls", "html", "width", "height",
                                 "asset_id", "title", "description", "call_to_action", "main_image_asset_id",
                                 "icon_asset_id")

REQUIRED = "This field is required."
NOT_FOR_TYPE = "{type} creatives do not have this field."
SINGLE_IMPRESSION_URL = "Native creatives take a single impression URL."
TOO_MANY_URLS = f"At most {URLS_MAX} URLs."
HTML_REQUIRED = "Enter the creative's HTML markup."
HTML_TOO_BIG = f"The HTML markup is larger than {HTML_MAX_BYTES // 1024} KB."
HTML_SIZE = f"Enter a whole number of pixels from 1 to {HTML_SIZE_MAX}."
ASSET_REQUIRED = {"asset_id": {CreativeType.IMAGE: "Upload the creative's image.",
                               CreativeType.VIDEO: "Upload the creative's video."},
                  "main_image_asset_id": {CreativeType.NATIVE: "Upload the main image."}}
ASSET_NOT_FOUND = "Choose a file uploaded for this advertiser."
NOT_AN_IMAGE_ASSET = "This file is not an image."
NOT_A_VIDEO_ASSET = "This file is not a video."


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == []


def url_text(value: Any) -> str:
    """A URL list as the spec's comma-separated text, from either that text or a JSON list."""
    if isinstance(value, list | tuple):
        return ",".join(str(part).strip() for part in value)
    return str(value or "").strip()


def _urls(value: Any, errors: dict[str, str], field: str) -> list[str]:
    text = url_text(value)
    if not text:
        return []
    if problem := v.url_list(text):
        errors[field] = problem
        return []
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > URLS_MAX:
        errors[field] = TOO_MANY_URLS
    return parts


def _asset(db: Session, advertiser_id: int, value: Any, *, kind: str, field: str, required: str | None,
           errors: dict[str, str]) -> CreativeAsset | None:
    if _blank(value):
        if required:
            errors[field] = required
        return None
    try:
        asset = db.get(CreativeAsset, int(value))
    except (TypeError, ValueError):
        asset = None
    # Another advertiser's file answers like a missing one: ids of other tenants' files cannot be probed.
    if asset is None or asset.advertiser_id != advertiser_id:
        errors[field] = ASSET_NOT_FOUND
        return None
    if not asset.content_type.startswith(f"{kind}/"):
        errors[field] = NOT_AN_IMAGE_ASSET if kind == "image" else NOT_A_VIDEO_ASSET
        return None
    return asset


def _pixels(value: Any, errors: dict[str, str], field: str) -> int | None:
    if _blank(value):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if not 1 <= number <= HTML_SIZE_MAX:
        errors[field] = HTML_SIZE
        return None
    return number


def checked(db: Session, *, advertiser_id: int, creative_type: CreativeType, data: dict[str, Any],
            changed: Collection[str] | None = None) -> dict[str, Any]:
    """Column values for a creative of `creative_type` from form/API input, or Invalid naming every bad field.
    Fields another type uses must be left empty; this type's fields not sent are empty. Sizes are checked against
    the format's (sizes.py) for the files and sizes in `changed` (None: all, as for a new creative), so an edit of
    a creative's URLs is not refused for the file it already had."""
    errors: dict[str, str] = {}

    def size(field: str, problem: str | None, *, given: Collection[str] = ()) -> None:
        """The format's size rule on `field`, when it (or one of `given`) is a change."""
        if problem and field not in errors and (changed is None or {field, *given} & set(changed)):
            errors[field] = problem

    fields = TYPE_FIELDS[creative_type]
    for field in INPUT_FIELDS:
        if field != "name" and field not in fields and not _blank(data.get(field)):
            errors[field] = NOT_FOR_TYPE.format(type=creative_type.value.capitalize())

    name = str(data.get("name") or "").strip()
    if problem := v.creative_name(name):
        errors["name"] = problem
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = v.too_long(NAME_MAX_LENGTH)
    values: dict[str, Any] = {"name": name, "click_url": "", "pixel_urls": [], "impression_urls": [], "html": "",
                              "asset_id": None, "width": None, "height": None, "duration_ms": None, "title": "",
                              "description": "", "call_to_action": "", "icon_asset_id": None,
                              "main_image_asset_id": None}

    if "click_url" in fields:
        url = str(data.get("click_url") or "").strip()
        if problem := v.click_url(url, mandatory=True):
            errors["click_url"] = problem
        elif len(url) > CLICK_URL_MAX_LENGTH:
            errors["click_url"] = v.too_long(CLICK_URL_MAX_LENGTH)
        values["click_url"] = url
    if "pixel_urls" in fields:
        values["pixel_urls"] = _urls(data.get("pixel_urls"), errors, "pixel_urls")
    if "impression_urls" in fields:
        values["impression_urls"] = _urls(data.get("impression_urls"), errors, "impression_urls")
        if creative_type == CreativeType.NATIVE and len(values["impression_urls"]) > 1:
            errors["impression_urls"] = SINGLE_IMPRESSION_URL

    if "asset_id" in fields:
        kind = "video" if creative_type == CreativeType.VIDEO else "image"
        asset = _asset(db, advertiser_id, data.get("asset_id"), kind=kind, field="asset_id",
                       required=ASSET_REQUIRED["asset_id"][creative_type], errors=errors)
        if asset is not None:
            values.update(asset_id=asset.id, width=asset.width, height=asset.height, duration_ms=asset.duration_ms)
            fits = sizes.video_problem if creative_type == CreativeType.VIDEO else sizes.banner_problem
            size("asset_id", fits(asset.width, asset.height))

    if creative_type == CreativeType.NATIVE:
        for field, limit in NATIVE_TEXT_MAX.items():
            text = str(data.get(field) or "").strip()
            if not text:
                errors[field] = REQUIRED
            elif len(text) > limit:
                errors[field] = v.too_long(limit)
            values[field] = text
        main = _asset(db, advertiser_id, data.get("main_image_asset_id"), kind="image", field="main_image_asset_id",
                      required=ASSET_REQUIRED["main_image_asset_id"][creative_type], errors=errors)
        icon = _asset(db, advertiser_id, data.get("icon_asset_id"), kind="image", field="icon_asset_id",
                      required=None, errors=errors)
        if main is not None:
            values.update(main_image_asset_id=main.id, width=main.width, height=main.height)
            size("main_image_asset_id", sizes.native_main_problem(main.width, main.height))
        if icon is not None:
            size("icon_asset_id", sizes.native_icon_problem(icon.width, icon.height))
        values["icon_asset_id"] = icon.id if icon is not None else None

    if creative_type == CreativeType.HTML:
        markup = str(data.get("html") or "")
        if not markup.strip():
            errors["html"] = HTML_REQUIRED
        elif len(markup.encode("utf-8")) > HTML_MAX_BYTES:
            errors["html"] = HTML_TOO_BIG
        values["html"] = markup
        values["width"] = _pixels(data.get("width"), errors, "width")
        values["height"] = _pixels(data.get("height"), errors, "height")
        if values["width"] and values["height"]:
            size("width", sizes.banner_problem(values["width"], values["height"]), given=("height",))

    if errors:
        raise Invalid(errors)
    return values
