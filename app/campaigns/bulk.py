"""Bulk campaign edits (/bulk-campaign-edit, /bulk-edit-exchanges, /admin/bulk-campaign-status): one change
applied to many campaigns, each row on its own.

Every row goes through the single-campaign services (campaigns.update_campaign / set_status), so validation,
permission, row scope and the audit record are exactly those of the edit page. Each row runs inside its own
SAVEPOINT: a refused row leaves nothing half-written, rows already applied stay. The answer has one result
per requested id, in request order: {id, name, ok, message}, the message naming the field in plain words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlmodel import Session, col, select

from app.access.policy import Actor, require
from app.campaigns import service as campaigns
from app.campaigns.schemas import BulkResult, CampaignRead, CampaignUpdate
from app.history import versions
from app.kernel import money
from app.kernel.errors import Invalid, ServiceError
from app.kernel.i18n.catalog import Message
from app.kernel.i18n.refusals import refusal_text
from app.reference.models import ReferenceValue

MAX_CAMPAIGNS = 1_000
LIST_KEYS = ("inventory_lists", "audiences")
LIST_MODES = ("add", "remove", "replace")
CHANGES = ("bid", "bid_min", "bid_max", "total_budget", "daily_budget", "status", "goal_metric", "goal_target", *LIST_KEYS)
MONEY_CHANGES = tuple(key for key in CHANGES if key in money.FIELDS)
# How a refused field is named in a row's message: its catalog key (app/kernel/i18n/refusals.py).
LABELS: dict[str, str] = {
    "bid": "bulk.field.bid", "bid_min": "bulk.field.bid_min", "bid_max": "bulk.field.bid_max",
    "total_budget": "bulk.field.total_budget", "daily_budget": "bulk.field.daily_budget", "status": "bulk.field.status",
    "goal_metric": "bulk.field.goal_metric", "goal_target": "bulk.field.goal_target",
    "targeting.inventory_lists": "bulk.field.inventory_lists", "targeting.audiences": "bulk.field.audiences",
    "targeting.exchanges": "bulk.field.exchanges", "ends_at": "bulk.field.ends_at", "balance": "bulk.field.balance",
}

# A bulk edit's changes, by name (CHANGES): money as dollar text, status and goal as codes, and the list changes as
# {mode, allow, block}. Loose on purpose: each is judged here, before any row, so a bad one is refused naming it.
ChangeSet = Mapping[str, str | int | float | Mapping[str, Any] | None]


# --- checking the request ------------------------------------------------------------------------------

def _ids(value: Any, field: str, *, at_least_one: bool) -> list[int]:
    if not isinstance(value, list | tuple):
        raise Invalid({field: "Give a list of ids."})
    try:
        ids = [int(x) for x in value]
    except (TypeError, ValueError):
        raise Invalid({field: "Ids are whole numbers."}) from None
    if at_least_one and not ids:
        raise Invalid({field: "Choose at least one campaign."})
    return ids


def _campaign_ids(value: Any) -> list[int]:
    ids = _ids(value, "campaign_ids", at_least_one=True)
    if len(ids) > MAX_CAMPAIGNS:
        raise Invalid({"campaign_ids": Message("At most {limit} campaigns at a time.", limit=f"{MAX_CAMPAIGNS:,}")})
    return ids


def _list_change(key: str, value: Any) -> dict[str, Any]:
    """{"mode": add|remove|replace, "allow": [ids], "block": [ids]}, checked before any row is touched."""
    if not isinstance(value, dict) or value.get("mode") not in LIST_MODES:
        raise Invalid({key: "Give mode (add, remove or replace) with allow and block lists of ids."})
    allow = _ids(value.get("allow", []), key, at_least_one=False)
    block = _ids(value.get("block", []), key, at_least_one=False)
    if set(allow) & set(block):
        raise Invalid({key: "A list cannot be both allowed and blocked."})
    return {"mode": value["mode"], "allow": allow, "block": block}


def _merged(current: Any, change: dict[str, Any]) -> dict[str, list[int]]:
    """A campaign's {allow, block} after the change (campaign_targeting refuses an id on both sides)."""
    if change["mode"] == "replace":
        return {"allow": sorted(set(change["allow"])), "block": sorted(set(change["block"]))}
    allow = set((current or {}).get("allow", []))
    block = set((current or {}).get("block", []))
    if change["mode"] == "add":
        allow |= set(change["allow"])
        block |= set(change["block"])
    else:
        allow -= set(change["allow"])
        block -= set(change["block"])
    return {"allow": sorted(allow), "block": sorted(block)}


def _check_amounts(settings: Mapping[str, object]) -> None:
    """Amounts that no campaign could take ("NaN", "1e3", too many decimals, past the field's bound) refuse the
    whole request, naming the field, before any row is touched; the rules between amounts are each row's own."""
    problems = {key: problem for key in MONEY_CHANGES if key in settings
                and (problem := money.check(settings[key], field=key, required=key in campaigns.REQUIRED_MONEY)[1])}
    if problems:
        raise Invalid(problems)


def _status(value: Any) -> str:
    return campaigns.CAMPAIGN_STATUS.parse(str(value))


# --- running the rows ----------------------------------------------------------------------------------

def _each(db: Session, actor: Actor, campaign_ids: list[int],
          apply: Callable[[int, CampaignRead], CampaignRead], language: str | None,
          read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """apply(id, the campaign as it is) for every id, each in its own savepoint; one result per id, in order,
    refusals worded in `language`. `read`: the version the caller read of some campaigns, by id: one saved since
    is refused, naming who changed what (each row's write is conditional on the version it read either way)."""
    results: list[BulkResult] = []
    for campaign_id in campaign_ids:
        name = ""
        try:
            current = campaigns.get_campaign(db, actor=actor, campaign_id=campaign_id)  # NotFound out of scope
            name = current.name
            versions.check(db, entity="campaign", row=current, expected=(read or {}).get(campaign_id),
                           fields=campaigns.changed_fields)
            with db.begin_nested():  # rolled back to here, and only here, when the row is refused
                saved = apply(campaign_id, current)
        except ServiceError as refusal:
            results.append(BulkResult(id=campaign_id, name=name, ok=False,
                                      message=refusal_text(refusal, LABELS, language=language)))
        else:
            results.append(BulkResult(id=campaign_id, name=saved.name, ok=True, message=""))
    return results


def bulk_update(db: Session, *, actor: Actor, campaign_ids: list[int], changes: ChangeSet,
                language: str | None = None, read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """Apply `changes` to each campaign: any of bid, bid_min, bid_max, total_budget, daily_budget (dollar text,
    read by the money parser; each row checked by the amount rules against its own stored values),
    status, goal_metric with goal_target, and inventory_lists / audiences as {mode: add|remove|replace,
    allow: [ids], block: [ids]}. Settings are saved before the status moves. Returns one {id, name, ok,
    message} per requested id, in request order; a refused row's message in `language` (English by default: the
    API's), as in every bulk edit here. `read`: the versions the caller read (_each)."""
    require(actor, "campaign", "update")
    ids = _campaign_ids(campaign_ids)
    if not isinstance(changes, Mapping) or not changes:
        raise Invalid({"changes": "Choose something to change."})
    unknown = sorted(set(changes) - set(CHANGES))
    if unknown:
        raise Invalid({"changes": f"These cannot be changed in bulk: {', '.join(unknown)}."})
    settings = {key: changes[key] for key in CHANGES if key in changes and key not in ("status", *LIST_KEYS)}
    _check_amounts(settings)
    lists = {key: _list_change(key, changes[key]) for key in LIST_KEYS if key in changes}
    status = _status(changes["status"]) if "status" in changes else None
    if status is not None:
        require(actor, "campaign", "status")

    def apply(campaign_id: int, current: CampaignRead) -> CampaignRead:
        data: dict[str, Any] = dict(settings)
        if lists:  # only the kinds it changes (the service keeps the others as saved)
            data["targeting"] = {key: _merged(getattr(current.targeting, key).model_dump(), change)
                                 for key, change in lists.items()}
        saved = campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id,
                                          data=CampaignUpdate.model_validate(data)) if data else current
        if status is not None:
            saved = campaigns.set_status(db, actor=actor, campaign_id=campaign_id, status=status)
        return saved

    return _each(db, actor, ids, apply, language, read)


def bulk_status(db: Session, *, actor: Actor, campaign_ids: list[int], status: str,
                language: str | None = None, read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """/admin/bulk-campaign-status (admin and co-admin): move each campaign to `status` along the declared
    transitions. One {id, name, ok, message} per requested id, in request order."""
    require(actor, "campaign", "bulk_status")
    ids = _campaign_ids(campaign_ids)
    wanted = _status(status)
    return _each(db, actor, ids, lambda campaign_id, _current: campaigns.set_status(
        db, actor=actor, campaign_id=campaign_id, status=wanted), language, read)


def bulk_exchanges(db: Session, *, actor: Actor, campaign_ids: list[int], add: list[int],
                   remove: list[int], language: str | None = None,
                   read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """/bulk-edit-exchanges: add exchanges to, and remove exchanges from, each campaign's targeting. A row is
    refused when its advertiser may not buy on an added exchange (its user configuration). One {id, name, ok,
    message} per requested id, in request order."""
    require(actor, "campaign", "update")
    ids = _campaign_ids(campaign_ids)
    added, removed = set(_ids(add, "add", at_least_one=False)), set(_ids(remove, "remove", at_least_one=False))
    if not added and not removed:
        raise Invalid({"add": "Choose exchanges to add or remove."})
    if added & removed:
        raise Invalid({"add": "An exchange cannot be both added and removed."})
    active = set(db.exec(select(ReferenceValue.id).where(ReferenceValue.kind == "exchange",
                                                         col(ReferenceValue.retired).is_(False))).all())
    if added - active:
        raise Invalid({"add": "Choose exchanges from the list."})

    def apply(campaign_id: int, current: CampaignRead) -> CampaignRead:
        exchanges = sorted((set(current.targeting.exchanges) | added) - removed)
        return campaigns.update_campaign(db, actor=actor, campaign_id=campaign_id,
                                         data=CampaignUpdate(targeting={"exchanges": exchanges}))

    return _each(db, actor, ids, apply, language, read)
