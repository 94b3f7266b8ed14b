"""Forecast while editing: what a campaign draft would deliver, from the advertiser's own delivery.

It reads the last HISTORY_DAYS days of the advertiser's delivery in the statistics store that match the draft's
targeting (one grouped read, base.HistoryQuery: per UTC day, all of it and what the bid would have won, with
distinct devices counted approximately in the store), then:

- per day: the won impressions and spend of each day of the history, from the first day the targeting delivered
  (days before it say nothing about the targeting: no campaign bought it yet; days after it without any count
  as 0), as a range:
  low = the 10th percentile of the days, expected = their mean, high = the 90th percentile. The spread of real
  days is the uncertainty; nothing is smoothed or invented. A history of one day has one value for all three;
- the bid: a row of delivery (one hour of one placement, and device when known) is won when its price (eCPM, or
  eCPC for a CPC bid) was at most the bid; a bid below every cleared price wins nothing and the forecast says so;
- budgets: each figure's spend is cut to the daily budget and to the total budget spread over the flight's days,
  and its impressions and reach by the same factor (fewer auctions, the same prices);
- reach over the flight: distinct devices grow slower than days (devices come back). With r the devices of a
  day and R those of the whole history (W days), reach over F days is r * F^a, a = ln(R / r) / ln(W): the
  power curve through one day and the whole history, so F = W gives R exactly. Open-ended flights take 28 days.

The store answers only for the advertiser's own rows: the actor must see the advertiser (campaign row scope), so
another tenant's advertiser answers "not found" like a missing one.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from app.access.models import User
from app.access.policy import Actor, can_see_user, require
from app.access.roles import Role
from app.campaigns import flight
from app.campaigns.forecast_schemas import CountRange, Forecast, ForecastDraft, MoneyRange
from app.campaigns.targeting import FORMER_DEVICE_NAMES
from app.kernel import money
from app.kernel.errors import Invalid, NotFound
from app.reference import metadata
from app.supply.list_targeting import INVENTORY_KEY, SMART_APP_KEY
from app.supply.models import AppList, AppListEntry, SmartAppEntry
from app.warehouse import get_store
from app.warehouse.base import DeliveryHistory, HistoryQuery

HISTORY_DAYS = 28
OPEN_ENDED_DAYS = 28  # the reach of a flight without an end is told over this many days
# The targeting keys delivery records (targeting key -> the store's dimension); the rest cannot narrow a history.
NARROWED_BY = {"countries": "country", "device_types": "device_type", "operating_systems": "os",
               "exchanges": "exchange"}
NO_HISTORY = "No history for this targeting: none of the advertiser's delivery of the last {days} days matched it."
NO_DELIVERY = "No history for this targeting: the advertiser has no delivery yet."
BID_TOO_LOW = "The bid is below every price this targeting cleared at in the last {days} days: it would win almost nothing."
NO_DEVICES = "The history carries no device ids: reach cannot be told."
NO_ADVERTISER = "Advertiser not found."
CHOOSE_ADVERTISER = "Choose an advertiser."
BAD_DATE = "Give a date, e.g. 2027-01-31."
ENDS_BEFORE = "The end cannot be before the start."


@dataclass(frozen=True)
class _Draft:
    """The draft's values the forecast reads, checked."""

    bid_micros: int | None
    priced_by: str
    daily_budget: int | None
    total_budget: int | None
    flight_days: int | None


def forecast(db: Session, *, actor: Actor, draft: ForecastDraft, today: date | None = None) -> Forecast:
    """The draft's forecast (module docstring). Invalid names a bad field; NotFound for an advertiser the actor
    may not see."""
    require(actor, "campaign", "view")
    advertiser = _advertiser(db, actor, draft.advertiser_id)
    assert advertiser.id is not None
    checked = _checked(draft)
    filters, excluded, not_applied = _narrowing(db, advertiser.id, draft.targeting)
    store = get_store()
    span = store.first_and_last_hour([advertiser.id])
    base: dict[str, Any] = {"advertiser_id": advertiser.id, "flight_days": checked.flight_days, "capped_by": [],
                            "not_applied": not_applied, "impressions_per_day": None, "spend_per_day": None,
                            "reach": None, "reach_days": None, "bid_share": None, "cleared_price": None}
    if span is None:
        return Forecast(**base, no_history=True, message=NO_DELIVERY, history_start=None, history_end=None,
                        history_days=0)
    yesterday = (today or datetime.now(UTC).date()) - timedelta(days=1)
    # The last 28 whole days; an advertiser that stopped delivering earlier is judged by its last 28 days of it,
    # one that started less than 28 days ago by the days since (days before its first would only dilute).
    end = min(yesterday, span[1].date())
    start = max(end - timedelta(days=HISTORY_DAYS - 1), span[0].date())
    if end < start:  # delivery only today: no whole day yet
        start = end = span[1].date()
    history = store.delivery_history(HistoryQuery(
        start=start, end=end, advertiser_ids=(advertiser.id,), filters=filters, excluded=excluded,
        bid_micros=checked.bid_micros, priced_by=checked.priced_by))
    base |= {"history_start": start, "history_end": end, "history_days": (end - start).days + 1}
    total_impressions = sum(day.impressions for day in history.days)
    if not total_impressions:
        return Forecast(**base, no_history=True, message=NO_HISTORY.format(days=HISTORY_DAYS))
    return _figures(base, history, checked)


def _figures(base: dict[str, Any], history: DeliveryHistory, draft: _Draft) -> Forecast:
    first = min(d.day for d in history.days if d.impressions)
    days = (base["history_end"] - first).days + 1
    base = {**base, "history_start": first, "history_days": days}
    history = replace(history, days=[d for d in history.days if d.day >= first])
    padding = [0] * (days - len(history.days))  # days without matching delivery
    impressions = [d.won_impressions for d in history.days] + padding
    spend = [d.won_spend_micros for d in history.days] + padding
    devices = [d.won_devices for d in history.days] + padding
    all_impressions = sum(d.impressions for d in history.days)
    all_spend = sum(d.spend_micros for d in history.days)
    # What the targeting cost on average: per thousand impressions for a CPM bid, per click for a CPC one (none
    # when the history has no click to price one by).
    if draft.priced_by == "impressions":
        cleared: int | None = round(all_spend * 1000 / all_impressions)
    else:
        cleared = round(all_spend / history.clicks) if history.clicks else None
    messages = []
    if not sum(impressions):
        messages.append(BID_TOO_LOW.format(days=days))

    # Each figure's share of the budget cap: spend above the day's cap is cut, and its impressions and reach alike.
    caps = []
    if draft.daily_budget is not None:
        caps.append((draft.daily_budget, "daily_budget"))
    if draft.total_budget is not None and draft.flight_days:
        caps.append((draft.total_budget // draft.flight_days, "total_budget"))
    spread = {name: _spread(values) for name, values in (("impressions", impressions), ("spend", spend),
                                                          ("devices", devices))}
    factors, capped_by = [], []
    for point in range(3):
        factor = 1.0
        for cap, name in caps:
            if spread["spend"][point] * factor > cap:
                factor = cap / spread["spend"][point]
                if name not in capped_by:
                    capped_by.append(name)
        factors.append(factor)
    shown_impressions = CountRange(**_points([v * f for v, f in zip(spread["impressions"], factors, strict=True)]))
    shown_spend = MoneyRange(**{k: money.dollars(round(v * f)) for k, v, f in
                                zip(("low", "expected", "high"), spread["spend"], factors, strict=True)})
    reach: CountRange | None = None
    reach_days = draft.flight_days or OPEN_ENDED_DAYS
    if history.identified_impressions:
        exponent = _reach_exponent(statistics.fmean(devices), history.won_devices, days)
        reach = CountRange(**_points([v * reach_days ** exponent * f
                                      for v, f in zip(spread["devices"], factors, strict=True)]))
    else:
        messages.append(NO_DEVICES)
    return Forecast(**{**base, "capped_by": capped_by, "impressions_per_day": shown_impressions,
                       "spend_per_day": shown_spend, "reach": reach, "reach_days": reach_days if reach else None,
                       "bid_share": round(sum(d.won_impressions for d in history.days) / all_impressions, 4),
                       "cleared_price": money.dollars(cleared) if cleared is not None else None},
                    no_history=False, message=" ".join(messages))


def _spread(values: list[int]) -> tuple[float, float, float]:
    """(10th percentile, mean, 90th percentile) of the days' values: statistics.quantiles' inclusive method
    interpolates between the days, so a few days still give a range inside what was seen."""
    if len(values) == 1:
        return float(values[0]), float(values[0]), float(values[0])
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    return deciles[0], statistics.fmean(values), deciles[-1]


def _points(values: list[float]) -> dict[str, int]:
    """Low, expected and high, in order: a budget cap cuts a busier day more than a quieter one, so a figure
    that does not follow spend (devices) can come out of the caps the other way round."""
    return dict(zip(("low", "expected", "high"), sorted(round(v) for v in values), strict=True))


def _reach_exponent(daily: float, whole: int, days: int) -> float:
    """a in reach(F) = daily * F^a (module docstring), between 0 (the same devices every day) and 1 (new ones)."""
    if days <= 1 or daily <= 0 or whole <= 0:
        return 1.0
    return min(1.0, max(0.0, math.log(whole / daily) / math.log(days)))


def _advertiser(db: Session, actor: Actor, advertiser_id: int | None) -> User:
    if advertiser_id is None:
        if actor.role != Role.ADVERTISER:
            raise Invalid({"advertiser_id": CHOOSE_ADVERTISER})
        advertiser_id = actor.id
    user = db.get(User, advertiser_id)
    if user is None or user.role != Role.ADVERTISER or not can_see_user(actor, user):
        raise NotFound(NO_ADVERTISER)  # another tenant's advertiser answers like a missing one
    return user


def _moment(value: str | None, where: ZoneInfo, field: str, errors: dict[str, str]) -> datetime | None:
    """A flight start or end by the campaigns' own rule (app/campaigns/flight.py: an end date is inclusive)."""
    text = (value or "").strip()
    if not text:
        return None
    try:
        return flight.given(text, where, end=field == "ends_at")
    except ValueError:
        errors[field] = BAD_DATE
        return None


def _checked(draft: ForecastDraft) -> _Draft:
    """The draft's money and dates, or Invalid naming every bad field (the campaign form's own rules)."""
    errors: dict[str, str] = {}
    amounts: dict[str, int | None] = {}
    for field in ("bid", "daily_budget", "total_budget"):
        amounts[field], problem = money.micros_or_none(getattr(draft, field), field=field, required=field == "bid")
        if problem:
            errors[field] = problem
    where = flight.zone(draft.time_zone)
    starts = _moment(draft.starts_at, where, "starts_at", errors)
    ends = _moment(draft.ends_at, where, "ends_at", errors)
    if starts and ends and ends <= starts:
        errors["ends_at"] = ENDS_BEFORE
    if errors:
        raise Invalid(errors)
    return _Draft(bid_micros=amounts["bid"], priced_by="impressions" if draft.bid_strategy == "cpm" else "clicks",
                  daily_budget=amounts["daily_budget"], total_budget=amounts["total_budget"],
                  flight_days=flight.flight_days(starts, ends, where) if starts and ends else None)


def _names(values: Any) -> list[str]:
    return [str(v) for v in values] if isinstance(values, list) else []


def _narrowing(db: Session, advertiser_id: int, targeting: dict[str, Any]
               ) -> tuple[dict[str, tuple[int | str, ...]], dict[str, tuple[int | str, ...]], list[str]]:
    """(the store's allowed values by dimension, its excluded values, the targeting keys it cannot apply) for a
    targeting document. Reference values (exchanges, operating systems) are ids: the store knows their names.
    Inventory lists are the advertiser's own only; their apps allow or block the `app` dimension."""
    filters: dict[str, tuple[int | str, ...]] = {}
    named = metadata.names_by_id(db, [int(i) for key in ("exchanges", "operating_systems")
                                      for i in _names(targeting.get(key)) if i.isdigit()])
    for key, dimension in NARROWED_BY.items():
        values = _names(targeting.get(key))
        if key in ("exchanges", "operating_systems"):
            values = [named[int(v)] for v in values if v.isdigit() and int(v) in named]
        elif key == "countries":
            values = [v.upper() for v in values]
        elif key == "device_types":
            values = [FORMER_DEVICE_NAMES.get(v, v) for v in values]
        if values:
            filters[dimension] = tuple(sorted(set(values)))
    lists = targeting.get(INVENTORY_KEY) or {}
    allow = _list_apps(db, advertiser_id, lists.get("allow") if isinstance(lists, dict) else None)
    block = _list_apps(db, advertiser_id, lists.get("block") if isinstance(lists, dict) else None)
    smart_ids = [int(i) for i in _names(targeting.get(SMART_APP_KEY)) if i.isdigit()]
    if smart_ids:
        allow = (allow or set()) | set(db.exec(select(SmartAppEntry.value)
                                                .where(col(SmartAppEntry.list_id).in_(smart_ids))).all())
    if allow is not None:
        filters["app"] = tuple(sorted(allow))
    excluded: dict[str, tuple[int | str, ...]] = {"app": tuple(sorted(block))} if block else {}
    applied = {*NARROWED_BY, INVENTORY_KEY, SMART_APP_KEY}
    not_applied = sorted(key for key, value in targeting.items() if key not in applied and value not in ("", [], {}, None)
                         and value != {"allow": [], "block": []})
    return filters, excluded, not_applied


def _list_apps(db: Session, advertiser_id: int, ids: Any) -> set[str] | None:
    """The app bundle ids and domains of the advertiser's inventory lists among `ids`; None when none is chosen."""
    chosen = [int(i) for i in _names(ids) if i.isdigit()]
    if not chosen:
        return None
    return set(db.exec(select(AppListEntry.value).join(AppList, col(AppList.id) == col(AppListEntry.list_id))
                       .where(col(AppList.id).in_(chosen), AppList.advertiser_id == advertiser_id)).all())
