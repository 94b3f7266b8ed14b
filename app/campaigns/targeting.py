"""Campaign targeting: one JSON document per campaign, checked here field by field.

Geography and languages are checked against pycountry's ISO data sets (countries ISO 3166-1 alpha-2,
regions ISO 3166-2, languages ISO 639-1); device and supply values against the admin's reference lists
(app/reference/metadata.py), which also count each value's use by campaigns so a used value cannot be
deleted. Chosen OS versions must belong to the chosen operating systems, and chosen carriers to the chosen
countries, whenever systems or countries are chosen. Exchanges are limited to those enabled for the advertiser in its user configuration.

Only what an edit changes is checked against today's lists: a value the campaign already had stays accepted after
it was retired (or, for an exchange, taken off the advertiser's allowed list), so the campaign's other settings
can still be edited, and the buyer can remove it; it cannot be newly chosen. Such values are shown marked
(stale_values) and never sent to a DSP (deliverable).
"""

from __future__ import annotations

from typing import Any

import pycountry
from sqlmodel import Session, col, select

from app.access.preferences import settings_of
from app.campaigns.models import TARGETING_REFERENCE_KEYS
from app.kernel import csv_uploads
from app.kernel import validation as v
from app.kernel.errors import Invalid
from app.kernel.i18n.catalog import Message
from app.reference import geo
from app.reference.models import ReferenceValue
from app.supply import list_targeting
from app.supply.audience_rules import audience_problem

DEVICE_TYPES = ("phone", "tablet", "desktop", "ctv")  # the statistics store's names (app/warehouse/schema.py)
# Names a device type had before; accepted from API callers and read as today's (migration 0014 rewrote them).
FORMER_DEVICE_NAMES = {"connected_tv": "ctv"}
# Why a saved reference value could not be chosen today (stale_values).
RETIRED, NOT_ALLOWED = "retired", "not_allowed"
RETIRED_REFUSED = "Retired, cannot be chosen: {names}."
REFERENCE_KEYS = TARGETING_REFERENCE_KEYS
# {allow: [ids], block: [ids]} of inventory lists and audiences; [ids] of active smart-app lists, allowed: the
# keys are supply's (app/supply/list_targeting.py).
LIST_REFERENCES = (list_targeting.INVENTORY_KEY, list_targeting.AUDIENCE_KEY)
SMART_APP_KEY = list_targeting.SMART_APP_KEY
EMPTY: dict[str, Any] = {
    "countries": [], "regions": [], "cities": [], "geo_fence": "", "languages": [], "device_types": [],
    **{key: [] for key in REFERENCE_KEYS}, "dayparting": [],
    **{key: {"allow": [], "block": []} for key in LIST_REFERENCES}, SMART_APP_KEY: [],
}


def _codes(value: Any) -> list[str]:
    return [str(x).strip() for x in value] if isinstance(value, list) else []


def _ids(value: Any) -> list[int] | None:
    if not isinstance(value, list):
        return None
    try:
        return sorted({int(x) for x in value})
    except (TypeError, ValueError):
        return None


def _check_belonging(db: Session, out: dict[str, Any], errors: dict[str, str]) -> None:
    """OS versions inside the chosen operating systems, carriers inside the chosen countries (when systems or
    countries are chosen at all): a version of another system, or a carrier abroad, would never match."""
    checks = (("os_versions", "operating_systems", ReferenceValue.parent_id, "OS versions outside the chosen "
               "operating systems"), ("carriers", "countries", ReferenceValue.country, "Carriers outside the "
                                      "chosen countries"))
    for key, container_key, column, message in checks:
        chosen, containers = out[key], set(out[container_key])
        if not chosen or not containers or f"targeting.{key}" in errors:
            continue
        rows = db.exec(select(ReferenceValue.name, column).where(col(ReferenceValue.id).in_(chosen))).all()
        outside = sorted(name for name, container in rows if container not in containers)
        if outside:
            errors[f"targeting.{key}"] = f"{message}: {', '.join(outside)}."


def clean_targeting(db: Session, *, advertiser_id: int, raw: dict[str, Any] | None,
                    previous: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """(the normalised targeting, {"targeting.<key>": message}) for what a form or the API sent. `previous`: the
    saved campaign's targeting, whose lists stay accepted after they were archived."""
    raw = raw or {}
    errors: dict[str, str] = {}
    out: dict[str, Any] = {key: (dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list)
                                  else value) for key, value in EMPTY.items()}
    unknown = sorted(set(raw) - set(EMPTY))
    if unknown:
        errors["targeting"] = f"Unknown targeting: {', '.join(unknown)}."

    countries = [c.upper() for c in _codes(raw.get("countries", []))]
    bad = [c for c in countries if pycountry.countries.get(alpha_2=c) is None]
    if bad:
        errors["targeting.countries"] = f"Unknown country code: {', '.join(bad)}."
    out["countries"] = sorted(set(countries))

    regions = [r.upper() for r in _codes(raw.get("regions", []))]
    bad = [r for r in regions if pycountry.subdivisions.get(code=r) is None]
    if bad:
        errors["targeting.regions"] = f"Unknown region code: {', '.join(bad)}."
    elif countries and (outside := [r for r in regions if r.split("-")[0] not in countries]):
        errors["targeting.regions"] = f"Regions outside the chosen countries: {', '.join(outside)}."
    out["regions"] = sorted(set(regions))

    cities = _ids(raw.get("cities", []))
    if cities is None or (cities and len(geo.cities_by_id(cities)) != len(cities)):
        errors["targeting.cities"] = "Choose cities from the list."
    out["cities"] = cities or []

    fence = str(raw.get("geo_fence", "") or "").strip()
    if fence and (problem := v.geo_fence(fence)):
        errors["targeting.geo_fence"] = problem
    out["geo_fence"] = fence

    languages = [code.lower() for code in _codes(raw.get("languages", []))]
    bad = [code for code in languages if pycountry.languages.get(alpha_2=code) is None]
    if bad:
        errors["targeting.languages"] = f"Unknown language code: {', '.join(bad)}."
    out["languages"] = sorted(set(languages))

    devices = [FORMER_DEVICE_NAMES.get(d, d) for d in _codes(raw.get("device_types", []))]
    if set(devices) - set(DEVICE_TYPES):
        errors["targeting.device_types"] = "Not an allowed value."
    out["device_types"] = sorted(set(devices))

    saved_ids = {key: set(_ids((previous or {}).get(key, [])) or []) for key in REFERENCE_KEYS}
    for key, kind in REFERENCE_KEYS.items():
        ids = _ids(raw.get(key, []))
        if ids is None:
            errors[f"targeting.{key}"] = "Choose values from the list."
            continue
        active = set(db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == kind,
                                                             col(ReferenceValue.retired).is_(False))).all())
        if added_retired := set(ids) - active - saved_ids[key]:
            errors[f"targeting.{key}"] = _refusal(db, added_retired)
        out[key] = ids

    _check_belonging(db, out, errors)

    allowed = _allowed_exchanges(db, advertiser_id)
    if allowed and set(out["exchanges"]) - allowed - saved_ids["exchanges"]:
        errors["targeting.exchanges"] = "This advertiser may not buy on some of these exchanges."

    daypart = raw.get("dayparting", [])
    if daypart:
        if not (isinstance(daypart, list) and len(daypart) == 7 and all(
                isinstance(day, list) and all(isinstance(h, int) and 0 <= h <= 23 for h in day) for day in daypart)):
            errors["targeting.dayparting"] = "Dayparting is seven lists of hours from 0 to 23, Monday first."
        else:
            out["dayparting"] = [sorted(set(day)) for day in daypart]

    for key in LIST_REFERENCES:
        value = raw.get(key, {"allow": [], "block": []})
        allow = _ids(value.get("allow", [])) if isinstance(value, dict) else None
        block = _ids(value.get("block", [])) if isinstance(value, dict) else None
        if allow is None or block is None:
            errors[f"targeting.{key}"] = "Lists are given as allow and block lists of ids."
        elif set(allow) & set(block):
            errors[f"targeting.{key}"] = "A list cannot be both allowed and blocked."
        else:
            out[key] = {"allow": allow, "block": block}
    _check_app_lists(db, advertiser_id, out, errors, previous or {}, raw.get(SMART_APP_KEY, []))
    saved = (previous or {}).get("audiences") or {}
    if "targeting.audiences" not in errors and (problem := audience_problem(
            db, advertiser_id=advertiser_id, ids=out["audiences"]["allow"] + out["audiences"]["block"],
            kept=[*(saved.get("allow") or []), *(saved.get("block") or [])])):
        errors["targeting.audiences"] = problem
    return out, errors


def _refusal(db: Session, ids: set[int]) -> str:
    """The message for reference ids that cannot be chosen: retired ones by name, anything else unknown."""
    retired = sorted(db.exec(select(ReferenceValue.name).where(col(ReferenceValue.id).in_(ids),
                                                                col(ReferenceValue.retired).is_(True))).all())
    return Message(RETIRED_REFUSED, names=", ".join(retired)) if retired else "Choose values from the list."


def _allowed_exchanges(db: Session, advertiser_id: int) -> set[int]:
    """The exchanges the advertiser's user configuration allows; empty means every exchange (no restriction)."""
    return set(settings_of(db, advertiser_id).allowed_exchanges or [])


def stale_values(db: Session, *, advertiser_id: int, targeting: dict[str, Any]) -> dict[str, dict[int, str]]:
    """The reference values a saved campaign targets that could not be chosen today: {key: {id: RETIRED or
    NOT_ALLOWED (an exchange off the advertiser's allowed list)}}, keys with none left out."""
    chosen = {key: set(_ids(targeting.get(key, [])) or []) for key in REFERENCE_KEYS}
    every = set().union(*chosen.values())
    retired = set(db.exec(select(ReferenceValue.id).where(col(ReferenceValue.id).in_(every),
                                                          col(ReferenceValue.retired).is_(True))).all()) if every else set()
    allowed = _allowed_exchanges(db, advertiser_id) if chosen["exchanges"] else set()
    stale: dict[str, dict[int, str]] = {}
    for key, ids in chosen.items():
        marks = {i: RETIRED for i in ids & retired}
        if key == "exchanges" and allowed:
            marks |= {i: NOT_ALLOWED for i in ids - allowed - retired}
        if marks:
            stale[key] = marks
    return stale


def deliverable(db: Session, *, advertiser_id: int, targeting: dict[str, Any]) -> dict[str, Any]:
    """The targeting without the values stale_values finds: what a DSP gets (it must never buy on a retired
    exchange, or on one the advertiser may no longer use), and what a clone or the buyer's clean-up keeps."""
    stale = stale_values(db, advertiser_id=advertiser_id, targeting=targeting)
    return {key: [i for i in value if i not in stale[key]] if key in stale else value
            for key, value in targeting.items()}


def _check_app_lists(db: Session, advertiser_id: int, out: dict[str, Any], errors: dict[str, str],
                     previous: dict[str, Any], smart_raw: Any) -> None:
    """Inventory lists must be the campaign advertiser's active lists on their own side; smart-app lists active
    ones (list_targeting.py)."""
    key = "inventory_lists"
    if f"targeting.{key}" not in errors:
        saved = previous.get(key) or {}
        problem = list_targeting.check_inventory_lists(
            db, advertiser_id=advertiser_id, allow=out[key]["allow"], block=out[key]["block"],
            kept=set(saved.get("allow") or []) | set(saved.get("block") or []))
        if problem:
            errors[f"targeting.{key}"] = problem
    smart = _ids(smart_raw)
    if smart is None:
        errors[f"targeting.{SMART_APP_KEY}"] = "Smart-app lists are given as a list of ids."
    elif problem := list_targeting.check_smart_app_lists(db, ids=smart, kept=previous.get(SMART_APP_KEY) or []):
        errors[f"targeting.{SMART_APP_KEY}"] = problem
    else:
        out[SMART_APP_KEY] = smart


def geo_fence_from_csv(text: str) -> tuple[str, str | None]:
    """(the `lat,long,radius|...` text, None) from an uploaded CSV of latitude, longitude, radius rows, or
    ("", a message naming the line) when a line is not three numbers. Commas, semicolons or tabs separate the
    columns (app/kernel/csv_uploads.py), and a semicolon or tab file may write decimal commas ("48,85;2,35;1,5").
    A first line that is not numeric is taken as a header; blank lines are skipped. The result is then checked by
    the geo-fence rule (limits)."""
    points: list[str] = []
    try:
        separator, table = csv_uploads.rows(text)
    except Invalid as unreadable:
        return "", unreadable.fields["file"]
    for number, row in enumerate(table, start=1):
        cells = [csv_uploads.number_text(cell, separator) for cell in row]
        if not any(cells):
            continue
        try:
            values = [float(cell) for cell in cells]
        except ValueError:
            if number == 1 and not points:
                continue  # a header such as "latitude,longitude,radius"
            return "", f"Line {number}: expected latitude, longitude and radius as numbers."
        if len(values) != 3:
            return "", f"Line {number}: expected latitude, longitude and radius as numbers."
        points.append(",".join(cells))
    if not points:
        return "", "The file holds no points."
    fence = "|".join(points)
    return fence, v.geo_fence(fence)
