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
from app.statistics.money_replies import Figure
from app.statistics.schemas import DashboardOverview, FigureRows, Insight
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["dashboards"])

# Who may use each family of names: dashboard/* is everyone's (each in their own scope).
PREFIXES: dict[str, frozenset[Role] | None] = {"dashboard": None, "admin/dashboard": frozenset(STAFF_ROLES),
                                               "agency/dashboard": frozenset({Role.AGENCY})}


class Filters:
    def __init__(self, start: str | None = Query(None, description="First day, YYYY-MM-DD"),
                 end: str | None = Query(None, description="Last day, YYYY-MM-DD (inclusive)"),
                 campaign_id: list[int] = Query(default_factory=list, description="Only these campaigns"),
                 advertiser_id: int | None = Query(None, description="Only this advertiser (agency and staff)")) -> None:
        self.start, self.end, self.campaign_ids, self.advertiser_id = start, end, campaign_id, advertiser_id


def _checked(actor: Actor, prefix: str) -> None:
    roles = PREFIXES[prefix]
    if roles is not None and actor.role not in roles:
        raise Forbidden("You do not have permission to do that.")


# What each call answers (its route's response schema) and how: from the page's filters.
Answer = Callable[[Session, Actor, Filters], object]


def _add(prefix: str, name: str, summary: str, answer: Answer, shape: Any) -> None:
    def endpoint(filters: Filters = Depends(), actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[object]:
        _checked(actor, prefix)
        return reply(answer(db, actor, filters))

    # The same endpoint under three families of names: its schema is given here rather than in its annotation.
    router.add_api_route(f"/{prefix}/{name}", endpoint, methods=["GET"], summary=summary, response_model=Envelope[shape],
                         name=f"{prefix.replace('/', '_')}_{name.replace('/', '_')}",
                         description=summary + " " + (__doc__ or "").split("\n\n")[0].replace("\n", " "))


def _breakdown(by: str) -> Answer:
    return lambda db, actor, f: dashboards.breakdown(db, actor=actor, by=by, start=f.start, end=f.end,
                                                     campaign_ids=f.campaign_ids, advertiser_id=f.advertiser_id)


def _by_day(db: Session, actor: Actor, f: Filters) -> list[dict[str, Figure]]:
    return dashboards.by_day(db, actor=actor, start=f.start, end=f.end, campaign_ids=f.campaign_ids,
                             advertiser_id=f.advertiser_id)


ROWS = FigureRows  # money columns as dollar text
CALLS: tuple[tuple[str, str, Answer, Any], ...] = (
    ("overview", "Headline figures of the period and the previous one, with the change in percent",
     lambda db, actor, f: dashboards.overview(db, actor=actor, start=f.start, end=f.end, campaign_ids=f.campaign_ids,
                                              advertiser_id=f.advertiser_id), DashboardOverview),
    ("performanceByCampaign", "Top campaigns by spend", _breakdown("campaign"), ROWS),
    ("performanceByCreative", "Top creatives by spend", _breakdown("creative"), ROWS),
    ("performanceByExchangeAdvertiser", "Top exchanges by spend", _breakdown("exchange"), ROWS),
    ("performanceByOSAdvertiser", "Top operating systems by spend", _breakdown("os"), ROWS),
    ("performanceByAdvertiser", "Top advertisers by spend (agency and staff)", _breakdown("advertiser"), ROWS),
    ("chart", "Impressions, clicks, spend and conversions for every day of the period (zeros included)", _by_day, ROWS),
    ("performance/day", "Every day of the period with all metrics", _by_day, ROWS),
    ("insight", "Insight360: each active campaign's pacing and the campaigns that need attention",
     lambda db, actor, f: dashboards.insight(db, actor=actor, campaign_ids=f.campaign_ids,
                                             advertiser_id=f.advertiser_id), Insight),
)

for _prefix in PREFIXES:
    for _name, _summary, _answer, _shape in CALLS:
        _add(_prefix, _name, _summary, _answer, _shape)
