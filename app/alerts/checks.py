"""What is wrong right now: each check answers the causes it finds, as Cause values (kind, subject, owner, text).
The checks only read; app/alerts/service.py turns causes into alerts (raise the new, clear the gone).

The advertisers' checks (low balance, no spend, under-delivery) read, for a set of advertisers at once (read_facts),
their ledgers and active campaigns (a grouped query each) and two queries of the statistics store grouped by
advertiser (spend an advertiser, campaign and day since the oldest flight start, and spend an advertiser, campaign
and hour over the last day): a pass over thousands of advertisers is a few reads, not thousands. Each rule then
reads one advertiser's share. Days are UTC days, but a running campaign's flight and daily budget count the days of
its time zone (a third query per zone other than UTC among them).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, func, select

from app.alerts.kinds import BURN_DAYS, NO_SPEND_HOURS, UNDER_DELIVERY_SHARE, AlertKind
from app.campaigns import flight
from app.campaigns.models import Campaign, CampaignStatus
from app.dsps.pushes import failed_pushes
from app.funds.models import LedgerEntry
from app.kernel.money import dollars
from app.reports.models import Report, ReportRun, RunStatus
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, StatsValue, whole


@dataclass(frozen=True)
class Cause:
    kind: AlertKind
    subject: str  # unique within the kind: "advertiser:12", "campaign:7", "report:3", "push:1:campaign:7"
    owner_id: int | None  # the user it belongs to (the advertiser, the report's owner); None: admins'
    title: str
    detail: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}"


@dataclass(frozen=True)
class Delivery:
    """One advertiser's spend as the checks need it (micro-dollars): each UTC day's per campaign, the last
    NO_SPEND_HOURS hours' per campaign, and each running campaign's days in its own time zone (`local_days`: the
    days its flight and daily budget count; UTC campaigns' are their UTC days)."""

    by_campaign_day: dict[int, dict[date, int]]
    last_hours: dict[int, int]
    local_days: dict[int, dict[date, int]] = field(default_factory=dict)

    def burn_per_day(self, today: date) -> float:
        first = today - timedelta(days=BURN_DAYS)
        spent = sum(micros for days in self.by_campaign_day.values() for day, micros in days.items()
                    if first <= day < today)
        return spent / BURN_DAYS

    def _days(self, campaign_id: int) -> dict[date, int]:
        local = self.local_days.get(campaign_id)
        return local if local is not None else self.by_campaign_day.get(campaign_id, {})

    def since(self, campaign_id: int, first: date) -> int:
        """Spent from `first` on, a day of the campaign's zone."""
        return sum(micros for day, micros in self._days(campaign_id).items() if day >= first)

    def on(self, campaign_id: int, day: date) -> int:
        """Spent on `day`, a day of the campaign's zone."""
        return self._days(campaign_id).get(day, 0)


def _day(value: StatsValue) -> date:
    if isinstance(value, datetime):
        return value.date()
    assert isinstance(value, date), value
    return value


def _hour(value: StatsValue) -> datetime:
    assert isinstance(value, datetime), value
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def read_deliveries(advertiser_ids: Sequence[int], campaigns: Mapping[int, Sequence[Campaign]],
                    now: datetime) -> dict[int, Delivery]:
    """Every checked advertiser's Delivery in two store queries, grouped by advertiser as well (an advertiser's
    Delivery holds the rows its own query would have given: its days since the oldest flight start of any checked
    advertiser, a superset the checks read by date, so each rule sees what a query of its own would)."""
    today = now.date()
    first = min([today - timedelta(days=BURN_DAYS),
                 *(_aware(c.starts_at).date() for running in campaigns.values() for c in running)])
    store = get_store()
    scope = tuple(advertiser_ids)
    by_day: dict[int, dict[int, dict[date, int]]] = defaultdict(lambda: defaultdict(dict))
    for row in store.query(StatsQuery(start=first, end=today, dimensions=("advertiser_id", "campaign_id", "date"),
                                      metrics=("spend",), advertiser_ids=scope)):
        by_day[whole(row["advertiser_id"])][whole(row["campaign_id"])][_day(row["date"])] = whole(row["spend_micros"])
    local_days = _zoned_days(campaigns, scope, now)
    since = now - timedelta(hours=NO_SPEND_HOURS)
    last_hours: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in store.query(StatsQuery(start=since.date(), end=today, dimensions=("advertiser_id", "campaign_id", "hour"),
                                      metrics=("spend",), advertiser_ids=scope)):
        if _hour(row["hour"]) >= since:
            last_hours[whole(row["advertiser_id"])][whole(row["campaign_id"])] += whole(row["spend_micros"])
    return {a: Delivery(dict(by_day.get(a, {})), dict(last_hours.get(a, {})), dict(local_days.get(a, {})))
            for a in advertiser_ids}


def _zoned_days(campaigns: Mapping[int, Sequence[Campaign]], scope: tuple[int, ...],
                now: datetime) -> dict[int, dict[int, dict[date, int]]]:
    """The running campaigns of zones other than UTC: their spend per day of their zone since their flight's
    first day, by advertiser and campaign (one store query per zone, not per campaign)."""
    by_zone: dict[str, list[Campaign]] = defaultdict(list)
    for running in campaigns.values():
        for c in running:
            if c.time_zone != "UTC" and c.id is not None:
                by_zone[c.time_zone].append(c)
    found: dict[int, dict[int, dict[date, int]]] = defaultdict(lambda: defaultdict(dict))
    for time_zone, members in by_zone.items():
        where = flight.zone(time_zone)
        query = StatsQuery(start=min(flight.first_day(c.starts_at, where) for c in members),
                           end=flight.local(now, where).date(), dimensions=("advertiser_id", "campaign_id", "date"),
                           metrics=("spend",), advertiser_ids=scope, time_zone=time_zone,
                           filters={"campaign_id": tuple(c.id for c in members if c.id is not None)})
        for c in members:
            assert c.id is not None
            found[c.advertiser_id][c.id] = {}  # a campaign without spend has days too: none
        for row in get_store().query(query):
            found[whole(row["advertiser_id"])][whole(row["campaign_id"])][_day(row["date"])] = whole(row["spend_micros"])
    return found


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def running_campaigns(db: Session, advertiser_ids: Sequence[int], now: datetime) -> dict[int, list[Campaign]]:
    """Each advertiser's active campaigns whose flight has begun and not ended (every advertiser a key)."""
    found: dict[int, list[Campaign]] = {a: [] for a in advertiser_ids}
    for c in db.exec(select(Campaign).where(col(Campaign.advertiser_id).in_(advertiser_ids),
                                            Campaign.status == CampaignStatus.ACTIVE).order_by(col(Campaign.id))):
        if _aware(c.starts_at) <= now and (c.ends_at is None or _aware(c.ends_at) > now):
            found[c.advertiser_id].append(c)
    return found


def balances(db: Session, advertiser_ids: Sequence[int]) -> dict[int, int]:
    """Each advertiser's balance (micro-dollars; no ledger entry: 0), in one grouped read."""
    rows = db.exec(select(LedgerEntry.advertiser_id, func.sum(LedgerEntry.amount_micros))
                   .where(col(LedgerEntry.advertiser_id).in_(advertiser_ids)).group_by(col(LedgerEntry.advertiser_id)))
    summed = {advertiser: int(total or 0) for advertiser, total in rows}
    return {a: summed.get(a, 0) for a in advertiser_ids}


@dataclass(frozen=True)
class Facts:
    """What one check pass reads for a set of advertisers, in a few set-based reads (campaigns, ledger, two
    store queries) rather than four a advertiser: the cost of a pass follows the store's size a few times over,
    not the number of advertisers times each one's reads."""

    campaigns: dict[int, list[Campaign]]  # running ones
    balances: dict[int, int]
    deliveries: dict[int, Delivery]


def read_facts(db: Session, advertiser_ids: Sequence[int], now: datetime) -> Facts:
    campaigns = running_campaigns(db, advertiser_ids, now)
    return Facts(campaigns, balances(db, advertiser_ids), read_deliveries(advertiser_ids, campaigns, now))


def low_balance(advertiser_id: int, balance: int, delivery: Delivery, today: date, threshold_days: int) -> list[Cause]:
    """Days of spend left (the balance over the last BURN_DAYS days' average daily spend) below the threshold.
    No spend in those days: no burn, so no alert however small the balance."""
    burn = delivery.burn_per_day(today)
    if burn <= 0:
        return []
    days_left = max(balance, 0) / burn
    if days_left >= threshold_days:
        return []
    return [Cause(AlertKind.LOW_BALANCE, f"advertiser:{advertiser_id}", advertiser_id,
                  f"Low balance: about {days_left:.1f} days of spend left",
                  f"Balance ${dollars(balance)}, spending ${dollars(round(burn))} a day over the last {BURN_DAYS} "
                  f"days; your alert is set at {threshold_days} days. Add funds to keep campaigns delivering.")]


def no_spend(campaigns: Iterable[Campaign], delivery: Delivery, now: datetime) -> list[Cause]:
    """Active campaigns, running for NO_SPEND_HOURS at least, that spent nothing in the last NO_SPEND_HOURS."""
    since = now - timedelta(hours=NO_SPEND_HOURS)
    return [Cause(AlertKind.NO_SPEND, f"campaign:{c.id}", c.advertiser_id,
                  f"No spend for {NO_SPEND_HOURS} hours: {c.name}",
                  f"Campaign {c.name} (#{c.id}) is active but has spent nothing since "
                  f"{since:%Y-%m-%d %H:%M} UTC. Its diagnosis says why.")
            for c in campaigns
            if c.id is not None and _aware(c.starts_at) <= since and delivery.last_hours.get(c.id, 0) <= 0]


def expected_spend(campaign: Campaign, now: datetime) -> int | None:
    """What even pacing would have spent by `now` (micro-dollars): the total budget spread evenly over the flight,
    or for an open-ended flight the daily budget for yesterday alone (None when neither applies, or when the
    campaign has not run one whole day yet)."""
    start = _aware(campaign.starts_at)
    if now - start < timedelta(days=1):
        return None
    if campaign.ends_at is not None:
        length = (_aware(campaign.ends_at) - start).total_seconds()
        return round(campaign.total_budget_micros * (now - start).total_seconds() / length) if length > 0 else None
    where = flight.zone(campaign.time_zone)
    if campaign.daily_budget_micros and flight.first_day(start, where) < _yesterday(now, where):
        return campaign.daily_budget_micros
    return None


def _yesterday(now: datetime, where: ZoneInfo) -> date:
    """The day before today in the campaign's zone (the day its daily budget last counted whole)."""
    return flight.local(now, where).date() - timedelta(days=1)


def under_delivery(campaigns: Iterable[Campaign], delivery: Delivery, now: datetime) -> list[Cause]:
    """Campaigns that spent less than UNDER_DELIVERY_SHARE of what even pacing expects: over the flight so far
    (a flight with an end), or yesterday against the daily budget (an open-ended one)."""
    found = []
    for c in campaigns:
        expected = expected_spend(c, now)
        if c.id is None or not expected:
            continue
        open_ended, where = c.ends_at is None, flight.zone(c.time_zone)
        spent = (delivery.on(c.id, _yesterday(now, where)) if open_ended
                 else delivery.since(c.id, flight.first_day(c.starts_at, where)))
        if spent >= expected * UNDER_DELIVERY_SHARE:
            continue
        behind = round(100 * (1 - spent / expected))
        period = "yesterday against its daily budget" if open_ended else "so far in its flight"
        found.append(Cause(AlertKind.UNDER_DELIVERY, f"campaign:{c.id}", c.advertiser_id,
                           f"Under-delivering: {c.name} is {behind} % behind",
                           f"Campaign {c.name} (#{c.id}) spent ${dollars(spent)} {period}; even pacing expects "
                           f"${dollars(expected)}."))
    return found


def advertiser_causes(advertiser_id: int, facts: Facts, *, now: datetime, threshold_days: int) -> list[Cause]:
    """Every advertiser-level cause of one advertiser (read in `facts`): low balance, no spend, under-delivery."""
    campaigns, delivery = facts.campaigns[advertiser_id], facts.deliveries[advertiser_id]
    return [*low_balance(advertiser_id, facts.balances[advertiser_id], delivery, now.date(), threshold_days),
            *no_spend(campaigns, delivery, now), *under_delivery(campaigns, delivery, now)]


def failed_report_runs(db: Session) -> list[Cause]:
    """Reports whose latest finished run failed (a later completed run, or the report's deletion, clears it)."""
    latest = (select(ReportRun.report_id, func.max(ReportRun.id).label("run_id"))
              .where(col(ReportRun.status).in_((RunStatus.COMPLETED, RunStatus.FAILED)))
              .group_by(col(ReportRun.report_id)).subquery())
    rows = db.exec(select(Report, ReportRun).join(latest, col(latest.c.report_id) == Report.id)
                   .join(ReportRun, col(ReportRun.id) == latest.c.run_id)
                   .where(ReportRun.status == RunStatus.FAILED))
    return [Cause(AlertKind.REPORT_FAILED, f"report:{report.id}", report.owner_id,
                  f"Report failed: {report.name}",
                  f"The run of {run.finished_at or run.created_at:%Y-%m-%d %H:%M} UTC failed: {run.error}"[:500])
            for report, run in rows]


def failed_dsp_pushes(db: Session) -> list[Cause]:
    """Pushes to a DSP whose every attempt failed and that no later push delivered (admins')."""
    return [Cause(AlertKind.PUSH_FAILED, f"push:{p.dsp_id}:{p.entity}:{p.local_id}", None,
                  f"Push to {p.dsp_name} failed: {p.entity} #{p.local_id}", p.error[:500])
            for p in failed_pushes(db)]
