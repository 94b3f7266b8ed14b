"""Exchange approvals over the API: staff list the requests and approve or reject many at once (one result per
request, in request order); anyone who may see a campaign reads its exchanges' states and reasons."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import exchange_approvals
from app.campaigns.schemas import BulkResult, CampaignExchangeRead, ExchangeRequestRead
from app.kernel.paging import Page
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["exchange approvals"])


class DecisionBody(BaseModel):
    model_config = example({
        "approval_ids": [7, 8], "decision": "rejected", "reason": "The exchange does not take this category"})

    approval_ids: list[int] = Field(..., description=f"The requests, at most {exchange_approvals.MAX_DECISIONS:,}")
    decision: Literal["approved", "rejected"]
    reason: str = Field("", description="Required for a rejection; shown to the advertiser on the campaign")


@router.get("/exchange-approval")
def list_requests(status: str = Query("pending", description="pending, approved, rejected, or empty for all"),
                  campaign_id: int | None = None,
                  search: str = Query("", max_length=200, description="Only requests whose campaign, advertiser "
                                                                      "or exchange name contains this text"),
                  paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                  db: Session = DB) -> Envelope[Page[ExchangeRequestRead]]:
    """Staff: the exchange requests of every campaign that is not archived, a page at a time, newest first;
    `total` counts what the filters match."""
    return reply(exchange_approvals.requests_page(db, actor=actor, status=status, campaign_id=campaign_id,
                                                  search=search, limit=paging.limit, cursor=paging.cursor))


@router.post("/exchange-approval/decide")
@router.post("/campaning/bulk/exchange-approval", include_in_schema=False)
def decide(body: DecisionBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[BulkResult]]:
    """Staff: approve or reject requests. Replies with one {id, name, ok, message} per id in request order; a
    rejection without a reason is refused as a whole (422, field `reason`). Also the spec's
    `campaning/bulk/exchange-approval`."""
    return reply(exchange_approvals.decide_many(db, actor=actor, approval_ids=body.approval_ids,
                                                decision=body.decision, reason=body.reason))


@router.get("/campaigns/{campaign_id}/exchanges")
def campaign_exchanges(campaign_id: int, paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                       db: Session = DB) -> Envelope[Page[CampaignExchangeRead]]:
    """Each exchange a campaign asked for, with its state (pending, approved, rejected) and the reason, a page at
    a time by exchange name."""
    return reply(exchange_approvals.campaign_exchanges_page(db, actor=actor, campaign_id=campaign_id,
                                                            limit=paging.limit, cursor=paging.cursor))
