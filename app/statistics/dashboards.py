"""What the dashboards show, for every role, in one call each: headline figures against the previous period,
delivery by day, the top campaigns, creatives, exchanges, operating systems (and advertisers, for agencies and
staff), and Insight360's pacing and the campaigns that need attention.

All figures come from services/statistics (row scope applied there) and the ledger, so a dashboard, a report,
a CSV and the funds pages agree: they sum the same rows. Days are UTC days, but Insight360's: each campaign's
are those of its time zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlmodel import Session, col, func, select

from app.access.models import User
from app.access.policy import Actor, advertiser_rows, require
from app.access.roles import Role
from app.campaigns import flight
from app.campaigns.models import Campaign, CampaignStatus
from app.funds import service as funds
from app.kernel.db import select_columns
from app.kernel.errors import Invalid
from app.statistics import service as statistics
from app.statistics.money_replies import Figure
from app.statistics.schemas import (
    AttentionRead,
    CampaignChoice,
    Dashboard,
    DashboardOverview,
    DashboardPeriod,
    Insight,
    LowBalanceRead,
    PacingRead,
)
from app.warehouse.base import StatsRow, StatsValue, whole
from app.warehouse.schema import METRICS

TOP = 10  # rows in each "performance by" table
# The breakdowns a dashboard shows, by role: the dimension and the row label's key.
BREAKDOWNS: dict[str, tuple[str, str]] = {
    "campaign": ("campaign_id", "campaign_name"),
    "creative": ("creative_id", "creative_name"),
    "exchange": ("exchange", "exchange"),
    "os": ("os", "os"),
    "advertiser": ("advertiser_id", "advertiser_name"),
}
TREND_METRICS = ("impressions", "clicks", "ctr", "spend", "conversions", "cpa", "ecpm")
# Insight360's thresholds: a campaign needs attention when it has spent under this share of what an even pace
# would have spent by now, has spent nothing for this many days, or its advertiser's balance covers fewer days
# of its recent spend than this.
UNDER_DELIVERY_RATIO = 0.8
NO_SPEND_DAYS = 2
LOW_BALANCE_DAYS = 3


def breakdowns_for(actor: Actor, advertiser_id: int | None = None) -> tuple[str, ...]:
    """The "performance by" tables of a dashboard, in order (the page draws their skeletons before the figures)."""
    by = ("campaign", "creative", "exchange", "os")
    return ("advertiser", *by) if actor.role != Role.ADVERTISER and advertiser_id is None else by


def _trend(now: StatsValue, before: StatsValue) -> float | None:
    """Change against the previous period in percent; None when there is nothing to compare with."""
    if not isinstance(now, int | float) or not isinstance(before, int | float) or not before:
        return None
    return round((now - before) * 100.0 / before, 1)


def _plain(rows: list[StatsRow]) -> list[dict[str, Figure]]:
    """JSON-ready rows: dates as ISO text, ratios rounded for display (exact micros stay beside spend)."""
    out = []
    for row in rows:
        item: dict[str, Figure] = {}
        for key, value in row.items():
            if isinstance(value, date):
                item[key] = value.isoformat()
            elif isinstance(value, float):
                item[key] = round(value, 4)
            else:
                item[key] = value
        out.append(item)
    return out


@dataclass(frozen=True)
class _Period:
    """One dashboard request: the actor, the days, the previous period of the same length and the filters."""

    db: Session
    actor: Actor
    first: date
    last: date
    filters: dict[str, list[int]]
    advertiser_id: int | None

    @property
    def previous(self) -> tuple[date, date]:
        length = (self.last - self.first).days + 1
        return self.first - timedelta(days=length), self.first - timedelta(days=1)

    def rows(self, period: tuple[date, date] | None = None, **options: Any) -> list[StatsRow]:
        first, last = period or (self.first, self.last)
        return statistics.statistics(self.db, actor=self.actor, start=first, end=last, filters=self.filters,
                                     advertiser_id=self.advertiser_id, **options)


def _period(db: Session, actor: Actor, start: str | date | None, end: str | date | None,
            campaign_ids: Sequence[int], advertiser_id: int | None) -> _Period:
    require(actor, "dashboard", "view")
    first, last = statistics.parse_period(start, end)
    return _Period(db, actor, first, last, filters_of(campaign_ids), advertiser_id)


def filters_of(campaign_ids: Sequence[int]) -> dict[str, list[int]]:
    """The statistics filters of a dashboard's campaign choice (its figures' explanation asks with the same)."""
    return {"campaign_id": list(campaign_ids)} if campaign_ids else {}


def overview(db: Session, *, actor: Actor, start: str | date | None = None, end: str | date | None = None,
             campaign_ids: Sequence[int] = (), advertiser_id: int | None = None) -> DashboardOverview:
    """Headline figures of the period and of the one before it, and the change (dashboard/overview)."""
    return DashboardOverview(**_overview(_period(db, actor, start, end, campaign_ids, advertiser_id)))


def _overview(p: _Period) -> dict[str, Any]:
    """DashboardOverview's fields (Dashboard adds its own)."""
    totals, before = p.rows()[0], p.rows(p.previous)[0]
    return {"period": DashboardPeriod(start=p.first.isoformat(), end=p.last.isoformat(),
                                      previous_start=p.previous[0].isoformat(), previous_end=p.previous[1].isoformat()),
            "totals": _plain([totals])[0], "previous": _plain([before])[0],
            "trend": {key: _trend(totals.get(key), before.get(key)) for key in TREND_METRICS}}


def by_day(db: Session, *, actor: Actor, start: str | date | None = None, end: str | date | None = None,
           campaign_ids: Sequence[int] = (), advertiser_id: int | None = None) -> list[dict[str, Figure]]:
    """Every day of the period, days without delivery as zeros (chart and performance/day)."""
    return _by_day(_period(db, actor, start, end, campaign_ids, advertiser_id))


def _by_day(p: _Period) -> list[dict[str, Figure]]:
    return _plain(statistics.every_day(p.rows(dimensions=["date"]), p.first, p.last, statistics.zero_row(list(METRICS))))


def breakdown(db: Session, *, actor: Actor, by: str, start: str | date | None = None, end: str | date | None = None,
              campaign_ids: Sequence[int] = (), advertiser_id: int | None = None) -> list[dict[str, Figure]]:
    """The top rows by spend of one breakdown (performanceByCampaign, ...ByCreative, ...ByExchange, ...ByOS)."""
    if by not in BREAKDOWNS:
        raise Invalid({"by": f"Choose one of: {', '.join(BREAKDOWNS)}."})
    return _breakdown(_period(db, actor, start, end, campaign_ids, advertiser_id), by)


def _breakdown(p: _Period, by: str) -> list[dict[str, Figure]]:
    return _plain(p.rows(dimensions=[BREAKDOWNS[by][0]], order_by="spend", descending=True, limit=TOP))


def dashboard(db: Session, *, actor: Actor, start: str | date | None = None, end: str | date | None = None,
              campaign_ids: Sequence[int] = (), advertiser_id: int | None = None) -> Dashboard:
    """Every classic-dashboard widget at once, for the page (the API also answers each part alone). Dates
    default to the last 30 days."""
    p = _period(db, actor, start, end, campaign_ids, advertiser_id)
    return Dashboard(**_overview(p), by_day=_by_day(p),
                     breakdowns={name: _breakdown(p, name) for name in breakdowns_for(actor, advertiser_id)},
                     labels={name: label for name, (_d, label) in BREAKDOWNS.items()})


def _active_campaigns(db: Session, actor: Actor, campaign_ids: Sequence[int], advertiser_id: int | None) -> list[Any]:
    query = (select_columns(Campaign.id, Campaign.name, Campaign.advertiser_id, Campaign.starts_at, Campaign.ends_at,
                            Campaign.total_budget_micros, Campaign.daily_budget_micros, Campaign.time_zone)
             .where(Campaign.status == CampaignStatus.ACTIVE, advertiser_rows(actor, Campaign.advertiser_id)))
    if campaign_ids:
        query = query.where(col(Campaign.id).in_(list(campaign_ids)))
    if advertiser_id is not None:
        query = query.where(Campaign.advertiser_id == advertiser_id)
    return list(db.exec(query.order_by(col(Campaign.id))).all())


@dataclass(frozen=True)
class _ZoneSpend:
    """The spend Insight360 reads for the active campaigns of one time zone, by the zone's own days (a flight's
    days are its campaign's): over the flight so far (from `since`), the last NO_SPEND_DAYS days and the last
    week, micro-dollars by campaign, up to the zone's `today`."""

    today: date
    since: date
    flight: dict[int, int]
    recent: dict[int, int]
    week: dict[int, int]


def _zone_spend(db: Session, actor: Actor, campaigns: Sequence[Any], time_zone: str, today: date,
                advertiser_id: int | None) -> _ZoneSpend:
    where, ids = flight.zone(time_zone), [c.id for c in campaigns]
    since = max(min(flight.first_day(c.starts_at, where) for c in campaigns),
                today - timedelta(days=statistics.MAX_DAYS - 1))

    def spend_by_campaign(start: date) -> dict[int, int]:
        rows = statistics.statistics(db, actor=actor, start=min(start, today), end=today, dimensions=["campaign_id"],
                                     metrics=["spend"], filters={"campaign_id": ids}, advertiser_id=advertiser_id,
                                     time_zone=time_zone)
        return {whole(row["campaign_id"]): whole(row["spend_micros"]) for row in rows}

    return _ZoneSpend(today=today, since=min(since, today), flight=spend_by_campaign(since),
                      recent=spend_by_campaign(today - timedelta(days=NO_SPEND_DAYS - 1)),
                      week=spend_by_campaign(today - timedelta(days=6)))


def insight(db: Session, *, actor: Actor, campaign_ids: Sequence[int] = (), advertiser_id: int | None = None,
            today: date | None = None) -> Insight:
    """Insight360: each active campaign's pacing (spend against budget over its flight so far) and the
    campaigns that need attention (under-delivery, no recent spend, low balance), worst first. A campaign's days
    are those of its time zone (app/campaigns/flight.py: its flight's first and last days, today, and the days
    its spend is summed over); `today` (tests) stands for today in every zone."""
    require(actor, "dashboard", "view")
    statistics.advertiser_scope(db, actor=actor, advertiser_id=advertiser_id)  # out of scope: not found
    campaigns = _active_campaigns(db, actor, campaign_ids, advertiser_id)
    if not campaigns:
        return Insight(pacing=[], attention=[])
    by_zone: dict[str, list[Any]] = {}
    for c in campaigns:
        by_zone.setdefault(c.time_zone, []).append(c)
    spends = {zone: _zone_spend(db, actor, members, zone, today or statistics.today_in(zone), advertiser_id)
              for zone, members in by_zone.items()}
    advertisers = {c.advertiser_id for c in campaigns}
    balances = funds.balances_micros(db, sorted(advertisers))
    names = dict(db.exec(select(User.id, User.company_name).where(col(User.id).in_(advertisers))).all())
    weekly_by_advertiser: dict[int, int] = {}
    for c in campaigns:
        weekly_by_advertiser[c.advertiser_id] = (weekly_by_advertiser.get(c.advertiser_id, 0)
                                                 + spends[c.time_zone].week.get(c.id, 0))

    pacing: list[PacingRead] = []
    attention: list[AttentionRead] = []
    for c in campaigns:
        where, spend = flight.zone(c.time_zone), spends[c.time_zone]
        day = spend.today
        begin, finish = flight.first_day(c.starts_at, where), flight.last_day(c.ends_at, where)
        elapsed = max(0, (min(day, finish) if finish else day).toordinal() - begin.toordinal() + 1)
        spent = spend.flight.get(c.id, 0)
        if finish:
            flight_days = max(1, (finish - begin).days + 1)
            expected = c.total_budget_micros * min(elapsed, flight_days) // flight_days
        else:
            expected = min(c.total_budget_micros, (c.daily_budget_micros or 0) * elapsed) if c.daily_budget_micros else None
        ratio = spent / expected if expected else None
        item = PacingRead(campaign_id=c.id, campaign_name=c.name, advertiser_id=c.advertiser_id,
                          advertiser_name=names.get(c.advertiser_id) or "", starts_on=begin.isoformat(),
                          ends_on=finish.isoformat() if finish else None, time_zone=c.time_zone,
                          budget=c.total_budget_micros / 1e6, spent=spent / 1e6, spent_since=spend.since.isoformat(),
                          expected=expected / 1e6 if expected is not None else None,
                          pacing=round(ratio * 100, 1) if ratio is not None else None,
                          budget_used=round(spent * 100 / c.total_budget_micros, 1) if c.total_budget_micros else None)
        pacing.append(item)
        started_days_ago = (day - begin).days
        if started_days_ago >= NO_SPEND_DAYS and not spend.recent.get(c.id):
            attention.append(AttentionRead(**dict(item), reason="no_spend", severity=2))
        elif ratio is not None and elapsed >= 2 and ratio < UNDER_DELIVERY_RATIO:
            attention.append(AttentionRead(**dict(item), reason="under_delivery", severity=1))
        balance = balances.get(c.advertiser_id, 0)
        daily = weekly_by_advertiser.get(c.advertiser_id, 0) / 7
        if balance <= 0 or (daily and balance < daily * LOW_BALANCE_DAYS):
            attention.append(LowBalanceRead(**dict(item), reason="low_balance", severity=3, balance=balance / 1e6))
    attention.sort(key=lambda a: (-a.severity, a.pacing if a.pacing is not None else 1e9))
    pacing.sort(key=lambda p: -p.spent)
    return Insight(pacing=pacing[:20], attention=attention[:20])


def campaign_choices(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> list[CampaignChoice]:
    """The dashboard's campaign filter: campaigns in scope that are not archived, by name."""
    require(actor, "dashboard", "view")
    query = select(Campaign.id, Campaign.name).where(advertiser_rows(actor, Campaign.advertiser_id),
                                                     Campaign.status != CampaignStatus.ARCHIVED)
    if advertiser_id is not None:
        query = query.where(Campaign.advertiser_id == advertiser_id)
    return [CampaignChoice(id=i, name=n) for i, n in db.exec(query.order_by(func.lower(Campaign.name)).limit(500)).all()]


METRIC_KINDS = {key: metric.kind for key, metric in METRICS.items()}
