"""A creative's change history as people read it: its files by name, the campaigns that show it as added and
removed, only what a new creative was given; filterable by date range and by who made the change."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.access.policy import Actor
from app.campaigns.models import Campaign
from app.creatives.models import CreativeAsset
from app.creatives.records import get_creative
from app.history import change_log

ASSET_FIELDS = ("asset_id", "main_image_asset_id", "icon_asset_id")
_EMPTY: tuple[object, ...] = (None, "", [])


def _readable(changes: list[dict[str, Any]], files: dict[int, str], campaigns: dict[int, str], *,
              created: bool) -> list[dict[str, Any]]:
    rows = []
    for change in changes:
        field, old, new = change["field"], change["old"], change["new"]
        if created and (new in _EMPTY or field in ("advertiser_id", "status", "type")):
            continue
        if field in ASSET_FIELDS:
            rows.append({"field": field, "old": files.get(old, old), "new": files.get(new, new)})
        elif field == "campaign_ids":
            rows.append({"field": field, "added": [campaigns.get(i, f"#{i}") for i in new or [] if i not in (old or [])],
                         "removed": [campaigns.get(i, f"#{i}") for i in old or [] if i not in (new or [])],
                         "old": old, "new": new})
        else:
            rows.append(change)
    return rows


def _creative(db: Session, actor: Actor, creative_id: int) -> change_log.Subject:
    creative = get_creative(db, actor=actor, creative_id=creative_id)
    return change_log.Subject({"id": creative.id, "name": creative.name, "status": creative.status},
                              [creative_id], owner=creative.advertiser_id)


def _readable_entries(db: Session, _actor: Actor, subject: change_log.Subject,
                      entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    asset_ids = {v for e in entries for c in e["changes"] if c["field"] in ASSET_FIELDS for v in (c["old"], c["new"])
                 if isinstance(v, int)}
    campaign_ids = {v for e in entries for c in e["changes"] if c["field"] == "campaign_ids"
                    for v in (c["old"] or []) + (c["new"] or [])}
    files = {i: name for i, name in db.exec(select(col(CreativeAsset.id), CreativeAsset.original_filename)
                                               .where(col(CreativeAsset.id).in_(asset_ids))) if i} if asset_ids else {}
    # Only the advertiser's own campaigns can be linked to its creative, so their names are in scope too.
    names = {i: name for i, name in db.exec(select(col(Campaign.id), Campaign.name).where(
        col(Campaign.id).in_(campaign_ids), Campaign.advertiser_id == subject.owner)) if i} \
        if campaign_ids else {}
    for entry in entries:
        entry["changes"] = _readable(entry["changes"], files, names, created=entry["action"] == "create")
    return entries


change_log.register("creative", change_log.ChangeLogSource(_creative, _readable_entries))
