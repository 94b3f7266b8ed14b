"""Campaigns over the API: the same service calls the campaign pages make, so the same permission and
row-scope checks (an agency reaches its advertisers' campaigns only; another tenant's id answers 404)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import flight
from app.campaigns import forecast as forecasts
from app.campaigns import service as campaigns
from app.campaigns.forecast_schemas import Forecast, ForecastDraft
from app.campaigns.schemas import (
    CampaignBody,
    CampaignClone,
    CampaignCreate,
    CampaignListRow,
    CampaignRead,
    Status,
)
from app.kernel.paging import Page
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply
from app.web.paging import PageQuery, page_query
from app.web.record_versions import ETAG_HEADER, STALE_REPLY, expected_version, if_match_header, tagged

router = APIRouter(tags=["campaigns"])


class CloneBody(BaseModel):
    model_config = example({"starts_at": "2027-01-01", "ends_at": "2027-01-31"})

    starts_at: str | None = Field(None, description="The clone's start, " + flight.GIVEN
                                  + "; the original's when left out")
    ends_at: str | None = Field(None, description="The clone's end, " + flight.END_GIVEN
                                + "; needed when the original's flight has ended")


class StatusBody(BaseModel):
    status: Status


SORT_HELP = f"A list column ({', '.join(campaigns.LIST_COLUMNS)}), '-' first for descending"


@router.get("/campaigns")
def list_campaigns(status: str = "", search: str = "", advertiser_id: int | None = None,
                   include_archived: bool = False, sort: str = Query("", description=SORT_HELP),
                   paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[Page[CampaignListRow]]:
    """The campaigns you may see, a page at a time, newest first (by id: a save moves no campaign between pages)
    unless `sort` names a column; archived ones only when asked for. `total` counts every campaign the filters match."""
    return reply(campaigns.campaigns_api_page(db, actor=actor, status=status, search=search,
                                              advertiser_id=advertiser_id, include_archived=include_archived,
                                              sort=sort, limit=paging.limit, cursor=paging.cursor))


@router.post("/campaigns", status_code=201, responses=LOCATION_HEADER)
def create_campaign(body: CampaignCreate, response: Response, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[CampaignRead]:
    """A new campaign, as a draft."""
    campaign = campaigns.create_campaign(db, actor=actor, data=body, advertiser_id=body.advertiser_id)
    return created(response, campaign, "Campaign created", f"/campaigns/{campaign.id}")


@router.post("/campaigns/forecast")
def forecast_campaign(body: ForecastDraft, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Forecast]:
    """What a campaign draft would deliver per day (impressions, spend) and reach over its flight, as ranges from
    the advertiser's own delivery of the last 28 days that matches its targeting, at its bid, within its budgets.
    `no_history` (and `message`) when nothing matched: no figures are made up. Another tenant's advertiser
    answers 404."""
    return reply(forecasts.forecast(db, actor=actor, draft=body))


@router.get("/campaigns/{campaign_id}", responses=ETAG_HEADER)
def get_campaign(campaign_id: int, response: Response, actor: Actor = Depends(get_actor),
                 db: Session = DB) -> Envelope[CampaignRead]:
    """One campaign; its `version` is also the ETag, to send back as If-Match with an edit."""
    return reply(tagged(response, campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id)))


def edit_campaign(db: Session, actor: Actor, response: Response, campaign_id: int, body: CampaignBody,
                  if_match: str | None) -> Envelope[CampaignRead]:
    """An edit as every campaign edit route makes it: the fields sent, from the version If-Match (or the body's
    `version`) names; the answer carries the new version as its ETag."""
    data = body.model_copy(update={"version": expected_version(if_match, body.version)})
    saved = campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id, data=data)
    return reply(tagged(response, saved), "Campaign saved")


@router.patch("/campaigns/{campaign_id}", responses=STALE_REPLY)
@router.put("/campaigns/{campaign_id}", responses=STALE_REPLY, summary="Update Campaign (fields left out keep their "
                                                                       "values)")
def update_campaign(campaign_id: int, body: CampaignBody, response: Response, if_match: str | None = if_match_header(),
                    actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[CampaignRead]:
    """Change the settings sent; the others keep their values, and `targeting` changes only the kinds it names
    (`{"targeting": {"countries": ["FR"]}}` leaves exchanges, devices and the rest as they are; an empty list clears
    a kind). PUT works the same as PATCH. If-Match (or `version`) is optional; when given, a campaign saved since
    that version is refused with 409 naming who changed what."""
    return edit_campaign(db, actor, response, campaign_id, body, if_match)


@router.post("/campaigns/{campaign_id}/clone", status_code=201, responses=LOCATION_HEADER)
def clone_campaign(campaign_id: int, response: Response, body: CloneBody | None = None, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[CampaignClone]:
    """A draft copy named "<name> copy" (then "copy 2", ...) showing the original's creatives, without archived
    lists, audiences and creatives or retired targeting values: `left_out` names them. An original whose flight
    has ended needs new dates in the body."""
    dates = body or CloneBody()
    clone = campaigns.clone_campaign(db, actor=actor, campaign_id=campaign_id, starts_at=dates.starts_at,
                                     ends_at=dates.ends_at)
    return created(response, clone, "Campaign cloned", f"/campaigns/{clone.id}")


@router.delete("/campaigns/{campaign_id}")
def delete_campaign(campaign_id: int, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[CampaignRead]:
    """Deleting archives: nothing with delivery history is ever removed."""
    return reply(campaigns.archive_campaign(db, actor=actor, campaign_id=campaign_id), "Campaign archived")
