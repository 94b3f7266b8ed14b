"""Reference lists the campaign pickers offer (exchanges, OS versions, browsers, manufacturers, carriers,
traffic types), managed on /admin/metadata.

A value that is in use is never deleted, only retired: whatever points at it keeps pointing at it, and
pickers (`active_values`) stop offering it. What counts as a use is declared in USAGE_COUNTERS, so later
features (campaign targeting, ...) add their counter with `register_usage_counter` and the rule follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app import validation as v
from app.auth.policy import Actor, require
from app.errors import Conflict, Invalid, NotFound
from app.models.base import utcnow
from app.models.campaign import TARGETING_REFERENCE_KEYS, Campaign
from app.models.reference import REFERENCE_KINDS, ReferenceValue
from app.models.user import UserSettings
from app.services import audit

NAME_MAX_LENGTH = 120
NAME_REQUIRED = "This field is required."
NAME_TOO_LONG = v.too_long(NAME_MAX_LENGTH)
NAME_TAKEN = "This name is already in the list."
IN_USE = "This value is in use; retire it instead."
GONE = "This value no longer exists."
UNKNOWN_KIND = "Not an allowed value."

# A usage counter answers, for some value ids of one kind, how many things use each: {value id: count}
# (ids nobody uses may be left out). One call per list, so a counter reads its table once, not once per value.
UsageCounter = Callable[[Session, Sequence[int]], Mapping[int, int]]


def _exchange_users(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
    """Accounts whose UserSettings.allowed_exchanges name the exchange. Counted in Python over the JSON
    lists, so SQLite and PostgreSQL agree (their JSON operators differ)."""
    wanted = set(value_ids)
    counts: dict[int, int] = {}
    for allowed in db.exec(select(UserSettings.allowed_exchanges)):
        for value_id in set(allowed or ()):
            if value_id in wanted:
                counts[value_id] = counts.get(value_id, 0) + 1
    return counts


def _campaign_users(targeting_key: str) -> UsageCounter:
    """Campaigns whose targeting names the value (under `targeting_key`), counted in Python as above."""
    def count(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
        wanted, counts = set(value_ids), Counter[int]()
        for targeting in db.exec(select(Campaign.targeting)):
            counts.update(value_id for value_id in set((targeting or {}).get(targeting_key, ())) if value_id in wanted)
        return dict(counts)
    return count


USAGE_COUNTERS: dict[str, list[UsageCounter]] = {kind: [] for kind in REFERENCE_KINDS}
USAGE_COUNTERS["exchange"].append(_exchange_users)
for _key, _kind in TARGETING_REFERENCE_KEYS.items():
    USAGE_COUNTERS[_kind].append(_campaign_users(_key))


def register_usage_counter(kind: str, counter: UsageCounter) -> None:
    """Declare another use of a kind's values (e.g. campaign targeting); used values cannot be deleted."""
    if kind not in USAGE_COUNTERS:
        raise KeyError(f"unknown reference kind {kind!r}")
    if counter not in USAGE_COUNTERS[kind]:
        USAGE_COUNTERS[kind].append(counter)


def usage_counts(db: Session, kind: str, value_ids: Sequence[int]) -> dict[int, int]:
    """{value id: number of uses} over every registered counter of the kind (0 for unused ids)."""
    totals = dict.fromkeys(value_ids, 0)
    if not value_ids:
        return totals
    for counter in USAGE_COUNTERS.get(kind, ()):
        for value_id, count in counter(db, value_ids).items():
            if value_id in totals:
                totals[value_id] += int(count)
    return totals


# --- reading -------------------------------------------------------------------------------------------


def _check_kind(kind: str) -> str:
    if kind not in REFERENCE_KINDS:
        raise Invalid({"kind": UNKNOWN_KIND})
    return kind


def _rows(db: Session, kind: str) -> list[ReferenceValue]:
    return list(db.exec(select(ReferenceValue).where(ReferenceValue.kind == kind)))


def _by_name(rows: list[ReferenceValue]) -> list[ReferenceValue]:
    return sorted(rows, key=lambda r: (r.name.casefold(), r.id or 0))


def _row(value: ReferenceValue, used: int) -> dict[str, Any]:
    return {"id": value.id, "kind": value.kind, "name": value.name, "retired": value.retired, "used": used,
            "created": value.created_at.isoformat(), "updated": value.updated_at.isoformat()}


def list_values(db: Session, *, actor: Actor, kind: str, include_retired: bool = True) -> list[dict[str, Any]]:
    """The admin page's rows, sorted by name: {id, kind, name, retired, used, created, updated}."""
    require(actor, "reference", "manage")
    _check_kind(kind)
    rows = [r for r in _by_name(_rows(db, kind)) if include_retired or not r.retired]
    used = usage_counts(db, kind, [r.id for r in rows if r.id is not None])
    return [_row(r, used.get(r.id or 0, 0)) for r in rows]


def kind_counts(db: Session, *, actor: Actor) -> dict[str, dict[str, int]]:
    """{kind: {"active": n, "retired": n}} for every kind, for the tab badges."""
    require(actor, "reference", "manage")
    counts = {kind: {"active": 0, "retired": 0} for kind in REFERENCE_KINDS}
    for kind, retired in db.exec(select(ReferenceValue.kind, ReferenceValue.retired)):
        if kind in counts:
            counts[kind]["retired" if retired else "active"] += 1
    return counts


def active_values(db: Session, *, actor: Actor, kind: str) -> list[dict[str, Any]]:
    """What a picker offers: the kind's values that are not retired, as {id, name}, sorted by name."""
    require(actor, "reference", "view")
    _check_kind(kind)
    return [{"id": r.id, "name": r.name} for r in _by_name(_rows(db, kind)) if not r.retired]


# --- writing -------------------------------------------------------------------------------------------


def clean_name(value: str | None) -> str:
    """Trimmed, with inner runs of whitespace made one space ("Index  Exchange " -> "Index Exchange")."""
    return " ".join((value or "").split())


def _check_name(db: Session, kind: str, name: str, *, except_id: int | None = None) -> None:
    if not name:
        raise Invalid({"name": NAME_REQUIRED})
    if len(name) > NAME_MAX_LENGTH:
        raise Invalid({"name": NAME_TOO_LONG})
    folded = name.casefold()
    if any(r.name.casefold() == folded and r.id != except_id for r in _rows(db, kind)):
        raise Invalid({"name": NAME_TAKEN})


def _flush(db: Session) -> None:
    try:
        db.flush()
    except IntegrityError as clash:  # two admins adding the same name at once: the unique index decides
        raise Invalid({"name": NAME_TAKEN}) from clash


def _get(db: Session, value_id: int) -> ReferenceValue:
    value = db.get(ReferenceValue, value_id)
    if value is None:
        raise NotFound(GONE)
    return value


def _snapshot(value: ReferenceValue) -> dict[str, Any]:
    return {"kind": value.kind, "name": value.name, "retired": value.retired}


def _public(db: Session, value: ReferenceValue) -> dict[str, Any]:
    assert value.id is not None
    return _row(value, usage_counts(db, value.kind, [value.id])[value.id])


def add_value(db: Session, *, actor: Actor, kind: str, name: str) -> dict[str, Any]:
    require(actor, "reference", "manage")
    _check_kind(kind)
    name = clean_name(name)
    _check_name(db, kind, name)
    value = ReferenceValue(kind=kind, name=name)
    db.add(value)
    _flush(db)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="create",
                 after=_snapshot(value))
    return _public(db, value)


def rename_value(db: Session, *, actor: Actor, value_id: int, name: str) -> dict[str, Any]:
    require(actor, "reference", "manage")
    value = _get(db, value_id)
    name = clean_name(name)
    if name == value.name:
        return _public(db, value)
    _check_name(db, value.kind, name, except_id=value.id)
    before = _snapshot(value)
    value.name = name
    value.updated_at = utcnow()
    db.add(value)
    _flush(db)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="rename",
                 before=before, after=_snapshot(value))
    return _public(db, value)


def set_retired(db: Session, *, actor: Actor, value_id: int, retired: bool) -> dict[str, Any]:
    """Retire (pickers stop offering it) or restore a value. Repeating it changes nothing."""
    require(actor, "reference", "manage")
    value = _get(db, value_id)
    if value.retired != bool(retired):
        before = _snapshot(value)
        value.retired = bool(retired)
        value.updated_at = utcnow()
        db.add(value)
        audit.record(db, actor=actor, entity="reference_value", entity_id=value.id,
                     action="retire" if retired else "restore", before=before, after=_snapshot(value))
    return _public(db, value)


def delete_value(db: Session, *, actor: Actor, value_id: int) -> dict[str, Any]:
    """Remove a value nothing uses; a used one raises Conflict (retire it instead)."""
    require(actor, "reference", "manage")
    value = _get(db, value_id)
    gone = _public(db, value)
    if gone["used"]:
        raise Conflict(IN_USE)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="delete",
                 before=_snapshot(value))
    db.delete(value)
    db.flush()
    return gone


# --- reference data ------------------------------------------------------------------------------------

# (name, retired): real-world names, a few retired ones so the demo shows both states.
REFERENCE_DATA: dict[str, tuple[tuple[str, bool], ...]] = {
    "exchange": tuple((n, False) for n in (
        "Google AdX", "OpenX", "PubMatic", "Magnite", "Index Exchange", "Xandr", "InMobi", "Smaato", "Unity Ads",
        "AppLovin")),
    "os_version": (("Android 11", True), ("Android 12", False), ("Android 13", False), ("Android 14", False),
                   ("Android 15", False), ("iOS 15", True), ("iOS 16", False), ("iOS 17", False), ("iOS 18", False)),
    "browser": tuple((n, False) for n in (
        "Chrome", "Safari", "Firefox", "Microsoft Edge", "Samsung Internet", "Opera")) + (("Internet Explorer", True),),
    "manufacturer": tuple((n, False) for n in (
        "Apple", "Samsung", "Google", "Xiaomi", "OnePlus", "Motorola", "Oppo", "Vivo", "Huawei", "Sony")),
    "carrier": tuple((n, False) for n in (
        "Verizon", "AT&T", "T-Mobile US", "Vodafone", "Orange", "Deutsche Telekom", "Telefónica", "Jio", "Airtel",
        "NTT Docomo")),
    "traffic_type": (("App", False), ("Web", False), ("CTV", False)),
}


def seed_reference_values(db: Session) -> int:
    """Add the reference data that is missing (by kind and case-insensitive name); returns how many were
    added. Running it again adds nothing and leaves renamed or retired values alone."""
    existing = {(r.kind, r.name.casefold()) for r in db.exec(select(ReferenceValue))}
    added = 0
    for kind, entries in REFERENCE_DATA.items():
        for name, retired in entries:
            if (kind, name.casefold()) not in existing:
                db.add(ReferenceValue(kind=kind, name=name, retired=retired))
                existing.add((kind, name.casefold()))
                added += 1
    db.flush()
    return added

