"""The delivery checks' extension point and what every check is given.

A check looks at one campaign (a Subject) and answers the reasons it finds, usually none. Campaigns declare the
hook and their own checks (campaign_checks.py, delivery_checks.py); the domains that know the rest register
theirs when their package loads, so campaigns never import them: funds the balance (app/funds/diagnosis.py),
creatives the attached creatives (app/creatives/diagnosis.py). A Subject reads what several checks share (the
spend, the last 7 days' delivery) once, on first use."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from sqlmodel import Session

from app.access.models import User
from app.access.policy import Actor
from app.campaigns.diagnosis.schemas import Code, Figure, Fix, Reason, Severity
from app.campaigns.models import Campaign
from app.kernel.hooks import Hook
from app.kernel.i18n.catalog import Message
from app.kernel.page_links import page_link
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, StatsRow, whole

RECENT_DAYS = 7  # what "recent delivery" means: the targeting and bid checks compare with these days
# The placement dimensions a campaign's targeting and the statistics store share (targeting key -> store key).
PLACEMENT_KEYS = {"exchanges": "exchange", "countries": "country", "operating_systems": "os",
                  "device_types": "device_type"}
FIRST_DAY = date(2000, 1, 1)  # "all time" for the store (as campaigns.spent_micros asks it)


@dataclass
class Subject:
    """One campaign under examination, in the actor's scope (diagnose checked it)."""

    db: Session
    actor: Actor
    campaign: Campaign
    advertiser: User
    now: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def campaign_id(self) -> int:
        assert self.campaign.id is not None
        return self.campaign.id

    @property
    def today(self) -> date:
        """Today in the campaign's time zone: its daily budget counts its own days."""
        return self.now.astimezone(ZoneInfo(self.campaign.time_zone)).date()

    @cached_property
    def spend_by_day(self) -> dict[date, int]:
        """The campaign's spend per day of its time zone, over all time, micro-dollars (one store query)."""
        rows = get_store().query(StatsQuery(
            start=FIRST_DAY, end=self.today + timedelta(days=1), dimensions=("date",), metrics=("spend",),
            advertiser_ids=(self.campaign.advertiser_id,), filters={"campaign_id": (self.campaign_id,)},
            time_zone=self.campaign.time_zone))
        return {row["date"]: whole(row.get("spend_micros")) for row in rows if isinstance(row["date"], date)}

    @property
    def spent(self) -> int:
        return sum(self.spend_by_day.values())

    @property
    def spent_today(self) -> int:
        return self.spend_by_day.get(self.today, 0)

    @cached_property
    def recent_delivery(self) -> list[StatsRow]:
        """The advertiser's delivery (every campaign of it) of the last RECENT_DAYS days, one row per campaign, day
        and placement the targeting can choose (exchange x country x OS x device), with impressions, clicks and
        spend: fine enough that prices keep their spread (the bid check's percentiles), a few thousand rows at
        most."""
        last = self.now.date()
        return get_store().query(StatsQuery(
            start=last - timedelta(days=RECENT_DAYS - 1), end=last, dimensions=("campaign_id", "date", *PLACEMENT_KEYS.values()),
            metrics=("impressions", "clicks", "spend"), advertiser_ids=(self.campaign.advertiser_id,)))

    def fix(self, label: Message, *pages: str) -> Fix:
        """A fix on the first of `pages` the actor's role has (campaign pages get the campaign's id); the last
        page named when none has a link for the role."""
        for page in pages:
            if link := page_link(page, self.actor.role, id=self.campaign_id):
                return Fix(label=label, page=page, link=link)
        return Fix(label=label, page=pages[-1], link=None)


def reason(code: Code, severity: Severity, message: Message, fix: Fix | None = None,
           **details: Figure) -> Reason:
    return Reason(code=code, severity=severity, message=message, details=details, fix=fix)


Check = Callable[[Subject], Sequence[Reason]]
# Registered by name; the balance and the creatives are other domains' (a missing registration fails loudly).
CHECKS: Hook[Check] = Hook("campaign delivery checks", needed=("status", "balance", "creatives", "delivery"))

