"""Many campaigns at once over the API: bulk edits, the admin's bulk status, bulk exchanges, the CSV export of
the list, and an advertiser's balance. The same service calls the pages make, so the same checks; each bulk
row is applied or refused on its own, and the reply lists them in request order."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import bulk as campaign_bulk
from app.campaigns import export as campaign_export
from app.campaigns import service as campaigns
from app.campaigns.bulk import ChangeSet
from app.campaigns.schemas import BulkChanges, BulkResult, Status
from app.history.schemas import RowVersions
from app.kernel.csv_exports import ExportLink
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["campaigns: many at once"])

IDS_HELP = f"The campaigns to change, at most {campaign_bulk.MAX_CAMPAIGNS:,}"
RESULTS_HELP = ("Replies with one {id, name, ok, message} per requested id, in request order; message says why a "
                "row was refused, naming the field (\"\" when applied). An id you cannot reach gives "
                "\"Campaign not found.\".")


class BulkUpdateBody(RowVersions):
    model_config = example({"campaign_ids": [101, 102], "changes": {"bid": "0.40", "daily_budget": "150"}})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)
    changes: BulkChanges


class BulkStatusBody(RowVersions):
    model_config = example({"campaign_ids": [101, 102], "status": "paused"})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)
    status: Status


class BulkExchangesBody(RowVersions):
    model_config = example({"campaign_ids": [101, 102], "add": [3], "remove": [4]})

    campaign_ids: list[int] = Field(..., description=IDS_HELP)
    add: list[int] = Field(default_factory=list, description="Exchange ids to add to each campaign's targeting")
    remove: list[int] = Field(default_factory=list, description="Exchange ids to take out of it")


class ExportBody(BaseModel):
    """The list's filters, as on the campaign list, and the columns to write (none: all)."""

    model_config = example({
        "columns": ["id", "name", "status"], "status": "active", "include_archived": False})

    columns: list[str] = Field(default_factory=list, description=f"Of: {', '.join(campaigns.LIST_COLUMNS)}")
    status: str = ""
    search: str = ""
    advertiser_id: int | None = None
    include_archived: bool = False
    sort: str = Field("", description="A list column, '-' first for descending")


def changes_of(body: BulkChanges) -> ChangeSet:
    """The changes the caller sent (left-out fields are not changes; an explicit null is not one either)."""
    return {key: value for key, value in body.model_dump(exclude_unset=True).items() if value is not None}


def summary(results: list[BulkResult]) -> str:
    applied = sum(1 for row in results if row.ok)
    return f"{applied} of {len(results)} campaigns changed"


def answered(results: list[BulkResult]) -> Envelope[list[BulkResult]]:
    """A bulk call's reply: one result per requested id, and how many were applied."""
    return reply(results, summary(results))


def exported(db: Session, actor: Actor, body: ExportBody) -> Envelope[ExportLink]:
    return reply(campaign_export.export_campaigns(db, actor=actor, **body.model_dump()), "Export ready")


@router.post("/campaigns/bulk", description="Change many campaigns at once. " + RESULTS_HELP)
def bulk_update(body: BulkUpdateBody, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_update(db, actor=actor, campaign_ids=body.campaign_ids,
                                              changes=changes_of(body.changes), read=body.versions))


@router.post("/campaigns/bulk/status", description="Admin and co-admin: move many campaigns to one status. "
                                                  + RESULTS_HELP)
def bulk_status(body: BulkStatusBody, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_status(db, actor=actor, campaign_ids=body.campaign_ids, status=body.status,
                                              read=body.versions))


@router.post("/campaigns/bulk/exchanges", description="Add exchanges to, or remove them from, many campaigns; a "
                                                     "campaign whose advertiser may not buy on an added exchange "
                                                     "is refused. " + RESULTS_HELP)
def bulk_exchanges(body: BulkExchangesBody, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[list[BulkResult]]:
    return answered(campaign_bulk.bulk_exchanges(db, actor=actor, campaign_ids=body.campaign_ids, add=body.add,
                                                 remove=body.remove, read=body.versions))


@router.post("/campaigns/export")
def export(body: ExportBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ExportLink]:
    """The campaign list as CSV: replies {csv_download_url, filename}. The link works for 15 minutes, and only
    for you (send your session cookie or bearer token with the download)."""
    return exported(db, actor, body)
