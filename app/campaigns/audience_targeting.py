"""A campaign's audiences, where both meet: the audiences a campaign allows and blocks (its overview), and the
audience page's choice of the campaigns that use an audience, which saves those campaigns' targeting through the
campaign service (its checks, its audit record). Campaigns sit above supply, so this lives here."""

from __future__ import annotations

from collections.abc import Mapping

from sqlmodel import Session, col, select

from app.access.policy import Actor, require
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign, CampaignStatus
from app.campaigns.schemas import CampaignAudience, CampaignAudiences, CampaignUpdate
from app.kernel.errors import Conflict, Invalid
from app.kernel.i18n.catalog import Message
from app.supply import audiences
from app.supply.list_targeting import AUDIENCE_KEY
from app.supply.models import Audience
from app.supply.schemas import AudienceRead


def campaign_audiences(db: Session, *, actor: Actor, campaign_id: int) -> CampaignAudiences:
    """The audiences a campaign allows and blocks (its overview), each {id, name, kind, status}."""
    require(actor, "audience", "view")
    campaign = campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id)  # scope
    lists = campaign.targeting.audiences
    ids = {*lists.allow, *lists.block}
    found = {a.id: a for a in db.exec(select(Audience).where(col(Audience.id).in_(ids),
                                                             Audience.advertiser_id == campaign.advertiser_id))}

    def shown(ids: list[int]) -> list[CampaignAudience]:
        return [CampaignAudience(id=i, name=found[i].name, kind=found[i].kind, status=found[i].status)
                if i in found else CampaignAudience(id=i, name=f"#{i}", kind="", status="missing") for i in ids]

    return CampaignAudiences(allow=shown(lists.allow), block=shown(lists.block))


def associate_campaigns(db: Session, *, actor: Actor, audience_id: int, allow: list[int],
                        block: list[int], read: Mapping[int, int] | None = None) -> AudienceRead:
    """Make these exactly the campaigns that use the audience: `allow` ones target it, `block` ones exclude it,
    every other campaign of the advertiser has it in neither list. Each changed campaign is saved through the
    campaign service (its checks: the audience must be active to be added; its audit record), all or nothing,
    only its audiences changed. `read`: the version of each campaign as the page showed it, by id: a changed one
    saved since refuses the whole change (Conflict naming the campaign, who changed what and when)."""
    require(actor, "audience", "update")
    audience, advertiser = audiences.in_scope(db, actor, audience_id)
    try:
        wanted_allow, wanted_block = {int(i) for i in allow}, {int(i) for i in block}
    except (TypeError, ValueError):
        raise Invalid({"campaign_ids": "Ids are whole numbers."}) from None
    if wanted_allow & wanted_block:
        raise Invalid({"campaign_ids": "A campaign cannot both allow and block the audience."})
    own = {campaign_id: (name, targeting) for campaign_id, name, targeting in db.exec(
        select(col(Campaign.id), Campaign.name, Campaign.targeting).where(Campaign.advertiser_id == audience.advertiser_id,
                                                                          Campaign.status != CampaignStatus.ARCHIVED)) if campaign_id}
    if strangers := sorted((wanted_allow | wanted_block) - set(own)):
        raise Invalid({"campaign_ids": "Not campaigns of this audience's advertiser: "
                                       + ", ".join(f"#{i}" for i in strangers) + "."})
    for campaign_id, (name, targeting) in sorted(own.items()):
        lists = dict((targeting or {}).get(AUDIENCE_KEY) or {"allow": [], "block": []})
        current_allow, current_block = set(lists.get("allow") or []), set(lists.get("block") or [])
        new_allow = (current_allow - {audience.id}) | ({audience.id} if campaign_id in wanted_allow else set())
        new_block = (current_block - {audience.id}) | ({audience.id} if campaign_id in wanted_block else set())
        if (new_allow, new_block) == (current_allow, current_block):
            continue
        try:  # only the audiences: the service keeps every other targeting kind as saved
            campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id, data=CampaignUpdate(
                targeting={AUDIENCE_KEY: {"allow": sorted(new_allow), "block": sorted(new_block)}},
                version=(read or {}).get(campaign_id)))
        except Invalid as refused:
            reason = " ".join(refused.fields.values())
            raise Invalid({"campaign_ids": f"{name} (#{campaign_id}): {reason}"}) from None
        except Conflict as stale:  # the template is placeholders only: no catalog entry (versions._joined)
            raise Conflict(Message("{name} (#{id}): {reason}", name=name, id=campaign_id, reason=stale.message),
                           data=stale.data) from None
    return audiences.public(db, actor, audience, advertiser)
