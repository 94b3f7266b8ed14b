"""A campaign or creative as a DSP gets it, built for an actor (whose scope decides whether it may be read): the
request that asks for a push checks it, and the push job builds it again when it runs, so the DSP gets the
record as it is then, not as it was when the push was queued."""

from __future__ import annotations

from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import service as campaigns
from app.campaigns.targeting import deliverable
from app.creatives import service as creatives
from app.creatives.schemas import HtmlPreview
from app.dsps.connectors import Payload
from app.dsps.models import AssociationKind


def _campaign(db: Session, actor: Actor, campaign_id: int) -> Payload:
    found = campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id).model_dump()
    keep = ("name", "status", "objective", "starts_at", "ends_at", "time_zone", "total_budget", "daily_budget",
            "pacing", "bid_strategy", "bid", "bid_min", "bid_max", "frequency_cap", "frequency_period",
            "traffic_type", "targeting")
    # Retired values and exchanges the advertiser may no longer use stay on the campaign until the buyer removes
    # them, but a DSP never gets them (it would buy on them).
    found["targeting"] = deliverable(db, advertiser_id=found["advertiser_id"], targeting=found["targeting"])
    return {"external_id": found["id"], "advertiser": found["advertiser"], **{k: found.get(k) for k in keep}}


def _creative(db: Session, actor: Actor, creative_id: int) -> Payload:
    found = creatives.get_creative(db, actor=actor, creative_id=creative_id)
    shown = creatives.preview(db, actor=actor, creative_id=creative_id)
    keep = {"name", "type", "status", "click_url", "pixel_urls", "impression_urls", "width", "height", "duration_ms",
            "title", "description", "call_to_action"}
    files = {"asset": found.asset, "main_image": found.main_image, "icon": found.icon}
    return {"external_id": found.id, "advertiser": found.advertiser, **found.model_dump(include=keep),
            **{f"{k}_url": file.url for k, file in files.items() if file and file.url},
            **({"html": shown.html} if isinstance(shown, HtmlPreview) else {})}


def payload(db: Session, actor: Actor, entity: AssociationKind, local_id: int) -> Payload:
    """The thing as the DSP gets it; NotFound when it is missing or out of the actor's scope."""
    if entity == AssociationKind.CAMPAIGN:
        return _campaign(db, actor, local_id)
    return _creative(db, actor, local_id)
