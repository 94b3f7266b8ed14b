"""The delivery check over the API: the same call the campaign view's "Delivery check" panel makes."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns.diagnosis.schemas import Diagnosis
from app.campaigns.diagnosis.service import diagnose
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["campaigns"])


@router.get("/campaigns/{campaign_id}/diagnosis", summary="Why isn't it delivering?")
def campaign_diagnosis(campaign_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Diagnosis]:
    """Every reason the campaign is not spending, most blocking first (blocking, then limiting, then info): its
    status, flight, the advertiser's balance, total and daily budget, exchange approvals, active creatives,
    targeting that matched none of the advertiser's delivery of the last 7 days, a bid below what comparable
    delivery cleared at, its frequency cap. Each reason has its figures and a fix: the page that fixes it, as a
    path for your role. `eligible` is true when nothing blocks. Anyone who may read the campaign may ask; another
    tenant's campaign is 404."""
    return reply(diagnose(db, actor=actor, campaign_id=campaign_id))
