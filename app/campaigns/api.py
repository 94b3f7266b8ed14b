"""Campaigns over the API: the same service calls the campaign pages make, so the same permission and
row-scope checks (an agency reaches its advertisers' campaigns only; another tenant's id answers 404)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import service as campaigns
from app.web.deps import DB, get_actor
from app.web.envelope import ok

router = APIRouter(tags=["campaigns"])


class CampaignBody(BaseModel):
    """A campaign's settings. Money in dollars as text ("12.50"); times ISO 8601, in `time_zone` when they
    carry no offset. On edit, fields left out keep their values."""

    name: str | None = None
    objective: Literal["awareness", "traffic", "conversions", "app_installs", "video_views"] | None = None
    starts_at: str | None = None
    ends_at: str | None = None
    time_zone: str | None = Field(None, description="IANA name, e.g. Europe/Berlin")
    total_budget: str | None = None
    daily_budget: str | None = None
    pacing: Literal["even", "asap"] | None = None
    bid_strategy: Literal["cpm", "cpc"] | None = None
    bid: str | None = None
    bid_min: str | None = None
    bid_max: str | None = None
    frequency_cap: int | None = Field(None, description="Impressions per user per frequency_period")
    frequency_period: Literal["hour", "day", "week"] | None = None
    traffic_type: str | None = Field(None, max_length=120, description=(
        "The `code` of an active traffic type from GET /api/meta/traffic-type (app, web, ctv, ...); "
        "a campaign keeps the one it has after it is retired"))
    goal_metric: Literal["none", "ctr", "cpa", "cpi", "vcr"] | None = None
    goal_target: str | None = None
    targeting: dict[str, Any] | None = Field(None, description=(
        "countries (ISO alpha-2), regions (ISO 3166-2), cities (GeoNames ids), geo_fence "
        "(lat,long,radius|...), languages (ISO 639-1), device_types, exchanges / operating_systems / os_versions / "
        "browsers / manufacturers / carriers (reference value ids; os_versions within the chosen operating_systems, "
        "carriers within the chosen countries), dayparting (7 lists of hours, Monday first), "
        "inventory_lists and audiences ({allow: [ids], block: [ids]})"))


class NewCampaignBody(CampaignBody):
    advertiser_id: int | None = Field(None, description="Whose campaign; an advertiser's own calls leave it out")


class CloneBody(BaseModel):
    starts_at: str | None = Field(None, description="The clone's start (ISO 8601); the original's when left out")
    ends_at: str | None = Field(None, description="The clone's end; needed when the original's flight has ended")


class StatusBody(BaseModel):
    status: Literal["draft", "active", "paused", "completed", "archived"]


def _sent(body: CampaignBody) -> dict[str, Any]:
    return body.model_dump(exclude_unset=True, exclude={"advertiser_id"})


SORT_HELP = f"A list column ({', '.join(campaigns.LIST_COLUMNS)}), '-' first for descending"


@router.get("/campaigns")
def list_campaigns(status: str = "", search: str = "", advertiser_id: int | None = None,
                   include_archived: bool = False, sort: str = Query("", description=SORT_HELP),
                   actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """The campaigns you may see, newest change first unless `sort` says otherwise; archived ones only when
    asked for."""
    return ok(campaigns.list_campaigns(db, actor=actor, status=status, search=search, advertiser_id=advertiser_id,
                                       include_archived=include_archived, sort=sort))


@router.post("/campaigns")
def create_campaign(body: NewCampaignBody, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> dict[str, Any]:
    """A new campaign, as a draft."""
    return ok(campaigns.create_campaign(db, actor=actor, data=_sent(body), advertiser_id=body.advertiser_id),
              "Campaign created")


@router.get("/campaigns/{campaign_id}")
def get_campaign(campaign_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id))


@router.put("/campaigns/{campaign_id}")
def update_campaign(campaign_id: int, body: CampaignBody, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> dict[str, Any]:
    return ok(campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id, data=_sent(body)),
              "Campaign saved")


@router.post("/campaigns/{campaign_id}/clone")
def clone_campaign(campaign_id: int, body: CloneBody | None = None, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> dict[str, Any]:
    """A draft copy named "<name> copy" (then "copy 2", ...) showing the original's creatives, without archived
    lists, audiences and creatives or retired targeting values: `left_out` names them. An original whose flight
    has ended needs new dates in the body."""
    dates = body.model_dump(exclude_none=True) if body else {}
    return ok(campaigns.clone_campaign(db, actor=actor, campaign_id=campaign_id, **dates), "Campaign cloned")


@router.delete("/campaigns/{campaign_id}")
def delete_campaign(campaign_id: int, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> dict[str, Any]:
    """Deleting archives: nothing with delivery history is ever removed."""
    return ok(campaigns.archive_campaign(db, actor=actor, campaign_id=campaign_id), "Campaign archived")
