"""Which creatives a campaign shows, set from either side. A creative and a campaign can be linked only when
both are in the actor's scope and belong to the same advertiser; archived ones take no new links. Every
change is audited on the creatives and on the campaigns it touched, and counts as a save of each of them (their
versions move on, app/history/versions.py): a page that set a record's links names the version it showed, a copy
saved since is refused with who changed what, and two link edits from one copy cannot lay one over the other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from app.access.policy import Actor, require
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign, CampaignStatus
from app.campaigns.schemas import CampaignRead, CampaignUpdate
from app.campaigns.scope import NOT_FOUND as CAMPAIGN_NOT_FOUND
from app.campaigns.scope import campaign_if_in_scope
from app.campaigns.service import CLONE_PARTS, ClonePart
from app.creatives.models import CampaignCreative, Creative, CreativeStatus
from app.creatives.records import in_scope
from app.creatives.schemas import CampaignCreativeRow, CampaignRef
from app.history import audit, versions
from app.kernel.db import select_columns
from app.kernel.errors import Invalid, NotFound
from app.kernel.keyset_pages import KeysetOrder, newest_first, read_page
from app.kernel.paging import DEFAULT_LIMIT, Page

Link = tuple[int, int]  # (campaign_id, creative_id)


def _campaign(db: Session, actor: Actor, campaign_id: int) -> Campaign | None:
    found = campaign_if_in_scope(db, actor, campaign_id)
    return found[0] if found else None


def _ids(values: Any) -> list[int]:
    try:
        return list(dict.fromkeys(int(value) for value in values or []))
    except (TypeError, ValueError):
        return []


def _links(db: Session, *, campaign_ids: set[int] | None = None, creative_ids: set[int] | None = None) -> set[Link]:
    query = select(CampaignCreative.campaign_id, CampaignCreative.creative_id)
    if campaign_ids:
        query = query.where(col(CampaignCreative.campaign_id).in_(campaign_ids))
    if creative_ids:
        query = query.where(col(CampaignCreative.creative_id).in_(creative_ids))
    return {(campaign_id, creative_id) for campaign_id, creative_id in db.exec(query)}


def _relink(db: Session, actor: Actor, *, add: set[Link], remove: set[Link]) -> None:
    """Apply the changes and audit each creative's campaign ids and each campaign's creative ids."""
    if not add and not remove:
        return
    campaigns = {campaign for campaign, _ in add | remove}
    creatives = {creative for _, creative in add | remove}
    before = _links(db, campaign_ids=campaigns) | _links(db, creative_ids=creatives)
    for campaign_id, creative_id in remove:
        row = db.exec(select(CampaignCreative).where(CampaignCreative.campaign_id == campaign_id,
                                                     CampaignCreative.creative_id == creative_id)).first()
        if row is not None:
            db.delete(row)
    for campaign_id, creative_id in add:
        db.add(CampaignCreative(campaign_id=campaign_id, creative_id=creative_id))
    db.flush()
    after = (before - remove) | add
    for creative in db.exec(select(Creative).where(col(Creative.id).in_(creatives)).order_by(col(Creative.id))):
        audit.record(db, actor=actor, entity="creative", entity_id=creative.id, action="assign_campaigns",
                     before={"campaign_ids": sorted(c for c, k in before if k == creative.id)},
                     after={"campaign_ids": sorted(c for c, k in after if k == creative.id)},
                     version=versions.bump(creative))
    for campaign in db.exec(select(Campaign).where(col(Campaign.id).in_(campaigns)).order_by(col(Campaign.id))):
        audit.record(db, actor=actor, entity="campaign", entity_id=campaign.id, action="assign_creatives",
                     before={"creative_ids": sorted(k for c, k in before if c == campaign.id)},
                     after={"creative_ids": sorted(k for c, k in after if c == campaign.id)},
                     version=versions.bump(campaign))
    versions.flush(db)  # each conditional on the version read: a link edit that lost a race is refused here


def assign_to_campaigns(db: Session, *, actor: Actor, creative_id: int, campaign_ids: list[int],
                        version: int | None = None) -> list[CampaignRef]:
    """Make `campaign_ids` exactly the campaigns that show the creative. Returns them as [{id, name}]. `version`:
    the creative's as the page showed it (None: not checked); saved since, the change is refused (Conflict)."""
    require(actor, "creative", "update")
    require(actor, "campaign", "update")
    creative, _advertiser = in_scope(db, actor, creative_id)
    versions.check(db, entity="creative", row=creative, expected=version, fields=list)
    wanted = _ids(campaign_ids)
    current = {campaign for campaign, _ in _links(db, creative_ids={creative_id})}
    errors: list[str] = []
    names: dict[int, str] = {}
    for campaign_id in wanted:
        campaign = _campaign(db, actor, campaign_id)
        if campaign is None:
            errors.append(f"Campaign {campaign_id}: {CAMPAIGN_NOT_FOUND}")
        elif campaign.advertiser_id != creative.advertiser_id:
            errors.append(f"{campaign.name} belongs to another advertiser.")
        elif campaign_id not in current and campaign.status == CampaignStatus.ARCHIVED:
            errors.append(f"{campaign.name} is archived.")
        else:
            names[campaign_id] = campaign.name
    if campaign_ids and not wanted:
        errors.append("Send campaign ids as numbers.")
    if errors:
        raise Invalid({"campaign_ids": " ".join(errors)})
    if creative.status == CreativeStatus.ARCHIVED and set(wanted) - current:
        raise Invalid({"status": "An archived creative cannot be added to campaigns."})
    _relink(db, actor, add={(c, creative_id) for c in set(wanted) - current},
            remove={(c, creative_id) for c in current - set(wanted)})
    return sorted((CampaignRef(id=c, name=names[c]) for c in wanted), key=lambda row: row.name)


def set_campaign_creatives(db: Session, *, actor: Actor, campaign_id: int, creative_ids: list[int],
                           version: int | None = None) -> list[CampaignCreativeRow]:
    """Make `creative_ids` exactly the creatives the campaign shows. Returns campaign_creatives(). `version`: the
    campaign's as the page showed it (None: not checked); saved since, the change is refused (Conflict)."""
    require(actor, "campaign", "update")
    require(actor, "creative", "update")
    campaign = _campaign(db, actor, campaign_id)
    if campaign is None:
        raise NotFound(CAMPAIGN_NOT_FOUND)
    versions.check(db, entity="campaign", row=campaign, expected=version, fields=campaigns.changed_fields)
    wanted = _ids(creative_ids)
    current = {creative for _, creative in _links(db, campaign_ids={campaign_id})}
    errors: list[str] = []
    for creative_id in wanted:
        try:
            creative, _advertiser = in_scope(db, actor, creative_id)
        except NotFound as missing:
            errors.append(f"Creative {creative_id}: {missing.message}")
            continue
        if creative.advertiser_id != campaign.advertiser_id:
            errors.append(f"{creative.name} belongs to another advertiser.")
        elif creative_id not in current and creative.status == CreativeStatus.ARCHIVED:
            errors.append(f"{creative.name} is archived.")
    if creative_ids and not wanted:
        errors.append("Send creative ids as numbers.")
    if errors:
        raise Invalid({"creative_ids": " ".join(errors)})
    if campaign.status == CampaignStatus.ARCHIVED and set(wanted) - current:
        raise Invalid({"status": "An archived campaign cannot take new creatives."})
    _relink(db, actor, add={(campaign_id, k) for k in set(wanted) - current},
            remove={(campaign_id, k) for k in current - set(wanted)})
    return _campaign_creative_rows(db, campaign_id)


def _campaign_creatives_query(campaign_id: int) -> Any:
    return (select_columns(Creative.id, Creative.name, Creative.type, Creative.status, Creative.width, Creative.height)
            .join(CampaignCreative, col(CampaignCreative.creative_id) == Creative.id)
            .where(CampaignCreative.campaign_id == campaign_id))


# By name, ties by id: the list's one order.
_BY_NAME = KeysetOrder(col(Creative.name), col(Creative.id))


def _as_rows(rows: Sequence[Any]) -> list[CampaignCreativeRow]:
    return [CampaignCreativeRow(id=r[0], name=r[1], type=r[2], status=r[3], width=r[4], height=r[5]) for r in rows]


def _campaign_creative_rows(db: Session, campaign_id: int) -> list[CampaignCreativeRow]:
    return _as_rows(db.exec(_campaign_creatives_query(campaign_id).order_by(*_BY_NAME.order_by())).all())


def _check_campaign(db: Session, actor: Actor, campaign_id: int) -> None:
    require(actor, "campaign", "view")
    require(actor, "creative", "view")
    if _campaign(db, actor, campaign_id) is None:
        raise NotFound(CAMPAIGN_NOT_FOUND)


def campaign_creatives(db: Session, *, actor: Actor, campaign_id: int) -> list[CampaignCreativeRow]:
    """The creatives a campaign shows (/admin/CampaignList/creative-list/{id} and the agency's list)."""
    _check_campaign(db, actor, campaign_id)
    return _campaign_creative_rows(db, campaign_id)


def campaign_creatives_page(db: Session, *, actor: Actor, campaign_id: int, limit: int = DEFAULT_LIMIT,
                            cursor: str | None = None) -> Page[CampaignCreativeRow]:
    """The creatives a campaign shows, a page at a time newest first (keyset on the id: a rename moves none between
    pages); `total` by a COUNT."""
    _check_campaign(db, actor, campaign_id)
    return read_page(db, _campaign_creatives_query(campaign_id), newest_first(col(Creative.id)), limit=limit,
                     cursor=cursor, scope={"list": "campaign_creatives", "campaign_id": campaign_id},
                     position=lambda r: (None, r[0]), shown=_as_rows)


def save_campaign(db: Session, *, actor: Actor, data: CampaignUpdate, campaign_id: int | None = None,
                  advertiser_id: int | None = None, creative_ids: list[int] | None = None) -> CampaignRead:
    """The campaign form's save (/campaignForm, /campaignEditForm, /campaignClone), one user action in one unit of
    work: the settings (a new campaign for `advertiser_id` when `campaign_id` is None, else that campaign's),
    then, when `creative_ids` is given, exactly those creatives. A refusal of either step saves neither: a
    creative archived or moved since the form loaded leaves no half-saved campaign behind, and no new one.
    Returns the campaign as the settings step saved it."""
    with db.begin_nested():  # all or nothing even inside a caller's longer transaction
        if campaign_id is None:
            saved = campaigns.create_campaign(db, actor=actor, data=data, advertiser_id=advertiser_id)
        else:
            saved = campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id, data=data)
        if creative_ids is not None:
            set_campaign_creatives(db, actor=actor, campaign_id=saved.id, creative_ids=creative_ids)
    return saved


def _clone_plan(db: Session, campaign_id: int) -> tuple[list[int], list[str]]:
    """(the creatives a clone of the campaign shows, the names of its archived ones, which take no new campaign)."""
    rows = _campaign_creative_rows(db, campaign_id)
    return ([r.id for r in rows if r.status != CreativeStatus.ARCHIVED.value],
            [r.name for r in rows if r.status == CreativeStatus.ARCHIVED.value])


def _clone_take(db: Session, actor: Actor, clone_id: int, creative_ids: list[int]) -> None:
    set_campaign_creatives(db, actor=actor, campaign_id=clone_id, creative_ids=creative_ids)


CLONE_PARTS.register("creatives", ClonePart("creative_ids", _clone_plan, _clone_take))
