"""The campaign calls under the names the spec gives them (section 7, "Campaigns": campaning/..., with the
spec's spelling). Each is an alias of a REST call in campaigns.py or campaign_tools.py and runs the same
service function, so answers and checks are identical; new clients should prefer the REST paths.

Bodies are plain JSON, or the spec client's `encryptedData` envelope when DSP_CLIENT_ENVELOPE_KEY is set
(app/web/client_envelope.py unwraps it before these routes read the body)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Response
from pydantic import Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.api import SORT_HELP, StatusBody, edit_campaign
from app.campaigns.bulk import ChangeSet
from app.campaigns.schemas import (
    BulkResult,
    CampaignBody,
    CampaignListRow,
    CampaignRead,
    GoalMetric,
    ListChange,
)
from app.campaigns.tools_api import (
    IDS_HELP,
    RESULTS_HELP,
    BulkExchangesBody,
    BulkStatusBody,
    BulkUpdateBody,
    ExportBody,
    answered,
    changes_of,
    exported,
)
from app.history.schemas import RowVersions
from app.kernel.csv_exports import ExportLink
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply
from app.web.record_versions import ETAG_HEADER, STALE_REPLY, if_match_header, tagged

router = APIRouter(tags=["campaigns: spec call names"])


class CampaignStatusBody(StatusBody):
    model_config = example({"campaign_id": 101, "status": "paused"})

    campaign_id: int


class CampaignEditBody(CampaignBody):
    model_config = example({"campaign_id": 101, "bid": "0.40", "daily_budget": "150"})

    campaign_id: int


class BidRangeBody(RowVersions):
    model_config = example({"campaign_ids": [101, 102], "bid_min": "0.20", "bid_max": "0.60"})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)
    bid_min: str | None = Field(None, description="Dollars as text; left out: unchanged")
    bid_max: str | None = Field(None, description="Dollars as text; left out: unchanged")


class ListsBody(ListChange, RowVersions):
    model_config = example({"campaign_ids": [101, 102], "mode": "add", "allow": [5], "block": []})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)


class OptimizationBody(RowVersions):
    model_config = example({"campaign_ids": [101, 102], "goal_metric": "cpi", "goal_target": "1.50"})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)
    goal_metric: GoalMetric
    goal_target: str = Field("", description="CTR/VCR in %, CPA/CPI in dollars; empty for none")


def _bulk(db: Session, actor: Actor, body: RowVersions, campaign_ids: list[int],
          changes: ChangeSet) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_update(db, actor=actor, campaign_ids=campaign_ids, changes=changes,
                                              read=body.versions))


@router.get("/campaning/campaignData")
def campaign_data(status: str = "", search: str = "", advertiser_id: int | None = None, include_archived: bool = False,
                  sort: str = Query("", description=SORT_HELP), actor: Actor = Depends(get_actor),
                  db: Session = DB) -> Envelope[list[CampaignListRow]]:
    """The whole campaign list in one answer, as the spec's client reads it (GET /campaigns gives it a page at a time)."""
    return reply(campaigns.list_campaigns(db, actor=actor, status=status, search=search, advertiser_id=advertiser_id,
                                          include_archived=include_archived, sort=sort))


@router.post("/campaning/changeStatus")
def change_status(body: CampaignStatusBody, actor: Actor = Depends(get_actor),
                  db: Session = DB) -> Envelope[CampaignRead]:
    """Move one campaign to a status (as PUT /campaigns/{id}/status)."""
    return reply(campaigns.set_status(db, actor=actor, campaign_id=body.campaign_id, status=body.status),
                 "Status changed")


@router.get("/campaning/editTable", responses=ETAG_HEADER)
def edit_table(campaign_id: int, response: Response, actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[CampaignRead]:
    """One campaign, for its edit form (as GET /campaigns/{id}, with its ETag)."""
    return reply(tagged(response, campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id)))


@router.post("/campaning/update/editTable", responses=STALE_REPLY)
def update_edit_table(body: CampaignEditBody, response: Response, if_match: str | None = if_match_header(),
                      actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[CampaignRead]:
    """Save a campaign's settings; fields left out keep their values, targeting kinds left out too, and If-Match
    (or `version`) refuses a save from an older copy (as PUT /campaigns/{id})."""
    return edit_campaign(db, actor, response, body.campaign_id, body, if_match)


@router.delete("/campaning/deleteCampaign")
def delete_campaign(campaign_id: int, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[CampaignRead]:
    """Delete a campaign: it is archived, never removed (as DELETE /campaigns/{id})."""
    return reply(campaigns.archive_campaign(db, actor=actor, campaign_id=campaign_id), "Campaign archived")


@router.post("/campaning/bulk/bid-range", description="Set the bid range of many campaigns. " + RESULTS_HELP)
def bulk_bid_range(body: BidRangeBody, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[list[BulkResult]]:
    changes: ChangeSet = body.model_dump(exclude_unset=True, exclude={"campaign_ids", "versions"})
    return _bulk(db, actor, body, body.campaign_ids, changes)


@router.post("/campaning/bulk/inventory", description="Add, remove or replace the inventory lists many campaigns "
                                                     "allow and block. " + RESULTS_HELP)
def bulk_inventory(body: ListsBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[BulkResult]]:
    return _bulk(db, actor, body, body.campaign_ids,
                 {"inventory_lists": body.model_dump(exclude={"campaign_ids", "versions"})})


@router.post("/campaning/bulk/audience", description="Add, remove or replace the audiences many campaigns allow "
                                                    "and block. " + RESULTS_HELP)
def bulk_audience(body: ListsBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[BulkResult]]:
    return _bulk(db, actor, body, body.campaign_ids, {"audiences": body.model_dump(exclude={"campaign_ids", "versions"})})


@router.post("/campaning/bulk/campaign-update", description="Any bulk change (as POST /campaigns/bulk). "
                                                           + RESULTS_HELP)
def bulk_campaign_update(body: BulkUpdateBody, actor: Actor = Depends(get_actor),
                         db: Session = DB) -> Envelope[list[BulkResult]]:
    return _bulk(db, actor, body, body.campaign_ids, changes_of(body.changes))


@router.post("/campaning/bulk/user-optimization-settings", description="Set the optimisation goal of many "
                                                                      "campaigns. " + RESULTS_HELP)
def bulk_optimization(body: OptimizationBody, actor: Actor = Depends(get_actor),
                      db: Session = DB) -> Envelope[list[BulkResult]]:
    return _bulk(db, actor, body, body.campaign_ids,
                 {"goal_metric": body.goal_metric, "goal_target": body.goal_target})


@router.post("/campaning/bulk/exchanges", description="As POST /campaigns/bulk/exchanges. " + RESULTS_HELP)
def bulk_exchanges(body: BulkExchangesBody, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_exchanges(db, actor=actor, campaign_ids=body.campaign_ids, add=body.add,
                                                 remove=body.remove, read=body.versions))


@router.post("/admin/campaning/bulk-status", description="Admin and co-admin (as POST /campaigns/bulk/status). "
                                                        + RESULTS_HELP)
def admin_bulk_status(body: BulkStatusBody, actor: Actor = Depends(get_actor),
                      db: Session = DB) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_status(db, actor=actor, campaign_ids=body.campaign_ids, status=body.status,
                                              read=body.versions))


@router.post("/campaning/exportCampaningData")
def export_campaign_data(body: ExportBody, actor: Actor = Depends(get_actor),
                         db: Session = DB) -> Envelope[ExportLink]:
    """The campaign list as CSV (as POST /campaigns/export): data.csv_download_url, valid 15 minutes, for you only."""
    return exported(db, actor, body)
