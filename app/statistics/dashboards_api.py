"""The dashboards over the API, under the spec's call names: dashboard/overview, the performanceBy* tables,
chart, performance/day, and Insight360's pacing and attention list. The admin/dashboard/* and agency/dashboard/*
variants answer the same for staff and agencies (across the advertisers they own). Each takes the page's
filters: start and end (YYYY-MM-DD, default the last 30 days, UTC days), campaign_id (repeat it for several)
and advertiser_id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Query
from sqlmodel import Session

from app.access.policy import Actor
from app.access.roles import STAFF_ROLES, Role
from app.kernel.errors import Forbidden
from app.statistics import dashboards
from app.statistics.money_replies import money_as_text
from app.web.deps import DB, get_actor
from app.web.envelope import ok

router = APIRouter(tags=["dashboards"])

# Who may use each family of names: dashboard/* is everyone's (each in their own scope).
PREFIXES: dict[str, frozenset[Role] | None] = {"dashboard": None, "admin/dashboard": frozenset(STAFF_ROLES),
                                               "agency/dashboard": frozenset({Role.AGENCY})}


class Filters:
    def __init__(self, start: str | None = Query(None, description="First day, YYYY-MM-DD"),
                 end: str | None = Query(None, description="Last day, YYYY-MM-DD (inclusive)"),
                 campaign_id: list[int] = Query(default_factory=list, description="Only these campaigns"),
                 advertiser_id: int | None = Query(None, description="Only this advertiser (agency and staff)")) -> None:
        self.options = {"start": start, "end": end, "campaign_ids": campaign_id, "advertiser_id": advertiser_id}


def _checked(actor: Actor, prefix: str) -> None:
    roles = PREFIXES[prefix]
    if roles is not None and actor.role not in roles:
        raise Forbidden("You do not have permission to do that.")


def _add(prefix: str, name: str, summary: str, answer: Callable[[Session, Actor, dict[str, Any]], Any]) -> None:
    def endpoint(filters: Filters = Depends(), actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
        _checked(actor, prefix)
        return ok(money_as_text(answer(db, actor, filters.options)))

    router.add_api_route(f"/{prefix}/{name}", endpoint, methods=["GET"], summary=summary,
                         name=f"{prefix.replace('/', '_')}_{name.replace('/', '_')}",
                         description=summary + " " + (__doc__ or "").split("\n\n")[0].replace("\n", " "))


CALLS: tuple[tuple[str, str, Callable[[Session, Actor, dict[str, Any]], Any]], ...] = (
    ("overview", "Headline figures of the period and the previous one, with the change in percent",
     lambda db, actor, o: dashboards.overview(db, actor=actor, **o)),
    ("performanceByCampaign", "Top campaigns by spend",
     lambda db, actor, o: dashboards.breakdown(db, actor=actor, by="campaign", **o)),
    ("performanceByCreative", "Top creatives by spend",
     lambda db, actor, o: dashboards.breakdown(db, actor=actor, by="creative", **o)),
    ("performanceByExchangeAdvertiser", "Top exchanges by spend",
     lambda db, actor, o: dashboards.breakdown(db, actor=actor, by="exchange", **o)),
    ("performanceByOSAdvertiser", "Top operating systems by spend",
     lambda db, actor, o: dashboards.breakdown(db, actor=actor, by="os", **o)),
    ("performanceByAdvertiser", "Top advertisers by spend (agency and staff)",
     lambda db, actor, o: dashboards.breakdown(db, actor=actor, by="advertiser", **o)),
    ("chart", "Impressions, clicks, spend and conversions for every day of the period (zeros included)",
     lambda db, actor, o: dashboards.by_day(db, actor=actor, **o)),
    ("performance/day", "Every day of the period with all metrics",
     lambda db, actor, o: dashboards.by_day(db, actor=actor, **o)),
    ("insight", "Insight360: each active campaign's pacing and the campaigns that need attention",
     lambda db, actor, o: dashboards.insight(db, actor=actor, campaign_ids=o["campaign_ids"],
                                             advertiser_id=o["advertiser_id"])),
)

for _prefix in PREFIXES:
    for _name, _summary, _answer in CALLS:
        _add(_prefix, _name, _summary, _answer)
