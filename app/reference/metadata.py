"""Reference lists the campaign pickers offer (exchanges, operating systems, OS versions, browsers,
manufacturers, carriers, traffic types), managed on /admin/metadata.

Two kinds carry a detail (DETAILS): an OS version names its operating system (`parent_id`), a carrier the
country it serves (`country`, ISO alpha-2). Campaign targeting uses them to keep chosen versions inside the
chosen systems and chosen carriers inside the chosen countries.

A value that is in use is never deleted, only retired: whatever points at it keeps pointing at it, and
pickers (`active_values`) stop offering it. What counts as a use is declared in USAGE_COUNTERS: this module
counts the uses it knows (accounts' allowed exchanges, an operating system's versions), and the domains above
that point at values add theirs with `register_usage_counter` (campaigns: app/campaigns/reference_usage.py;
DSPs), so the rule follows without this module knowing them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pycountry
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.access.models import UserSettings
from app.access.policy import Actor, require
from app.history import audit
from app.kernel import validation as v
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.hooks import Hook
from app.kernel.model_base import utcnow
from app.reference.models import REFERENCE_KINDS, ReferenceValue
from app.reference.schemas import (
    CarrierOption,
    KindCount,
    OsVersionOption,
    ReferenceOption,
    ReferenceValueRead,
    TrafficTypeOption,
    TrafficTypeRead,
)

NAME_MAX_LENGTH = 120
NAME_REQUIRED = "This field is required."
NAME_TOO_LONG = v.too_long(NAME_MAX_LENGTH)
NAME_TAKEN = "This name is already in the list."
IN_USE = "This value is in use; retire it instead."
GONE = "This value no longer exists."
UNKNOWN_KIND = "Not an allowed value."
CHOOSE_SYSTEM = "Choose an operating system from the list."
UNKNOWN_COUNTRY = "Choose a country from the list."
NO_DETAIL = "This list has no such detail."
# kind -> the detail its values carry.
DETAILS: dict[str, str] = {"os_version": "parent_id", "carrier": "country"}

# A usage counter answers, for some value ids of one kind, how many things use each: {value id: count}
# (ids nobody uses may be left out). One call per list, so a counter reads its table once, not once per value.
UsageCounter = Callable[[Session, Sequence[int]], Mapping[int, int]]
# The counters a kind cannot be judged without: campaigns name values of every kind (targeting, traffic type),
# and DSP connections name exchanges.
NEEDED_COUNTERS: dict[str, tuple[str, ...]] = {
    **{kind: ("campaigns",) for kind in REFERENCE_KINDS}, "exchange": ("campaigns", "dsps")}


def json_list_counter(column: Any, key: str | None = None) -> UsageCounter:
    """A UsageCounter over a JSON column that holds a list of value ids in each row (with `key`: a document whose
    `key` holds the list, as campaign targeting does): each row counts once for each id it names. Counted in
    Python over the lists, so SQLite and PostgreSQL agree (their JSON operators differ)."""
    def count(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
        wanted, counts = set(value_ids), Counter[int]()
        for document in db.exec(select(column)):
            chosen = (document or {}).get(key) if key is not None else document
            counts.update(set(chosen or ()) & wanted)
        return dict(counts)
    return count


def _child_versions(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
    """OS versions that belong to the operating system: deleting it would orphan them."""
    rows = db.exec(select(ReferenceValue.parent_id, func.count()).where(col(ReferenceValue.parent_id).in_(value_ids))
                   .group_by(col(ReferenceValue.parent_id)))
    return {int(parent): int(count) for parent, count in rows if parent is not None}


def traffic_type_code(name: str) -> str:
    """The code a campaign keeps for a traffic type value: its name in lower case, words joined by "_", cut to
    the campaign column's 8 characters ("CTV" -> "ctv", "App" -> "app")."""
    return "_".join(name.casefold().split())[:8]


def traffic_types(db: Session) -> list[TrafficTypeRead]:
    """Every traffic type with the code campaigns keep, retired ones too, by name."""
    return [TrafficTypeRead(code=traffic_type_code(r.name), name=r.name, retired=r.retired)
            for r in _by_name(_rows(db, "traffic_type"))]


# Who else uses each kind's values, by name. The domains that point at values register their counters
# (campaigns: app/campaigns/reference_usage.py; DSPs: app/dsps/reference_usage.py); a value is deleted only once every
# needed counter has said "unused".
USAGE_COUNTERS: dict[str, Hook[UsageCounter]] = {
    kind: Hook(f"uses of {kind} values", needed=NEEDED_COUNTERS.get(kind, ())) for kind in REFERENCE_KINDS}
# Accounts whose allowed exchanges name the exchange.
USAGE_COUNTERS["exchange"].register("accounts", json_list_counter(UserSettings.allowed_exchanges))
USAGE_COUNTERS["operating_system"].register("versions", _child_versions)


def register_usage_counter(kind: str, name: str, counter: UsageCounter) -> None:
    """Declare another use of a kind's values (e.g. campaign targeting); used values cannot be deleted."""
    if kind not in USAGE_COUNTERS:
        raise KeyError(f"unknown reference kind {kind!r}")
    USAGE_COUNTERS[kind].register(name, counter)


def usage_counts(db: Session, kind: str, value_ids: Sequence[int]) -> dict[int, int]:
    """{value id: number of uses} over every registered counter of the kind (0 for unused ids)."""
    totals = dict.fromkeys(value_ids, 0)
    if not value_ids:
        return totals
    for counter in USAGE_COUNTERS[kind].handlers() if kind in USAGE_COUNTERS else ():
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


def names_by_id(db: Session, ids: Iterable[int]) -> dict[int, str]:
    """{id: name} of reference values (retired ones too: old records still name them), in one query."""
    wanted = set(ids)
    if not wanted:
        return {}
    return {i: n for i, n in db.exec(select(col(ReferenceValue.id), ReferenceValue.name)
                                          .where(col(ReferenceValue.id).in_(wanted))) if i}


def _parent_names(db: Session, rows: Sequence[ReferenceValue]) -> dict[int, str]:
    return names_by_id(db, (r.parent_id for r in rows if r.parent_id is not None))


def _row(value: ReferenceValue, used: int, parents: Mapping[int, str]) -> ReferenceValueRead:
    assert value.id is not None
    return ReferenceValueRead(id=value.id, kind=value.kind, name=value.name, retired=value.retired, used=used,
                              parent_id=value.parent_id, parent=parents.get(value.parent_id or 0, ""),
                              country=value.country, created=value.created_at.isoformat(),
                              updated=value.updated_at.isoformat())


def list_values(db: Session, *, actor: Actor, kind: str, include_retired: bool = True) -> list[ReferenceValueRead]:
    """The admin page's rows, sorted by name: {id, kind, name, retired, used, parent_id, parent (the operating
    system's name), country, created, updated}."""
    require(actor, "reference", "manage")
    _check_kind(kind)
    rows = [r for r in _by_name(_rows(db, kind)) if include_retired or not r.retired]
    used = usage_counts(db, kind, [r.id for r in rows if r.id is not None])
    parents = _parent_names(db, rows)
    return [_row(r, used.get(r.id or 0, 0), parents) for r in rows]


def kind_counts(db: Session, *, actor: Actor) -> dict[str, KindCount]:
    """{kind: {active, retired}} for every kind, for the tab badges."""
    require(actor, "reference", "manage")
    counts = {kind: KindCount(active=0, retired=0) for kind in REFERENCE_KINDS}
    for kind, retired in db.exec(select(ReferenceValue.kind, ReferenceValue.retired)):
        if kind in counts:
            if retired:
                counts[kind].retired += 1
            else:
                counts[kind].active += 1
    return counts


def active_values(db: Session, *, actor: Actor, kind: str, parent_id: int | None = None,
                  country: str = "") -> list[ReferenceOption]:
    """What a picker offers: the kind's values that are not retired, as {id, name}, sorted by name; OS versions
    also carry `parent_id`, carriers `country`, traffic types the `code` campaigns keep. `parent_id` keeps one operating system's versions, `country`
    one country's carriers."""
    require(actor, "reference", "view")
    _check_kind(kind)
    wanted_country = country.strip().upper()
    rows = [r for r in _by_name(_rows(db, kind)) if not r.retired
            and (parent_id is None or r.parent_id == parent_id) and (not wanted_country or r.country == wanted_country)]
    return [_option(r) for r in rows]


def _option(value: ReferenceValue) -> ReferenceOption:
    """A picker's row: the kind's own detail beside {id, name}."""
    assert value.id is not None
    if value.kind == "os_version":
        return OsVersionOption(id=value.id, name=value.name, parent_id=value.parent_id)
    if value.kind == "carrier":
        return CarrierOption(id=value.id, name=value.name, country=value.country)
    if value.kind == "traffic_type":
        return TrafficTypeOption(id=value.id, name=value.name, code=traffic_type_code(value.name))
    return ReferenceOption(id=value.id, name=value.name)


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
    return {"kind": value.kind, "name": value.name, "retired": value.retired, "parent_id": value.parent_id,
            "country": value.country}


def _public(db: Session, value: ReferenceValue) -> ReferenceValueRead:
    assert value.id is not None
    return _row(value, usage_counts(db, value.kind, [value.id])[value.id], _parent_names(db, [value]))


def _checked_details(db: Session, kind: str, parent_id: int | None, country: str | None, *,
                     current_parent: int | None = None) -> tuple[int | None, str | None]:
    """(parent_id, country) for a value of `kind`: only the kind's own detail may be given; a parent is an
    active operating system (the one it already has may stay, even retired), a country an ISO alpha-2 code."""
    detail = DETAILS.get(kind)
    if parent_id is not None and detail != "parent_id":
        raise Invalid({"parent_id": NO_DETAIL})
    if country and detail != "country":
        raise Invalid({"country": NO_DETAIL})
    if parent_id is not None and parent_id != current_parent:
        parent = db.get(ReferenceValue, parent_id)
        if parent is None or parent.kind != "operating_system" or parent.retired:
            raise Invalid({"parent_id": CHOOSE_SYSTEM})
    code = (country or "").strip().upper() or None
    if code and pycountry.countries.get(alpha_2=code) is None:
        raise Invalid({"country": UNKNOWN_COUNTRY})
    return parent_id, code


def add_value(db: Session, *, actor: Actor, kind: str, name: str, parent_id: int | None = None,
              country: str | None = None) -> ReferenceValueRead:
    """Add a value; an OS version may name its operating system (`parent_id`), a carrier its country."""
    require(actor, "reference", "manage")
    _check_kind(kind)
    name = clean_name(name)
    _check_name(db, kind, name)
    parent_id, country = _checked_details(db, kind, parent_id, country)
    value = ReferenceValue(kind=kind, name=name, parent_id=parent_id, country=country)
    db.add(value)
    _flush(db)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="create",
                 after=_snapshot(value))
    return _public(db, value)


def rename_value(db: Session, *, actor: Actor, value_id: int, name: str) -> ReferenceValueRead:
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


def edit_value(db: Session, *, actor: Actor, value_id: int, name: str | None = None, parent_id: int | None = None,
               country: str | None = None) -> ReferenceValueRead:
    """The edit form's save: the name (None keeps it) and the kind's detail together (None or "" clears it)."""
    require(actor, "reference", "manage")
    value = _get(db, value_id)
    name = value.name if name is None else clean_name(name)
    if name != value.name:
        _check_name(db, value.kind, name, except_id=value.id)
    parent_id, country = _checked_details(db, value.kind, parent_id, country, current_parent=value.parent_id)
    before = _snapshot(value)
    value.name, value.parent_id, value.country = name, parent_id, country
    after = _snapshot(value)
    if after == before:
        return _public(db, value)
    value.updated_at = utcnow()
    db.add(value)
    _flush(db)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="edit",
                 before={k: before[k] for k in before if before[k] != after[k]},
                 after={k: after[k] for k in after if before[k] != after[k]})
    return _public(db, value)


def set_retired(db: Session, *, actor: Actor, value_id: int, retired: bool) -> ReferenceValueRead:
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


def delete_value(db: Session, *, actor: Actor, value_id: int) -> ReferenceValueRead:
    """Remove a value nothing uses; a used one raises Conflict (retire it instead)."""
    require(actor, "reference", "manage")
    value = _get(db, value_id)
    gone = _public(db, value)
    if gone.used:
        raise Conflict(IN_USE)
    audit.record(db, actor=actor, entity="reference_value", entity_id=value.id, action="delete",
                 before=_snapshot(value))
    db.delete(value)
    db.flush()
    return gone


# --- reference data ------------------------------------------------------------------------------------

# (name, retired): real-world names, a few retired ones so the demo shows both states. Operating systems come
# before their versions, so a version can be linked to its system as it is added.
REFERENCE_DATA: dict[str, tuple[tuple[str, bool], ...]] = {
    "exchange": tuple((n, False) for n in (
        "Google AdX", "OpenX", "PubMatic", "Magnite", "Index Exchange", "Xandr", "InMobi", "Smaato", "Unity Ads",
        "AppLovin")),
    "operating_system": tuple((n, False) for n in (
        "Android", "iOS", "iPadOS", "Windows", "macOS", "Linux", "ChromeOS", "tvOS")),
    "os_version": (("Android 11", True), ("Android 12", False), ("Android 13", False), ("Android 14", False),
                   ("Android 15", False), ("iOS 15", True), ("iOS 16", False), ("iOS 17", False), ("iOS 18", False),
                   ("iPadOS 17", False), ("iPadOS 18", False), ("Windows 10", False), ("Windows 11", False),
                   ("macOS 14", False), ("macOS 15", False), ("tvOS 17", False), ("tvOS 18", False)),
    "browser": tuple((n, False) for n in (
        "Chrome", "Safari", "Firefox", "Microsoft Edge", "Samsung Internet", "Opera")) + (("Internet Explorer", True),),
    "manufacturer": tuple((n, False) for n in (
        "Apple", "Samsung", "Google", "Xiaomi", "OnePlus", "Motorola", "Oppo", "Vivo", "Huawei", "Sony")),
    "carrier": tuple((n, False) for n in (
        "Verizon", "AT&T", "T-Mobile US", "Vodafone", "Orange", "Deutsche Telekom", "Telefónica", "Jio", "Airtel",
        "NTT Docomo", "Vodafone Germany", "O2 Germany", "Rogers", "Telstra")),
    "traffic_type": (("App", False), ("Web", False), ("CTV", False)),
}
# The home country of each seeded carrier (Vodafone, Orange and Telefónica serve many; their home market here).
CARRIER_COUNTRIES: dict[str, str] = {
    "Verizon": "US", "AT&T": "US", "T-Mobile US": "US", "Vodafone": "GB", "Orange": "FR", "Deutsche Telekom": "DE",
    "Telefónica": "ES", "Jio": "IN", "Airtel": "IN", "NTT Docomo": "JP", "Vodafone Germany": "DE",
    "O2 Germany": "DE", "Rogers": "CA", "Telstra": "AU",
}


def _system_of(version_name: str, systems: Mapping[str, int]) -> int | None:
    """The operating system a version's name starts with ("iPadOS 17" -> iPadOS, not iOS)."""
    folded = version_name.casefold()
    matches = [name for name in systems if folded.startswith(name + " ")]
    return systems[max(matches, key=len)] if matches else None


def link_reference_details(db: Session) -> int:
    """Give OS versions without a system, and carriers without a country, the ones their names say (the seeded
    names only); returns how many were linked. Details an admin has set are left alone."""
    db.flush()
    systems = {r.name.casefold(): r.id for r in _rows(db, "operating_system") if r.id is not None}
    linked = 0
    for value in _rows(db, "os_version"):
        if value.parent_id is None and (system := _system_of(value.name, systems)) is not None:
            value.parent_id = system
            db.add(value)
            linked += 1
    for value in _rows(db, "carrier"):
        if value.country is None and value.name in CARRIER_COUNTRIES:
            value.country = CARRIER_COUNTRIES[value.name]
            db.add(value)
            linked += 1
    db.flush()
    return linked


def seed_reference_values(db: Session, *, kinds: Sequence[str] = tuple(REFERENCE_DATA)) -> int:
    """Add the reference data of `kinds` that is missing (by kind and case-insensitive name), linking the added
    versions to their systems and carriers to their countries; returns how many values were added. Running it
    again adds nothing and leaves renamed or retired values alone."""
    existing = {(r.kind, r.name.casefold()) for r in db.exec(select(ReferenceValue))}
    added: list[ReferenceValue] = []
    for kind, entries in REFERENCE_DATA.items():
        if kind not in kinds:
            continue
        for name, retired in entries:
            if (kind, name.casefold()) not in existing:
                value = ReferenceValue(kind=kind, name=name, retired=retired)
                db.add(value)
                added.append(value)
                existing.add((kind, name.casefold()))
        db.flush()  # the systems get their ids before their versions look them up
    systems = {r.name.casefold(): r.id for r in _rows(db, "operating_system") if r.id is not None}
    for value in added:
        if value.kind == "os_version":
            value.parent_id = _system_of(value.name, systems)
        elif value.kind == "carrier":
            value.country = CARRIER_COUNTRIES.get(value.name)
        db.add(value)
    db.flush()
    return len(added)
