"""Restoring a campaign's change (app/history/restore.py): the entry's stored columns as the campaign form's fields
(micros as dollars, times as UTC ISO 8601, each targeting key the entry touched merged into today's targeting),
saved through update_campaign, so today's rules judge them (a budget below what was spent, a flight end now past,
a retired targeting value are refused naming the field) and nothing else of the campaign changes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import service
from app.campaigns.history import readable_change
from app.campaigns.schemas import CampaignRead, CampaignUpdate
from app.campaigns.scope import campaign_in_scope
from app.history import restore
from app.history.schemas import NotRestorable, RestorePlan, RestoreValues
from app.kernel import money

# The stored columns a restore sets, as update_campaign's input fields.
_FIELDS = {column: field for field, column in service.MONEY_FIELDS.items()} | {
    field: field for field in service.EDITABLE if field not in service.MONEY_FIELDS and field != "targeting"}
_TIMES = ("starts_at", "ends_at")
# Why the other columns an entry may touch are left as they are.
_LEFT: dict[str, str] = {
    "status": "The status changes through its own actions (activate, pause, archive), which check their own rules.",
    "advertiser_id": "A campaign's advertiser never changes.",
    "from": "The campaign a clone was copied from: not a setting.",
}
NOT_A_SETTING = "Not a setting a restore can set."


def _as_input(column: str, value: Any) -> Any:
    """A stored value as the form sends it: money in dollars, times with their UTC offset (SQLite keeps them
    without one, and an input time without one would be read in the campaign's time zone)."""
    if column in _FIELDS and column != _FIELDS[column]:  # a money column
        return money.dollars(value) if isinstance(value, int) else None
    if column in _TIMES and isinstance(value, str) and value:
        parsed = datetime.fromisoformat(value)
        return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).isoformat()
    return value


def _targeting(db: Session, now: dict[str, Any], pair: list[Any], side: int, sent: dict[str, Any],
               shown: list[dict[str, Any]], unchanged: list[str]) -> None:
    """Only the targeting keys the entry changed are set (the others keep today's values)."""
    sides = [pair[0] or {}, pair[1] or {}]
    wanted = dict(now)
    for key in sorted(set(sides[0]) | set(sides[1])):
        if restore.same(sides[0].get(key), sides[1].get(key)):
            continue  # this entry did not change it
        if restore.same(now.get(key), sides[side].get(key)):
            unchanged.append(f"targeting.{key}")
        elif sides[side].get(key) is None:
            wanted.pop(key, None)
        else:
            wanted[key] = sides[side][key]
    if wanted != now:
        sent["targeting"] = wanted
        shown.extend(readable_change(db, "targeting", now, wanted))


def _plan(db: Session, actor: Actor, campaign_id: int, changes: dict[str, Any], values: RestoreValues,
          entry_id: int) -> restore.Planned:
    campaign, _advertiser = campaign_in_scope(db, actor, campaign_id)
    now = service.snapshot(campaign)
    side = 0 if values == "before" else 1
    sent: dict[str, Any] = {}
    shown: list[dict[str, Any]] = []
    unchanged: list[str] = []
    left: list[NotRestorable] = []
    for column, pair in changes.items():
        if column == "targeting":
            _targeting(db, dict(campaign.targeting), pair, side, sent, shown, unchanged)
        elif column not in _FIELDS:
            left.append(NotRestorable(field=column, reason=_LEFT.get(column, NOT_A_SETTING)))
        elif restore.same(now.get(column), pair[side]):
            unchanged.append(_FIELDS[column])
        else:
            sent[_FIELDS[column]] = _as_input(column, pair[side])
            shown.extend(readable_change(db, column, now.get(column), pair[side]))
    return restore.Planned(sent, RestorePlan.model_validate({
        "entry_id": entry_id, "values": values, "changes": shown, "unchanged": unchanged, "not_restorable": left,
        "version": campaign.version}))


def _apply(db: Session, actor: Actor, campaign_id: int, sent: dict[str, Any], action: str) -> CampaignRead:
    return service.update_campaign(db, actor=actor, campaign_id=campaign_id,
                                   data=restore.as_input(CampaignUpdate, sent), action=action)


def restorable(field: str) -> bool:
    """A field as the change log shows it (total_budget, targeting.countries) that a restore sets."""
    return field in service.EDITABLE or field.startswith("targeting.")


restore.register("campaign", restore.Restorer(("campaign", "update"), CampaignRead, _plan, _apply, restorable))
# The admin's log of every campaign of an advertiser: each entry restores as its campaign's.
restore.register_through("advertiser_campaigns", "campaign")
