"""Alerts over the API: the list (paged, open ones first) and the caller's alert subscription. The same service
calls as the pages, so the same scope: another tenant's alerts are never listed."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query
from sqlmodel import Session

from app.access.policy import Actor
from app.alerts import service as alerts
from app.alerts.schemas import KIND_HELP, AlertRead, SubscriptionRead, SubscriptionUpdate
from app.kernel.paging import Page
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["alerts"])

LIST_HELP = ("Alerts of what you may see (admin: all; co-admin: all but admins'; agency: its own and its "
             "advertisers'; advertiser: its own), open ones first, then newest first. Scheduled checks raise each "
             "once and clear it (`open` false, `cleared_at`) when its cause is gone. Kinds: " + KIND_HELP +
             ". A page at a time (`limit`, `cursor`); `total` counts every row.")


@router.get("/alerts", summary="Alerts", description=LIST_HELP)
def list_alerts(state: Literal["all", "open"] = Query("all", description="`open`: only alerts not cleared"),
                paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[Page[AlertRead]]:
    return reply(alerts.list_alerts(db, actor=actor, state=state, limit=paging.limit, cursor=paging.cursor))


@router.get("/alerts/subscription", summary="Your alert settings",
            description="Which alert kinds you also receive by e-mail, and your low-balance threshold in days.")
def get_subscription(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[SubscriptionRead]:
    return reply(alerts.get_subscription(db, actor=actor))


@router.put("/alerts/subscription", summary="Change your alert settings",
            description="Fields left out keep their value. A wrong field answers 422 naming it in `data.fields` "
                        "(`email_kinds`, `low_balance_days`).")
def update_subscription(body: SubscriptionUpdate, actor: Actor = Depends(get_actor),
                        db: Session = DB) -> Envelope[SubscriptionRead]:
    return reply(alerts.update_subscription(db, actor=actor, email_kinds=body.email_kinds,
                                            low_balance_days=body.low_balance_days), "Alert settings saved")
