"""Realistic delivery for demos (`python -m app simulate`) and synthetic volume for benchmarks (--rows).

Demo mode writes what the ACTIVE campaigns would have delivered, hour by hour, through the same checks, store
and ledger charges as the ingestion API: inside each campaign's flight, within its daily and total budgets
(even pacing follows the day's traffic curve, asap spends early), where its targeting points (countries, OS,
exchanges, devices, dayparting), and never past the advertiser's balance. Traffic has a night trough and a
weekend dip; CTR stays within 0.1-2 %, eCPM within $0.50-$8.

Every hour is one batch named `sim:<hour>`, and each campaign-hour draws from a generator seeded by
(seed, campaign, hour): running again over the same hours writes and charges nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from app.access.models import UserSettings
from app.campaigns import exchange_approvals
from app.campaigns.models import Campaign, CampaignStatus
from app.creatives.models import CampaignCreative
from app.funds import service as funds
from app.reference.models import ReferenceValue
from app.statistics import ingestion
from app.warehouse import get_store
from app.warehouse.base import FactRow, StatsQuery, whole

BATCH_ROWS = 50_000
# Share of a day's traffic in each local hour (night trough around 04:00, evening peak), and per weekday
# (Monday first): weekends dip.
HOUR_CURVE = (0.35, 0.25, 0.18, 0.14, 0.13, 0.18, 0.35, 0.6, 0.8, 0.9, 0.95, 1.0, 1.0, 0.98, 0.95, 0.95, 1.0,
              1.05, 1.15, 1.25, 1.3, 1.2, 0.9, 0.6)
WEEKDAY_FACTOR = (1.0, 1.02, 1.03, 1.0, 0.97, 0.78, 0.74)
# Click-through and conversion rates by objective (typical programmatic figures).
CTR_RANGE = {"awareness": (0.001, 0.004), "traffic": (0.008, 0.02), "conversions": (0.004, 0.012),
             "app_installs": (0.006, 0.015), "video_views": (0.002, 0.006)}
CVR_RANGE = {"awareness": (0.002, 0.01), "traffic": (0.01, 0.03), "conversions": (0.03, 0.08),
             "app_installs": (0.08, 0.2), "video_views": (0.003, 0.01)}
ECPM_MICROS = (500_000, 8_000_000)
COUNTRIES = ("US", "GB", "DE", "FR", "CA", "AU", "ES", "IT", "NL", "BR", "IN", "JP")
EXCHANGES = ("Google AdX", "OpenX", "PubMatic", "Magnite", "Index Exchange", "Xandr", "InMobi", "Smaato",
             "Unity Ads", "AppLovin")
DEVICES = {"phone": 0.62, "tablet": 0.12, "desktop": 0.22, "ctv": 0.04}
OS_BY_DEVICE = {"phone": ("Android", "iOS"), "tablet": ("iPadOS", "Android"), "desktop": ("Windows", "macOS"),
                "ctv": ("tvOS", "Android")}
APPS = ("com.king.candycrush", "com.spotify.music", "com.weather.forecast", "com.zhiliaoapp.musically",
        "com.example.puzzle", "com.news.reader", "com.duolingo", "com.fitness.tracker")
# Devices the demo's delivery reaches: each simulated row is one device's delivery, drawn from the advertiser's
# pool, so forecasts have distinct devices (reach) to count. Drawn from a generator of their own: the demo's
# other figures are the same as before rows carried devices.
DEVICE_POOL = 2_000
SITES = ("news.example.com", "weather.example.org", "recipes.example.net", "sports.example.com",
         "tech.example.io", "travel.example.com")


@dataclass
class _Plan:
    """One campaign's fixed traits and what it has spent so far."""

    campaign: Campaign
    zone: ZoneInfo
    ecpm_micros: int
    ctr: float
    cvr: float
    countries: tuple[str, ...]
    devices: tuple[str, ...]
    systems: tuple[str, ...]
    exchanges: tuple[str, ...]
    apps: tuple[str, ...]
    creatives: tuple[int, ...]
    spent: int = 0
    spent_by_day: dict[date, int] = field(default_factory=lambda: defaultdict(int))


def _names(db: Session, ids: list[int]) -> tuple[str, ...]:
    if not ids:
        return ()
    return tuple(db.exec(select(ReferenceValue.name).where(col(ReferenceValue.id).in_(ids))).all())


def _plan(db: Session, campaign: Campaign, seed: int, approved: tuple[str, ...]) -> _Plan:
    rng = random.Random(f"{seed}:{campaign.id}")
    targeting = campaign.targeting or {}
    if campaign.bid_strategy == "cpm":  # clears below the bid, as second-price-like auctions do
        ecpm = int(campaign.bid_micros * rng.uniform(0.55, 0.9))
    else:
        ecpm = int(rng.uniform(1.0, 5.0) * 1_000_000)
    devices = tuple(targeting.get("device_types") or ()) or tuple(DEVICES)
    creatives = tuple(db.exec(select(CampaignCreative.creative_id)
                              .where(CampaignCreative.campaign_id == campaign.id)).all())
    return _Plan(
        campaign=campaign, zone=ZoneInfo(campaign.time_zone or "UTC"),
        ecpm_micros=min(max(ecpm, ECPM_MICROS[0]), ECPM_MICROS[1]),
        ctr=rng.uniform(*CTR_RANGE.get(campaign.objective, (0.002, 0.01))),
        cvr=rng.uniform(*CVR_RANGE.get(campaign.objective, (0.01, 0.03))),
        countries=tuple(targeting.get("countries") or rng.sample(COUNTRIES, 4)),
        devices=devices, systems=_names(db, targeting.get("operating_systems") or []),
        exchanges=approved,
        apps=tuple(rng.sample(SITES if campaign.traffic_type == "web" else APPS, 4)),
        creatives=creatives or (0,))


def _daypart_ok(plan: _Plan, local: datetime) -> bool:
    parts = (plan.campaign.targeting or {}).get("dayparting") or []
    return not parts or local.hour in parts[local.weekday()]


def _day_weight(plan: _Plan, local: datetime) -> float:
    """This local hour's share of its day's spend (pacing and dayparting applied)."""
    day_start = local.replace(hour=0)
    hours = [day_start + timedelta(hours=h) for h in range(24)]
    allowed = [h for h in hours if _daypart_ok(plan, h)]
    if local not in allowed:
        return 0.0
    if plan.campaign.pacing == "asap":  # front-loaded: the budget goes in the first hours traffic allows
        ranks = {h: i for i, h in enumerate(allowed)}
        weights: dict[datetime, float] = {h: 0.5 ** (ranks[h] / 4) * HOUR_CURVE[h.hour] for h in allowed}
    else:
        weights = {h: HOUR_CURVE[h.hour] for h in allowed}
    return weights[local] / sum(weights.values())


def _daily_target(plan: _Plan, local_day: date, rng: random.Random) -> int:
    campaign = plan.campaign
    if campaign.daily_budget_micros:
        target = campaign.daily_budget_micros * rng.uniform(0.75, 0.97)
    else:
        end = campaign.ends_at or (campaign.starts_at + timedelta(days=60))
        days = max(1, (end - campaign.starts_at).days)
        target = campaign.total_budget_micros / days * rng.uniform(0.7, 0.95)
    return int(target * WEEKDAY_FACTOR[local_day.weekday()])


def _whole(expected: float, rng: random.Random) -> int:
    """A whole count whose average is `expected`: rounding 0.4 conversions down every hour would lose them all."""
    return int(expected + rng.random())


def _split(total: int, shares: list[float]) -> list[int]:
    """Whole parts of `total` in proportion to `shares`, adding up to `total` exactly."""
    weight = sum(shares) or 1.0
    parts = [int(total * s / weight) for s in shares]
    parts[0] += total - sum(parts)
    return parts


def _campaign_hour(plan: _Plan, hour: datetime, budget_left: int, seed: int) -> list[dict[str, Any]]:
    """The rows one campaign delivered in one UTC hour (none outside its flight or budgets)."""
    campaign = plan.campaign
    aware = hour.replace(tzinfo=UTC)
    starts = campaign.starts_at if campaign.starts_at.tzinfo else campaign.starts_at.replace(tzinfo=UTC)
    ends = campaign.ends_at and (campaign.ends_at if campaign.ends_at.tzinfo else campaign.ends_at.replace(tzinfo=UTC))
    if aware < starts.replace(minute=0, second=0, microsecond=0) or (ends and aware >= ends):
        return []
    local = aware.astimezone(plan.zone).replace(tzinfo=None)
    rng = random.Random(f"{seed}:{campaign.id}:{hour.isoformat()}")
    day_rng = random.Random(f"{seed}:{campaign.id}:{local.date().isoformat()}")
    daily = _daily_target(plan, local.date(), day_rng)
    spend = int(daily * _day_weight(plan, local) * rng.uniform(0.85, 1.15))
    if campaign.daily_budget_micros:
        spend = min(spend, campaign.daily_budget_micros - plan.spent_by_day[local.date()])
    spend = min(spend, campaign.total_budget_micros - plan.spent, budget_left)
    if spend < 10_000:  # less than a cent: no auction won this hour
        return []
    placements = rng.randint(3, 8)
    devices = random.Random(f"{seed}:{campaign.id}:{hour.isoformat()}:devices")
    rows = []
    for spend_part in _split(spend, [rng.random() + 0.2 for _ in range(placements)]):
        device = rng.choice(plan.devices)
        system = rng.choice([s for s in plan.systems if s in OS_BY_DEVICE[device]] or OS_BY_DEVICE[device]) \
            if plan.systems else rng.choice(OS_BY_DEVICE[device])
        ecpm = plan.ecpm_micros * rng.uniform(0.85, 1.15)
        impressions = max(1, round(spend_part * 1000 / ecpm))
        clicks = min(impressions, _whole(impressions * plan.ctr * rng.uniform(0.7, 1.3), rng))
        conversions = min(clicks, _whole(clicks * plan.cvr * rng.uniform(0.5, 1.5), rng))
        events: dict[str, int] = {}
        if campaign.objective == "app_installs":
            events = {"install": conversions}
        elif campaign.objective == "conversions":
            events = {"purchase": conversions, "add_to_cart": round(conversions * rng.uniform(2, 4))}
        rows.append({"hour": aware, "advertiser_id": campaign.advertiser_id, "campaign_id": campaign.id,
                     "creative_id": rng.choice(plan.creatives), "exchange": rng.choice(plan.exchanges), "os": system,
                     "country": rng.choice(plan.countries), "app": rng.choice(plan.apps), "device_type": device,
                     "impressions": impressions, "clicks": clicks, "spend_micros": spend_part,
                     "conversions": conversions, "events": {k: v for k, v in events.items() if v},
                     "device": device_id(campaign.advertiser_id, devices.randrange(DEVICE_POOL))})
    return rows


def device_id(advertiser_id: int, number: int) -> str:
    """A simulated device's hashed id (as a real one arrives: a SHA-256 of its advertising id, here made up)."""
    return hashlib.sha256(f"demo-device:{advertiser_id}:{number}".encode()).hexdigest()[:32]


def _spent_so_far(plans: dict[int, _Plan]) -> None:
    """What the store already holds for these campaigns (an earlier run, real ingestion): budgets count it."""
    if not plans:
        return
    span = get_store().first_and_last_hour(sorted({p.campaign.advertiser_id for p in plans.values()}))
    if span is None:
        return
    query = StatsQuery(start=span[0].date() - timedelta(days=1), end=span[1].date() + timedelta(days=1),
                       dimensions=("campaign_id", "hour"), metrics=("spend",),
                       filters={"campaign_id": tuple(plans)})
    for row in get_store().query(query):
        plan, spend, hour = plans[whole(row["campaign_id"])], whole(row["spend_micros"]), row["hour"]
        assert isinstance(hour, datetime)
        plan.spent += spend
        plan.spent_by_day[hour.replace(tzinfo=UTC).astimezone(plan.zone).date()] += spend


def simulate(db: Session, *, days: int = 30, seed: int = 1, now: datetime | None = None,
             log: Callable[[str], None] = lambda _message: None) -> dict[str, Any]:
    """Write the last `days` days (up to the current hour) of the active campaigns' delivery, one batch per hour,
    charged to the advertisers. Answers {hours, batches_written, rows, spend_micros}."""
    current = (now or datetime.now(UTC)).astimezone(UTC).replace(minute=0, second=0, microsecond=0, tzinfo=None)
    campaigns = db.exec(select(Campaign).where(Campaign.status == CampaignStatus.ACTIVE)
                        .order_by(col(Campaign.id))).all()
    # A campaign runs only on the exchanges approved for it (services/exchange_approvals.py); without any, nowhere.
    approved = exchange_approvals.approved_exchange_names(db, [int(c.id) for c in campaigns if c.id is not None])
    plans = {int(c.id): _plan(db, c, seed, approved[int(c.id)]) for c in campaigns
             if c.id is not None and approved.get(int(c.id))}
    _spent_so_far(plans)
    advertisers = sorted({p.campaign.advertiser_id for p in plans.values()})
    balances = funds.balances_micros(db, advertisers)
    margins = dict(db.exec(select(UserSettings.user_id, UserSettings.margin_bps)
                           .where(col(UserSettings.user_id).in_(advertisers))).all()) if advertisers else {}
    written = rows_total = spend_total = 0
    hours = [current - timedelta(hours=h) for h in range(days * 24, 0, -1)]
    for index, hour in enumerate(hours):
        batch: list[dict[str, Any]] = []
        hour_spend: dict[int, int] = defaultdict(int)
        for plan in plans.values():
            advertiser = plan.campaign.advertiser_id
            margin = margins.get(advertiser, 0)
            # Spend plus the agency's margin on it must fit in what is left of the balance (kept above zero).
            left = balances[advertiser] - hour_spend[advertiser] - funds.margin_micros(hour_spend[advertiser], margin)
            rows = _campaign_hour(plan, hour, max(0, (left - 1) * 10_000 // (10_000 + margin)), seed)
            spend = sum(r["spend_micros"] for r in rows)
            hour_spend[advertiser] += spend
            batch.extend(rows)
        if not batch:
            continue
        facts = ingestion.check_rows(db, [(f"rows[{i}]", row) for i, row in enumerate(batch)])
        # Charged at the hour it delivered in, as if it had arrived live: the ledger reads day by day.
        answer = ingestion.store_and_charge(db, batch_id=f"sim:{hour:%Y-%m-%dT%H}", facts=facts, source="simulator",
                                            booked_at=hour.replace(tzinfo=UTC))
        if answer.duplicate:
            continue  # already stored (and counted by _spent_so_far)
        for row in batch:
            plan = plans[row["campaign_id"]]
            plan.spent += row["spend_micros"]
            plan.spent_by_day[row["hour"].astimezone(plan.zone).date()] += row["spend_micros"]
        for advertiser, spend in hour_spend.items():
            balances[advertiser] -= spend + funds.margin_micros(spend, margins.get(advertiser, 0))
        db.flush()
        written += 1
        rows_total += len(batch)
        spend_total += sum(hour_spend.values())
        if index % 24 == 23:
            log(f"{hour:%Y-%m-%d}: {rows_total:,} rows, ${spend_total / 1e6:,.2f} spent so far")
    return {"hours": len(hours), "batches_written": written, "rows": rows_total, "spend_micros": spend_total}


# -- benchmark volume -------------------------------------------------------------------------------------
SYNTHETIC_DEVICE_POOL = 50_000  # devices per synthetic advertiser (each row one of them: reach to count)
def synthetic_rows(count: int, *, seed: int = 1, days: int = 90, advertisers: int = 500,
                   end: datetime | None = None) -> Iterator[FactRow]:
    """`count` hourly rows for synthetic advertisers (ids from 1,000,001) over the last `days` days, in time
    order as they would arrive. Each advertiser delivers through a fixed set of placements (campaign, creative,
    exchange, OS, country, app, device), a few advertisers far more than the rest, as on a real DSP. Never
    charged: these advertisers have no accounts."""
    rng = random.Random(seed)
    last = (end or datetime.now(UTC)).replace(minute=0, second=0, microsecond=0, tzinfo=None)
    countries = COUNTRIES + ("MX", "SE", "PL", "TR", "KR", "ZA", "AR", "BE", "AT", "CH")
    devices, device_weights = list(DEVICES), list(DEVICES.values())
    placements, weights = [], []
    for number in range(advertisers):
        advertiser = 1_000_001 + number
        size = 40 + rng.randrange(160)
        share = 1 / (number + 1) ** 0.8  # a few big spenders, a long tail
        for _ in range(size):
            device = rng.choices(devices, device_weights)[0]
            placements.append((advertiser, advertiser * 10 + rng.randrange(10), advertiser * 100 + rng.randrange(20),
                               rng.choice(EXCHANGES), rng.choice(OS_BY_DEVICE[device]), rng.choice(countries),
                               rng.choice(APPS), device))
            weights.append(share / size)
    cumulative = list(itertools.accumulate(weights))
    per_hour = max(1, math.ceil(count / (days * 24)))
    hour = last - timedelta(days=days)
    written = 0
    draw = rng.random
    device_draws = random.Random(seed + 1)  # its own generator: the rows' other values are those of before devices
    while written < count:
        for placement in rng.choices(placements, cum_weights=cumulative, k=min(per_hour, count - written)):
            impressions = 50 + int(draw() * 20_000)
            clicks = int(impressions * (0.001 + draw() * 0.019))
            yield FactRow(hour, *placement, impressions, clicks, int(impressions * (500 + draw() * 7_500)),
                          int(clicks * draw() * 0.1),
                          device=f"{placement[0]:08x}{device_draws.randrange(SYNTHETIC_DEVICE_POOL):08x}")
            written += 1
        hour += timedelta(hours=1)


def write_synthetic(count: int, *, seed: int = 1, log: Callable[[str], None] = print) -> float:
    """Benchmark mode: `count` synthetic rows straight into the store in batches of 50,000 (no ledger charges).
    Returns the seconds it took."""
    store = get_store()
    rows = synthetic_rows(count, seed=seed)
    started = time.perf_counter()
    done = number = 0
    while done < count:
        chunk = [row for _, row in zip(range(min(BATCH_ROWS, count - done)), rows, strict=False)]
        number += 1
        store.ingest(f"bench:{seed}:{number}", chunk, source="benchmark")
        done += len(chunk)
        elapsed = time.perf_counter() - started
        if number % 20 == 0 or done == count:
            log(f"{done:,} rows in {elapsed:.1f} s ({done / elapsed:,.0f} rows/s)")
    return time.perf_counter() - started
