"""Which campaigns use an inventory list, a smart-app list or an audience: their targeting names it. Registered
with supply (app/supply/campaign_usage.py FINDERS) when the campaigns package loads, so a list
or an audience in use is archived or deactivated, never deleted, and its page names the campaigns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from app.campaigns.models import Campaign, CampaignStatus
from app.supply.campaign_usage import FINDERS


def campaigns_targeting(db: Session, key: str, ids: Sequence[int], *, advertiser_ids: set[int] | None,
                        live_only: bool) -> dict[int, list[dict[str, Any]]]:
    """{id: [{id, name, status, side}]} of the campaigns whose targeting[key] allows or blocks each id.
    Targeting is a JSON document per campaign, so the campaigns (of the given advertisers) are read and matched
    here, not by a JSON query, which SQLite and PostgreSQL spell differently (an advertiser has tens of
    campaigns, not millions)."""
    wanted = set(ids)
    found: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    if not wanted:
        return found
    query = select(Campaign.id, Campaign.name, Campaign.status, Campaign.targeting)
    if advertiser_ids is not None:
        query = query.where(col(Campaign.advertiser_id).in_(advertiser_ids))
    if live_only:
        query = query.where(Campaign.status != CampaignStatus.ARCHIVED)
    for campaign_id, name, status, targeting in db.exec(query.order_by(col(Campaign.name))).all():
        value = (targeting or {}).get(key) or {}
        sides = value.items() if isinstance(value, dict) else [("allow", value)]
        for side, chosen in sides:
            for list_id in set(chosen or []) & wanted:
                found[list_id].append({"id": campaign_id, "name": name, "status": status, "side": side})
    return found


FINDERS.register("campaigns", campaigns_targeting)
