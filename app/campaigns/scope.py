"""Which campaign an actor may reach: one whose advertiser's account the actor may see (policy.can_see_user:
staff, the advertiser's agency, the advertiser). Anything else answers "not found", never "forbidden", so an id
tells nothing about another tenant. Every campaign service starts here."""

from __future__ import annotations

from sqlmodel import Session

from app.access.models import User
from app.access.policy import Actor, can_see_user
from app.campaigns.models import Campaign
from app.kernel.errors import NotFound

NOT_FOUND = "Campaign not found."


def campaign_if_in_scope(db: Session, actor: Actor, campaign_id: int) -> tuple[Campaign, User] | None:
    """The campaign and its advertiser, or None when there is none the actor may see."""
    campaign = db.get(Campaign, campaign_id)
    advertiser = db.get(User, campaign.advertiser_id) if campaign else None
    if campaign is None or advertiser is None or not can_see_user(actor, advertiser):
        return None
    return campaign, advertiser


def campaign_in_scope(db: Session, actor: Actor, campaign_id: int) -> tuple[Campaign, User]:
    """The campaign and its advertiser; NotFound when there is none the actor may see."""
    found = campaign_if_in_scope(db, actor, campaign_id)
    if found is None:
        raise NotFound(NOT_FOUND)
    return found
