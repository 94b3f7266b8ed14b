"""The targeting pickers' reference lists (the spec's meta-data calls: GET with a query string), for every
signed-in role, and the campaign form's options in one call. Geography and languages are in geo.py."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import targeting_options
from app.campaigns.schemas import CampaignOptions
from app.campaigns.targeting_options import of_kind
from app.reference import metadata
from app.reference.schemas import CarrierOption, OsVersionOption, ReferenceOption, TrafficTypeOption
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["targeting data"])


@router.get("/meta/os")
def operating_systems(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReferenceOption]]:
    """Operating systems a campaign may target: {id, name}, by name (retired ones left out)."""
    return reply(metadata.active_values(db, actor=actor, kind="operating_system"))


@router.get("/meta/os-versions")
def os_versions(os: int | None = Query(None, description="An operating system's id: its versions only"),
                actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[OsVersionOption]]:
    """OS versions: {id, name, parent_id (their operating system)}, by name."""
    return reply(of_kind(metadata.active_values(db, actor=actor, kind="os_version", parent_id=os), OsVersionOption))


@router.get("/meta/exchanges")
def exchanges(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReferenceOption]]:
    """Every active exchange: {id, name}, by name. What one advertiser may buy on: /meta/user-supported-exchanges."""
    return reply(metadata.active_values(db, actor=actor, kind="exchange"))


@router.get("/meta/traffic-type")
def traffic_types(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[TrafficTypeOption]]:
    """Traffic types: {id, name, code (what campaigns store)}, by name."""
    return reply(of_kind(metadata.active_values(db, actor=actor, kind="traffic_type"), TrafficTypeOption))


@router.get("/meta/browser")
def browsers(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReferenceOption]]:
    """Browsers: {id, name}, by name."""
    return reply(metadata.active_values(db, actor=actor, kind="browser"))


@router.get("/meta/manufacturers")
def manufacturers(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReferenceOption]]:
    """Device manufacturers: {id, name}, by name."""
    return reply(metadata.active_values(db, actor=actor, kind="manufacturer"))


@router.get("/meta/carriers")
def carriers(country: str = Query("", max_length=2, description="ISO alpha-2, e.g. DE: that country's carriers only"),
             actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[CarrierOption]]:
    """Mobile carriers: {id, name, country (ISO alpha-2)}, by name."""
    return reply(of_kind(metadata.active_values(db, actor=actor, kind="carrier", country=country), CarrierOption))


@router.get("/meta/user-supported-exchanges")
def user_supported_exchanges(advertiser_id: int | None = Query(None, description=(
        "The advertiser; an advertiser's own calls may leave it out")), actor: Actor = Depends(get_actor),
        db: Session = DB) -> Envelope[list[ReferenceOption]]:
    """The active exchanges the advertiser may buy on ({id, name}): those enabled in its user configuration, or
    every one when none is singled out. An agency may ask for its advertisers only (others answer 404)."""
    return reply(targeting_options.supported_exchanges(db, actor=actor, advertiser_id=advertiser_id))


@router.get("/campaign-options")
def campaign_options(advertiser_id: int | None = Query(None, description=(
        "Whose campaign the form edits; an advertiser's own calls may leave it out")),
        actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[CampaignOptions]:
    """Everything a campaign form's pickers offer, in one call: the advertiser's exchanges, operating systems,
    OS versions (with parent_id), browsers, manufacturers, carriers (with country), countries, languages and
    the fixed choices (device types, objectives, pacing, bid strategies, frequency periods, traffic types,
    goal metrics)."""
    return reply(targeting_options.options(db, actor=actor, advertiser_id=advertiser_id))
