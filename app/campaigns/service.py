"""Campaigns: create, read, list, edit, clone, change status, archive. Every function checks the actor's
permission, then the row scope (an agency reaches its advertisers' campaigns, an advertiser its own; a
campaign out of scope answers exactly like a missing one), and audits each write in the same transaction.

Forms and the API send money as dollar amounts ("12.50") and times as ISO 8601; rows keep integer micros
and UTC. A bad field raises Invalid naming it, and nothing is saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import DateTime, TypeDecorator, type_coerce
from sqlmodel import Session, col, func, select

from app.access.models import SHOWN_NAME_SQL, User, UserStatus
from app.access.policy import Actor, advertiser_for_new, advertiser_rows, can_see_user, require
from app.access.roles import Role
from app.campaigns import exchange_approvals, flight
from app.campaigns.models import (
    BID_STRATEGIES,
    ENDED,
    ENDS_SHOWN,
    FREQUENCY_PERIODS,
    GOAL_METRICS,
    OBJECTIVES,
    PACING,
    STATUS_TRANSITIONS,
    TARGETING_REFERENCE_KEYS,
    Campaign,
    CampaignStatus,
    as_utc,
    flight_ended,
    next_statuses,
    shown_status,
)
from app.campaigns.schemas import (
    AdvertiserChoice,
    CampaignClone,
    CampaignDescription,
    CampaignListPage,
    CampaignListRow,
    CampaignRead,
    CampaignUpdate,
    CloneDraft,
    ClonePlan,
    StaleValue,
)
from app.campaigns.scope import campaign_in_scope
from app.campaigns.targeting import clean_targeting, deliverable, stale_values
from app.history import audit, versions
from app.history import status as status_machine
from app.kernel import money
from app.kernel import validation as v
from app.kernel.choices import filter_choice
from app.kernel.db import select_columns
from app.kernel.errors import Invalid
from app.kernel.grid_search import every_word
from app.kernel.hooks import Hook
from app.kernel.i18n.catalog import Message
from app.kernel.model_base import utcnow
from app.kernel.money import MICROS_PER_DOLLAR
from app.kernel.numbered_pages import check_page
from app.kernel.paging import (
    DEFAULT_LIMIT,
    Page,
    after_condition,
    check_limit,
    decode_cursor,
    next_cursor,
)
from app.reference import geo, metadata
from app.reference.models import ReferenceValue
from app.supply import list_targeting
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, whole

FLIGHT_OVER = "This end date has passed: choose one in the future."
CLONE_NEEDS_DATES = "The original's flight has ended: give the clone new dates."
EXTEND_TO_ACTIVATE = "This campaign's flight has ended: extend the end date before activating it."
NAME_MAX_LENGTH = 120
# The settings a campaign form edits (status has its own call, the advertiser is fixed at creation).
EDITABLE = ("name", "objective", "starts_at", "ends_at", "time_zone", "total_budget", "daily_budget", "pacing",
            "bid_strategy", "bid", "bid_min", "bid_max", "frequency_cap", "frequency_period", "traffic_type",
            "goal_metric", "goal_target", "targeting")
_COPY_SUFFIX = re.compile(r" copy(?: \d+)?$", re.IGNORECASE)  # what _copy_name adds
MONEY_FIELDS = {"total_budget": "total_budget_micros", "daily_budget": "daily_budget_micros", "bid": "bid_micros",
                 "bid_min": "bid_min_micros", "bid_max": "bid_max_micros"}


# --- reading -------------------------------------------------------------------------------------------

def _dollars(micros: int | None) -> str | None:
    """Micros as dollar text with cents, rounded half to even like Decimal.quantize. Integer arithmetic: the
    list calls this three times a row, and Decimal made it a quarter of a 10,000-row list's time."""
    if micros is None:
        return None
    if micros < 0:
        return str((Decimal(micros) / MICROS_PER_DOLLAR).quantize(Decimal("0.01")))
    cents, rest = divmod(micros, MICROS_PER_DOLLAR // 100)
    if rest * 2 > MICROS_PER_DOLLAR // 100 or (rest * 2 == MICROS_PER_DOLLAR // 100 and cents % 2):
        cents += 1
    return f"{cents // 100}.{cents % 100:02d}"


def _shown(campaign: Campaign, advertiser: User) -> dict[str, Any]:
    """public()'s fields, as plain values (an edit merges what it was sent into them)."""
    row = campaign.model_dump(exclude={"targeting", *MONEY_FIELDS.values()})
    row.update({field: _dollars(getattr(campaign, column)) for field, column in MONEY_FIELDS.items()})
    row.update(advertiser=advertiser.account_name, targeting=dict(campaign.targeting),
               **flight.shown(campaign.starts_at, campaign.ends_at, campaign.time_zone),
               created_at=campaign.created_at.isoformat(), updated_at=campaign.updated_at.isoformat(),
               shown_status=shown_status(campaign.status, campaign.ends_at),
               next_statuses=sorted(next_statuses(campaign.status, campaign.ends_at)))
    return row


def public(campaign: Campaign, advertiser: User) -> CampaignRead:
    """A campaign as pages and the API show it (money in dollars as decimal text, times in ISO 8601)."""
    return CampaignRead.model_validate(_shown(campaign, advertiser))


class _NaiveUTC(TypeDecorator[datetime]):
    """A UTC time read as a naive datetime (as SQLite stores it; PostgreSQL's aware value is converted). The list
    formats three per row: a naive datetime formats four times faster than an aware one, a tenth of a
    10,000-row list's time."""

    impl = DateTime
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None or value.utcoffset() is None:
            return value
        return value.astimezone(UTC).replace(tzinfo=None)


def _utc_text(value: datetime | None) -> str | None:
    """A naive UTC time as the ISO text an aware one gives ("...+00:00")."""
    return None if value is None else value.isoformat() + "+00:00"


def get_campaign(db: Session, *, actor: Actor, campaign_id: int) -> CampaignRead:
    require(actor, "campaign", "view")
    return public(*campaign_in_scope(db, actor, campaign_id))


def describe_campaign(db: Session, *, actor: Actor, campaign_id: int,
                      language: str | None = None) -> CampaignDescription:
    """A campaign with the names behind its targeting codes and ids (the view page): its names per targeting key
    (countries, regions, cities, languages, <reference keys>; countries, regions and languages in `language`), and
    per reference key the values it could not choose today, with why (retired / not_allowed)."""
    campaign = get_campaign(db, actor=actor, campaign_id=campaign_id)
    names = targeting_names(db, campaign.targeting.model_dump(), language)
    return CampaignDescription(campaign=campaign, names=names,
                               stale=stale_targeting(db, campaign))


def stale_targeting(db: Session, campaign: CampaignRead) -> dict[str, list[StaleValue]]:
    """A campaign's reference values that are retired, or exchanges off its advertiser's allowed list:
    {key: [{id, name, reason}]}. They stay on the campaign until the buyer removes them, and are never sent to a
    DSP."""
    stale = stale_values(db, advertiser_id=campaign.advertiser_id, targeting=campaign.targeting.model_dump())
    names = metadata.names_by_id(db, [i for marks in stale.values() for i in marks])
    return {key: [StaleValue(id=i, name=names.get(i, f"#{i}"), reason=why) for i, why in sorted(marks.items())]
            for key, marks in stale.items()}


def remove_stale_targeting(db: Session, *, actor: Actor, campaign_id: int) -> CampaignRead:
    """Take a campaign's retired and no-longer-allowed reference values off its targeting (an edit of that alone)."""
    require(actor, "campaign", "update")
    campaign = get_campaign(db, actor=actor, campaign_id=campaign_id)
    targeting = deliverable(db, advertiser_id=campaign.advertiser_id, targeting=campaign.targeting.model_dump())
    return update_campaign(db, actor=actor, campaign_id=campaign_id, data=CampaignUpdate(targeting=targeting))


def targeting_names(db: Session, targeting: dict[str, Any], language: str | None = None) -> dict[str, list[str]]:
    """Readable names for a targeting document's codes and ids (unknown ones keep their code); countries, regions
    and languages named in `language` (English by default)."""
    def region(code: str) -> str:
        name = geo.region_name(code, language)
        return f"{name} ({code.split('-')[0]})" if name != code else code

    cities = geo.cities_by_id(list(targeting.get("cities") or []))
    ids = [i for key in TARGETING_REFERENCE_KEYS for i in targeting.get(key) or []]
    reference = {r.id: r.name for r in db.exec(select(ReferenceValue).where(col(ReferenceValue.id).in_(ids)))} \
        if ids else {}
    names = {"countries": [geo.country_name(c, language) for c in targeting.get("countries") or []],
             "regions": [region(c) for c in targeting.get("regions") or []],
             "cities": [f"{cities[i].name} ({cities[i].country})" if i in cities else f"#{i}"
                        for i in targeting.get("cities") or []],
             "languages": [geo.language_name(c, language) for c in targeting.get("languages") or []]}
    for key in TARGETING_REFERENCE_KEYS:
        names[key] = [reference.get(i, f"#{i}") for i in targeting.get(key) or []]
    names.update(list_targeting.names(db, targeting))  # inventory_allow, inventory_block, smart_apps
    return names


def _scope_filter(actor: Actor) -> Any:
    """The SQL condition for the campaigns an actor may see."""
    return advertiser_rows(actor, Campaign.advertiser_id)


# The list's columns (the keys of each list_campaigns row), in the list's order; exports and sorting name them.
LIST_COLUMNS = ("id", "name", "status", "objective", "advertiser_id", "advertiser", "starts_at", "ends_at",
                "total_budget", "daily_budget", "bid_strategy", "bid", "traffic_type", "updated_at")
# The advertiser column shows the company, or the person's name when there is none (SHOWN_NAME_SQL): sorting
# follows that.
_SORT_KEYS: dict[str, Any] = {
    # Names sort as people read them ("Wave 2" before "Wave 10"), as the grid's collator did in the browser: by their
    # stored natural-order keys (app/kernel/natural_order.py), indexed like every column here (models.SORTED_COLUMNS).
    "id": Campaign.id, "name": Campaign.name_key, "status": Campaign.status, "objective": Campaign.objective,
    "advertiser_id": Campaign.advertiser_id, "advertiser": User.name_key,
    "starts_at": Campaign.starts_at, "ends_at": Campaign.ends_at, "total_budget": Campaign.total_budget_micros,
    "daily_budget": Campaign.daily_budget_micros, "bid_strategy": Campaign.bid_strategy, "bid": Campaign.bid_micros,
    "traffic_type": Campaign.traffic_type, "updated_at": Campaign.updated_at,
}
DEFAULT_SORT = "-updated_at"
API_DEFAULT_SORT = "-id"  # paged by the API: an order no save moves (app/kernel/keyset_pages.newest_first)


def _order(sort: str) -> list[Any]:
    """ORDER BY for a list column, "-" first for descending; ties by id in the same direction, so rows of
    equal values keep one order."""
    text = (sort or DEFAULT_SORT).strip()
    descending, column = text.startswith("-"), text.lstrip("-")
    if column not in _SORT_KEYS:
        raise Invalid({"sort": f"Sort by one of: {', '.join(LIST_COLUMNS)} (a leading - for descending)."})
    key, tie = _SORT_KEYS[column], col(Campaign.id)
    if column == "id":
        return [tie.desc() if descending else tie.asc()]
    # Empty values (no end date, no daily budget) last either way, on SQLite and PostgreSQL alike.
    if descending:
        return [key.desc().nulls_last(), tie.desc()]
    return [key.asc().nulls_last(), tie.asc()]


def _listed(actor: Actor, *, advertiser_id: int | None, status: str, search: str, include_archived: bool,
            now: datetime) -> Any:
    """The campaign list's query before its order: the actor's scope, one advertiser, the status filter (as the
    list shows statuses) and the search, all in SQL, with the list's columns."""
    filter_choice("status", status, (*CampaignStatus, ENDED))
    query = (select_columns(Campaign.id, Campaign.name, Campaign.status, Campaign.objective, Campaign.advertiser_id,
                            User.first_name, User.last_name, User.company_name, type_coerce(Campaign.starts_at, _NaiveUTC()),
                            type_coerce(Campaign.ends_at, _NaiveUTC()), Campaign.total_budget_micros,
                            Campaign.daily_budget_micros, Campaign.bid_strategy, Campaign.bid_micros, Campaign.traffic_type,
                            type_coerce(Campaign.updated_at, _NaiveUTC()), Campaign.time_zone, Campaign.version)
             .join(User, col(User.id) == Campaign.advertiser_id)
             .where(_scope_filter(actor)))
    if advertiser_id is not None:
        query = query.where(Campaign.advertiser_id == advertiser_id)
    over = col(Campaign.ends_at).is_not(None) & (col(Campaign.ends_at) <= now)
    if status == ENDED:
        query = query.where(col(Campaign.status).in_(ENDS_SHOWN), over)
    elif status:
        query = query.where(Campaign.status == status)
        if status in ENDS_SHOWN:  # an ended campaign shows (and filters) as ended, not as its stored status
            query = query.where(~over)
    elif not include_archived:
        query = query.where(Campaign.status != CampaignStatus.ARCHIVED)
    return query.where(*every_word(search, Campaign.name, SHOWN_NAME_SQL))


def listed_query(actor: Actor, *, advertiser_id: int | None, status: str, search: str, include_archived: bool) -> Any:
    """The list's filtered query as of now, for a caller that orders or narrows it itself (list_figures)."""
    return _listed(actor, advertiser_id=advertiser_id, status=status, search=search,
                   include_archived=include_archived, now=datetime.now(UTC))


def _list_rows(db: Session, query: Any, now: datetime) -> list[CampaignListRow]:
    # Through the connection, not the ORM session: plain tuples, without the ORM's per-row loading work. The
    # connection does not autoflush, so this unit of work's pending changes are flushed first.
    db.flush()
    return _as_list_rows(db.connection().execute(query).all(), now)


def _as_list_rows(rows: Sequence[Any], now: datetime) -> list[CampaignListRow]:
    # Built unchecked (model_construct): every value comes typed from the columns above, and the list runs to tens
    # of thousands of rows.
    return [CampaignListRow.model_construct(
        None, id=r[0], name=r[1], status=r[2], objective=r[3], advertiser_id=r[4],
        advertiser=_advertiser_text(r[7], r[5], r[6]), **flight.shown(r[8], r[9], r[16]), total_budget=_dollars(r[10]),
        daily_budget=_dollars(r[11]), bid_strategy=r[12], bid=_dollars(r[13]), traffic_type=r[14],
        updated_at=_utc_text(r[15]), time_zone=r[16], shown_status=shown_status(r[2], r[9], now),
        version=r[17]) for r in rows]


def _advertiser_text(company: str | None, first: str, last: str) -> str:
    return company or f"{first} {last}".strip()


def list_campaigns(db: Session, *, actor: Actor, advertiser_id: int | None = None, status: str = "",
                   search: str = "", include_archived: bool = False, sort: str = "") -> list[CampaignListRow]:
    """The campaign list: columns only (no ORM entities), so it stays fast at tens of thousands of rows.
    `sort` is a list column, "-" first for descending (default: newest change first)."""
    require(actor, "campaign", "view")
    order, now = _order(sort), datetime.now(UTC)
    query = _listed(actor, advertiser_id=advertiser_id, status=status, search=search,
                    include_archived=include_archived, now=now)
    return _list_rows(db, query.order_by(*order), now)



def list_campaigns_page(db: Session, *, actor: Actor, advertiser_id: int | None = None, status: str = "",
                        search: str = "", include_archived: bool = False, sort: str = "", page: int = 1,
                        page_size: int = 50, ids: Sequence[int] | None = None) -> CampaignListPage:
    """One page of the campaign list (pages count from 1) and the total its filters match: the same rows, filters
    and order as list_campaigns, with only the page's rows read (LIMIT/OFFSET) and the total by a COUNT. A page
    past the last gives no rows and the total. `ids`: only these campaigns (a bulk page's "selected only")."""
    require(actor, "campaign", "view")
    check_page(page, page_size, things="campaigns")
    order, now = _order(sort), datetime.now(UTC)
    query = _listed(actor, advertiser_id=advertiser_id, status=status, search=search,
                    include_archived=include_archived, now=now)
    if ids is not None:
        query = query.where(col(Campaign.id).in_(ids))
    db.flush()
    first = (page - 1) * page_size
    total = db.connection().execute(select_columns(func.count()).select_from(query.subquery())).scalar_one()
    rows = _list_rows(db, query.order_by(*order).limit(page_size).offset(first), now)
    return CampaignListPage(rows=rows, total=int(total), page=page, page_size=page_size)


def campaigns_api_page(db: Session, *, actor: Actor, advertiser_id: int | None = None, status: str = "",
                       search: str = "", include_archived: bool = False, sort: str = "", limit: int = DEFAULT_LIMIT,
                       cursor: str | None = None) -> Page[CampaignListRow]:
    """The API's campaign list, a page at a time (app/kernel/paging.py): the same rows, filters and order as
    list_campaigns, read by keyset from the cursor's position, so inserts between two reads neither repeat nor
    skip a campaign; `total` by a COUNT (milliseconds at tens of thousands). Newest first by id unless `sort`
    names a column: a save moves no campaign in that order."""
    require(actor, "campaign", "view")
    check_limit(limit)
    sort = sort or API_DEFAULT_SORT
    order, now, text = _order(sort), datetime.now(UTC), (sort or DEFAULT_SORT).strip()
    descending, column = text.startswith("-"), text.lstrip("-")
    scope = {"list": "campaigns", "advertiser_id": advertiser_id, "status": status, "search": search,
             "include_archived": include_archived, "sort": text}
    after = decode_cursor(cursor, scope)
    query = _listed(actor, advertiser_id=advertiser_id, status=status, search=search,
                    include_archived=include_archived, now=now)
    db.flush()
    total = db.connection().execute(select_columns(func.count()).select_from(query.subquery())).scalar_one()
    key = None if column == "id" else _SORT_KEYS[column]
    if after is not None:
        query = query.where(after_condition(key, col(Campaign.id), after, descending=descending))
    if key is not None:  # the raw sort value rides along, for the cursor
        query = query.add_columns(key)
    raw = db.connection().execute(query.order_by(*order).limit(limit + 1)).all()
    shown = raw[:limit]
    return Page[CampaignListRow](
        items=_as_list_rows(shown, now), total=int(total), limit=limit,
        next_cursor=next_cursor(raw, limit, scope, lambda r: (r[18] if key is not None else None, r[0])))


def advertiser_choices(db: Session, *, actor: Actor) -> list[AdvertiserChoice]:
    """The active advertisers the actor may create campaigns for: {id, name}, by name (an advertiser: itself)."""
    require(actor, "campaign", "create")
    query = select(User).where(User.role == Role.ADVERTISER, User.status == UserStatus.ACTIVE)
    if actor.role == Role.AGENCY:
        query = query.where(User.agency_id == actor.id)
    elif actor.role == Role.ADVERTISER:
        query = query.where(User.id == actor.id)
    rows = [AdvertiserChoice(id=u.id, name=u.account_name) for u in db.exec(query)
            if u.id is not None and can_see_user(actor, u)]
    return sorted(rows, key=lambda row: row.name.casefold())


# --- checking input ------------------------------------------------------------------------------------

def spent_micros(campaign: Campaign) -> int:
    """What a campaign has spent so far, in micro-dollars: its delivery in the statistics store (the ledger
    charges spend per advertiser, so only the store knows it per campaign), over all time."""
    if campaign.id is None:
        return 0
    rows = get_store().query(StatsQuery(start=date(2000, 1, 1), end=datetime.now(UTC).date() + timedelta(days=1),
                                        metrics=("spend",), advertiser_ids=(campaign.advertiser_id,),
                                        filters={"campaign_id": (campaign.id,)}))
    return whole(rows[0].get("spend_micros")) if rows else 0


# The amounts that keep an order, smaller first: {field: the message when that side is to blame}. The side that
# changed is to blame; when both or neither did (a new campaign, a clone), the first named.
AMOUNT_ORDER: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("daily_budget", "total_budget", {"daily_budget": "The daily budget cannot exceed the total budget.",
                                      "total_budget": "The total budget cannot be below the daily budget."}),
    ("bid_min", "bid_max", {"bid_max": "The highest bid must not be below the lowest.",
                            "bid_min": "The lowest bid cannot be above the highest bid."}),
    ("bid", "bid_max", {"bid": "The bid cannot exceed the highest bid.",
                        "bid_max": "The highest bid cannot be below the bid."}),
    ("bid_min", "bid", {"bid": "The bid cannot be below the lowest bid.",
                        "bid_min": "The lowest bid cannot be above the bid."}),
)
REQUIRED_MONEY = ("total_budget", "bid")
BELOW_SPENT = "The total budget cannot be below the {spent} already spent."


def _amount_order(micros: dict[str, int | None], changed: set[str] | None, errors: dict[str, str]) -> None:
    """Daily budget <= total budget, lowest bid <= bid <= highest bid: each broken pair as an error on the side
    to blame (a pair with an unreadable side is left to that side's own error). With `changed` (an edit) only the
    pairs it touches; None: every pair (a new campaign, a clone)."""
    for small, large, messages in AMOUNT_ORDER:
        low, high = micros.get(small), micros.get(large)
        sides = [field for field in messages if changed is not None and field in changed]
        if changed is not None and not sides:
            continue  # an edit validates only what it changed
        if low is None or high is None or low <= high or small in errors or large in errors:
            continue
        blamed = sides[0] if len(sides) == 1 else next(iter(messages))
        errors[blamed] = messages[blamed]


def _amounts(data: dict[str, Any], errors: dict[str, str], stored: Campaign | None,
             changed: set[str]) -> dict[str, int | None]:
    """Column values (micros) for the money fields, read by the one money parser. On an edit (`stored`) only the
    `changed` fields are read; the others keep their stored micros unread (an edit validates only what it
    changed), yet a changed side of a pair is checked against the other side's stored value, and a new total
    budget against what the campaign has already spent."""
    micros: dict[str, int | None] = {}
    for field, column in MONEY_FIELDS.items():
        if stored is not None and field not in changed:
            micros[field] = getattr(stored, column)
            continue
        micros[field], problem = money.micros_or_none(data.get(field), field=field, required=field in REQUIRED_MONEY)
        if problem:
            errors[field] = problem
    if micros["total_budget"] == 0 and "total_budget" in changed and "total_budget" not in errors:
        errors["total_budget"] = "The budget must be more than zero."
    _amount_order(micros, changed if stored is not None else None, errors)
    total = micros["total_budget"]
    if stored is not None and "total_budget" in changed and "total_budget" not in errors and total is not None:
        spent = spent_micros(stored)
        if total < spent:
            errors["total_budget"] = Message(BELOW_SPENT, spent=money.shown(Decimal(spent) / MICROS_PER_DOLLAR))
    return {column: micros[field] for field, column in MONEY_FIELDS.items()}


def _choice(value: Any, allowed: tuple[str, ...], errors: dict[str, str], field: str) -> str:
    text = str(value or "").strip()
    if text not in allowed:
        errors[field] = "Not an allowed value."
    return text


def _traffic_type(db: Session, value: Any, saved: Campaign | None, errors: dict[str, str]) -> str:
    """A traffic type's code (app/reference/metadata.py traffic_type_code; its name is taken too): an active
    traffic type of the admin's list, or the one the campaign already has, even if retired since."""
    code = metadata.traffic_type_code(str(value or ""))
    offered = {row.code for row in metadata.traffic_types(db) if not row.retired}
    if code not in offered and not (saved is not None and code == saved.traffic_type):
        errors["traffic_type"] = "Not an allowed value."
    return code


def _checked(db: Session, advertiser_id: int, data: dict[str, Any], saved: Campaign | None = None, *,
             changed: set[str] | None = None) -> dict[str, Any]:
    """Column values for a campaign from form/API input, or Invalid naming every bad field. `saved`: the campaign
    being edited, whose values that are no longer offered (a retired traffic type or targeting value, an end
    date now past) stay accepted as long as the edit keeps them; `changed`: the money fields the edit changes (see
    _amounts)."""
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    name = str(data.get("name") or "").strip()
    if not name:
        errors["name"] = "This field is required."
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = v.too_long(NAME_MAX_LENGTH)
    elif problem := v.name(name):
        errors["name"] = problem
    values["name"] = name
    values["objective"] = _choice(data.get("objective", "awareness"), OBJECTIVES, errors, "objective")
    values["pacing"] = _choice(data.get("pacing", "even"), PACING, errors, "pacing")
    values["bid_strategy"] = _choice(data.get("bid_strategy", "cpm"), BID_STRATEGIES, errors, "bid_strategy")
    values["traffic_type"] = _traffic_type(db, data.get("traffic_type", "app"), saved, errors)
    values["goal_metric"] = _choice(data.get("goal_metric", "none"), GOAL_METRICS, errors, "goal_metric")

    zone_name = str(data.get("time_zone") or "UTC").strip()
    try:
        zone = ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError):
        errors["time_zone"] = "Choose a time zone from the list."
        zone = ZoneInfo("UTC")
    values["time_zone"] = zone_name
    for field, required in (("starts_at", True), ("ends_at", False)):
        raw = data.get(field)
        if raw in (None, ""):
            values[field] = None
            if required:
                errors[field] = "This field is required."
            continue
        try:
            values[field] = flight.given(raw, zone, end=field == "ends_at")
        except ValueError:
            errors[field] = "Enter a date such as 2026-12-01 or 2026-12-01T09:00."
    if values.get("starts_at") and values.get("ends_at") and values["ends_at"] <= values["starts_at"]:
        errors["ends_at"] = "The flight must end after it starts."
    elif flight_ended(values.get("ends_at")) and (saved is None or saved.ends_at is None
                                                  or as_utc(saved.ends_at) != values["ends_at"]):
        errors["ends_at"] = FLIGHT_OVER

    values.update(_amounts(data, errors, saved, set(MONEY_FIELDS) if changed is None else changed))

    cap, period = data.get("frequency_cap"), str(data.get("frequency_period") or "").strip()
    if cap in (None, ""):
        values["frequency_cap"], values["frequency_period"] = None, None
    else:
        try:
            values["frequency_cap"] = int(cap)
            if values["frequency_cap"] < 1:
                raise ValueError
        except (TypeError, ValueError):
            errors["frequency_cap"] = "Enter a whole number of impressions, 1 or more."
        values["frequency_period"] = _choice(period, FREQUENCY_PERIODS, errors, "frequency_period")

    target = str(data.get("goal_target") or "").strip()
    if values["goal_metric"] != "none":
        try:
            if Decimal(target) <= 0:
                raise InvalidOperation
        except InvalidOperation:
            errors["goal_target"] = "Enter the target as a positive number."
    values["goal_target"] = target if values["goal_metric"] != "none" else ""

    values["targeting"], targeting_errors = clean_targeting(db, advertiser_id=advertiser_id, raw=data.get("targeting"),
                                                             previous=saved.targeting if saved else None)
    errors.update(targeting_errors)
    if errors:
        raise Invalid(errors)
    return values


def snapshot(campaign: Campaign) -> dict[str, Any]:
    """The audited state of a campaign: its columns as JSON (times ISO 8601, money in micros)."""
    row = campaign.model_dump(exclude={"id", "created_at", "updated_at", "version"})  # the audit row keeps the version
    return {key: value.isoformat() if isinstance(value, datetime) else value for key, value in row.items()}


# --- writing -------------------------------------------------------------------------------------------

def _sent(data: CampaignUpdate) -> dict[str, Any]:
    """The settings a form or API call gave (left-out fields are not in it)."""
    return data.model_dump(exclude_unset=True, include=set(EDITABLE))


def create_campaign(db: Session, *, actor: Actor, data: CampaignUpdate, advertiser_id: int | None = None) -> CampaignRead:
    """A new campaign, as a draft, for the advertiser (an advertiser creates its own)."""
    require(actor, "campaign", "create")
    advertiser = advertiser_for_new(db, actor, advertiser_id)
    assert advertiser.id is not None
    campaign = Campaign(advertiser_id=advertiser.id, status=CampaignStatus.DRAFT,
                        **_checked(db, advertiser.id, _sent(data)))
    db.add(campaign)
    db.flush()
    audit.record(db, actor=actor, entity="campaign", entity_id=campaign.id, action="create", after=snapshot(campaign))
    exchange_approvals.sync_requests(db, actor=actor, campaign=campaign)
    return public(campaign, advertiser)


def update_campaign(db: Session, *, actor: Actor, campaign_id: int, data: CampaignUpdate,
                    action: str = "update") -> CampaignRead:
    """Change a campaign's settings; fields not sent keep their values. Archived campaigns are read-only. `action`
    names the change in the log (a restore from history says which entry it restored, app/history/restore.py)."""
    require(actor, "campaign", "update")
    campaign, advertiser = campaign_in_scope(db, actor, campaign_id)
    if campaign.status == CampaignStatus.ARCHIVED:
        raise Invalid({"status": "An archived campaign cannot be changed; clone it instead."})
    versions.check(db, entity="campaign", row=campaign, expected=data.version, fields=changed_fields)
    sent = _sent(data)
    current = {**_shown(campaign, advertiser), "targeting": campaign.targeting}
    merged = {field: sent.get(field, current.get(field)) for field in EDITABLE}
    merged["targeting"] = merged_targeting(campaign.targeting, sent.get("targeting"))
    changed_money = {field for field in MONEY_FIELDS if field in sent and sent[field] != current[field]}
    before = snapshot(campaign)
    for column, value in _checked(db, campaign.advertiser_id, merged, campaign, changed=changed_money).items():
        setattr(campaign, column, value)
    after = snapshot(campaign)
    if after != before:
        campaign.updated_at = utcnow()
        db.add(campaign)
        audit.record(db, actor=actor, entity="campaign", entity_id=campaign.id, action=action,
                     before={k: before[k] for k in before if before[k] != after[k]},
                     after={k: after[k] for k in after if before[k] != after[k]}, version=versions.bump(campaign))
        versions.flush(db)  # conditional on the version read: a save that lost a race is refused here
        exchange_approvals.sync_requests(db, actor=actor, campaign=campaign)
    return public(campaign, advertiser)


def merged_targeting(saved: Mapping[str, Any], sent: Any) -> Any:
    """The targeting an edit makes: each kind it names (countries, exchanges, devices, ...) replaced, an empty list
    clearing that kind, every kind it does not name kept as saved. Anything but a document is left for the
    targeting rule to refuse."""
    if sent is None:
        return dict(saved)
    return {**saved, **sent} if isinstance(sent, dict) else sent


def changed_fields(changes: Mapping[str, Any]) -> list[str]:
    """A stored change ({column: [old, new]} of an audit row) as the fields the form names: money without its
    "_micros", the targeting by kind ("targeting.countries")."""
    names: list[str] = []
    for column, (old, new) in changes.items():
        if column == "targeting" and isinstance(old, dict | None) and isinstance(new, dict | None):
            old, new = old or {}, new or {}
            names += [f"targeting.{key}" for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
        else:
            names.append(column.removesuffix("_micros"))
    return names


def set_status(db: Session, *, actor: Actor, campaign_id: int, status: str) -> CampaignRead:
    """Move a campaign along STATUS_TRANSITIONS (CAMPAIGN_STATUS); the same status again changes nothing."""
    return public(*CAMPAIGN_STATUS.change(db, actor=actor, record_id=campaign_id, status=status))


# What activation needs besides the status machine and the flight, declared by the domain that knows it: funds
# checks the balance (app/funds/activation.py). A guard answers {field: message} to refuse, or None.
ActivationGuard = Callable[[Session, Campaign], Mapping[str, Any] | None]
ACTIVATION_GUARDS: Hook[ActivationGuard] = Hook("campaign activation guards", needed=("balance",))


def _check_can_run(db: Session, campaign: Campaign, wanted: str = CampaignStatus.ACTIVE) -> None:
    """What activation needs besides the status machine: a flight not yet over, and what each guard checks (money
    to spend: campaigns pause when the balance reaches $0.00, so they must not start there either). Each refusal
    names the field to fix: the end date, or the balance (pages link it to Add Funds)."""
    if wanted != CampaignStatus.ACTIVE:
        return
    if flight_ended(campaign.ends_at):
        raise Invalid({"ends_at": EXTEND_TO_ACTIVATE})
    for guard in ACTIVATION_GUARDS.handlers():
        if problem := guard(db, campaign):
            raise Invalid(dict(problem))


# A campaign's statuses: draft → active → paused ⇄ active → completed; any → archived (final). Activation
# needs what _check_can_run checks. Funds pauses campaigns whose balance ran out through it too.
CAMPAIGN_STATUS = status_machine.declare(status_machine.StatusMachine(
    "campaign", Campaign, tuple(CampaignStatus), ("campaign", "status"), campaign_in_scope,
    lambda _db, _actor, loaded: public(*loaded), read=CampaignRead,
    transitions={str(k): frozenset(map(str, moves)) for k, moves in STATUS_TRANSITIONS.items()},
    guard=_check_can_run, refused="{An} {current} campaign cannot become {wanted}.",
    routes=(status_machine.StatusRoute(
        "/campaigns/{campaign_id}/status", message="Status changed",
        description="draft → active → paused ⇄ active → completed; any → archived (final). Activation needs a "
                    "flight that has not ended and a positive balance (422 naming what to do otherwise)."),)))


def archive_campaign(db: Session, *, actor: Actor, campaign_id: int) -> CampaignRead:
    """What deleting a campaign does: it is archived, never removed, so its delivery history stays."""
    return set_status(db, actor=actor, campaign_id=campaign_id, status=CampaignStatus.ARCHIVED)


def _copy_name(db: Session, advertiser_id: int, name: str) -> str:
    """"X copy", else "X copy 2", "X copy 3", ...: the first no campaign of the advertiser has (case aside). A copy
    of a copy counts on ("X copy" -> "X copy 2"); the base is trimmed so the whole fits NAME_MAX_LENGTH. Only
    letters, digits, spaces and hyphens are added, so the name rule passes whenever the original's did."""
    base = _COPY_SUFFIX.sub("", name).strip() or name.strip()
    taken = {n.casefold() for n in db.exec(select(Campaign.name).where(Campaign.advertiser_id == advertiser_id))}
    number = 1
    while True:
        suffix = " copy" if number == 1 else f" copy {number}"
        candidate = base[:NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in taken:
            return candidate
        number += 1


# What a clone takes from its original besides the settings, declared by the domain that keeps it (creatives:
# app/creatives/links.py), so this module reads no table of a domain above it. For the original, `plan` answers the
# ids the clone takes (put in the plan's campaign under `field`, where the clone page's picker starts from them)
# and the names of what it leaves out (archived creatives take no new campaign); `take` gives the new clone those
# ids, in the clone's own unit of work.
@dataclass(frozen=True)
class ClonePart:
    field: str
    plan: Callable[[Session, int], tuple[list[int], list[str]]]
    take: Callable[[Session, Actor, int, list[int]], object]


CLONE_PARTS: Hook[ClonePart] = Hook("what a clone takes from its original", needed=("creatives",))


def clone_plan(db: Session, *, actor: Actor, campaign_id: int) -> ClonePlan:
    """What a clone of the campaign starts from (the clone page's form, the API's clone): "campaign": its settings
    as public() shows them, named by _copy_name, without the lists, audiences and reference values a new campaign
    cannot choose, with what each CLONE_PARTS part takes (the creatives, less archived ones); "left_out": the
    names of what it leaves; "needs_dates": the original's flight has ended, so the clone needs new dates (its
    dates are then empty)."""
    require(actor, "campaign", "create")
    source, advertiser = campaign_in_scope(db, actor, campaign_id)
    shown = public(source, advertiser)
    targeting, left_out = list_targeting.without_archived(db, dict(source.targeting))
    targeting = deliverable(db, advertiser_id=source.advertiser_id, targeting=targeting)
    stale = stale_targeting(db, shown)
    parts = {part.field: part.plan(db, campaign_id) for part in CLONE_PARTS.handlers()}
    left_out = sorted([*left_out, *(row.name for rows in stale.values() for row in rows),
                       *(name for _taken, names in parts.values() for name in names)], key=str.casefold)
    needs_dates = flight_ended(source.ends_at)
    campaign = {**shown.model_dump(), "name": _copy_name(db, source.advertiser_id, source.name),
                "targeting": targeting, "taken": {field: taken for field, (taken, _names) in parts.items()},
                **(flight.shown(None, None, source.time_zone) if needs_dates else {})}
    return ClonePlan(campaign=CloneDraft.model_validate(campaign), left_out=left_out, needs_dates=needs_dates)


def clone_campaign(db: Session, *, actor: Actor, campaign_id: int, starts_at: str | None = None,
                   ends_at: str | None = None) -> CampaignClone:
    """A draft copy with every setting it may keep and the original's creatives (clone_plan), checked as a new
    campaign is, in one unit of work; new dates may be given, and must be when the original's flight has ended.
    The answer is the clone, with "left_out": the names of the archived lists, retired values and archived
    creatives it did not take."""
    plan = clone_plan(db, actor=actor, campaign_id=campaign_id)
    source = plan.campaign.model_dump()
    data = {field: source.get(field) for field in EDITABLE}
    data |= {field: value for field, value in (("starts_at", starts_at), ("ends_at", ends_at)) if value is not None}
    if plan.needs_dates and not data.get("ends_at") and not data.get("starts_at"):
        raise Invalid({"starts_at": CLONE_NEEDS_DATES, "ends_at": CLONE_NEEDS_DATES})
    advertiser = db.get(User, plan.campaign.advertiser_id)
    assert advertiser is not None
    campaign = Campaign(advertiser_id=plan.campaign.advertiser_id, status=CampaignStatus.DRAFT,
                        **_checked(db, plan.campaign.advertiser_id, data))
    db.add(campaign)
    db.flush()
    audit.record(db, actor=actor, entity="campaign", entity_id=campaign.id, action="clone",
                 after={"from": campaign_id, **snapshot(campaign)})
    exchange_approvals.sync_requests(db, actor=actor, campaign=campaign)
    assert campaign.id is not None
    for part in CLONE_PARTS.handlers():
        if taken := plan.campaign.taken.get(part.field):
            part.take(db, actor, campaign.id, taken)
    return CampaignClone(**public(campaign, advertiser).model_dump(), left_out=plan.left_out)
