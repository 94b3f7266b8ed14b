"""Restoring a creative's change (app/history/restore.py): its names, URLs and native texts (and an html creative's
size) saved through update_creative, so today's rules judge them and nothing else of the creative changes. Files,
the markup (the log keeps only its size and fingerprint), ids and values computed from a file are left as they
are, each listed with why."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.access.policy import Actor
from app.creatives.history import ASSET_FIELDS
from app.creatives.models import CreativeType
from app.creatives.records import in_scope, snapshot, update_creative
from app.creatives.schemas import CreativeRead, CreativeUpdate
from app.history import restore
from app.history.schemas import NotRestorable, RestorePlan, RestoreValues

# The columns a restore sets (update_creative's input fields of the same names).
RESTORABLE = frozenset({"name", "click_url", "pixel_urls", "impression_urls", "title", "description",
                        "call_to_action"})
HTML_SIZE = frozenset({"width", "height"})  # typed for html creatives; the other types take them from their file
COMPUTED = "Taken from the creative's file, not set by hand."
_LEFT: dict[str, str] = {
    **{field: "A file: upload it again on the creative's form." for field in ASSET_FIELDS},
    "html": "The change log keeps only the markup's size and fingerprint, not the markup.",
    "duration_ms": COMPUTED,
    "type": "A creative's type cannot change.",
    "status": "The status changes through its own actions (pause, resume, archive).",
    "advertiser_id": "A creative's advertiser never changes.",
    "campaign_ids": "Which campaigns show it: change them on the creative's campaigns card.",
}
NOT_A_SETTING = "Not a setting a restore can set."


def _plan(db: Session, actor: Actor, creative_id: int, changes: dict[str, Any], values: RestoreValues,
          entry_id: int) -> restore.Planned:
    creative, _advertiser = in_scope(db, actor, creative_id)
    now = snapshot(creative)
    side = 0 if values == "before" else 1
    sent: dict[str, Any] = {}
    shown: list[dict[str, Any]] = []
    unchanged: list[str] = []
    left: list[NotRestorable] = []
    for field, pair in changes.items():
        if field not in RESTORABLE and not (field in HTML_SIZE and creative.type == CreativeType.HTML):
            left.append(NotRestorable(field=field, reason=COMPUTED if field in HTML_SIZE
                                      else _LEFT.get(field, NOT_A_SETTING)))
        elif restore.same(now.get(field), pair[side]):
            unchanged.append(field)
        else:
            sent[field] = pair[side]
            shown.append({"field": field, "old": now.get(field), "new": pair[side]})
    return restore.Planned(sent, RestorePlan.model_validate({
        "entry_id": entry_id, "values": values, "changes": shown, "unchanged": unchanged, "not_restorable": left,
        "version": creative.version}))


def _apply(db: Session, actor: Actor, creative_id: int, sent: dict[str, Any], action: str) -> CreativeRead:
    return update_creative(db, actor=actor, creative_id=creative_id, data=restore.as_input(CreativeUpdate, sent),
                           action=action)


def restorable(field: str) -> bool:
    """A field as the change log shows it that a restore may set (an html creative's size among them)."""
    return field in RESTORABLE or field in HTML_SIZE


restore.register("creative", restore.Restorer(("creative", "update"), CreativeRead, _plan, _apply, restorable))
