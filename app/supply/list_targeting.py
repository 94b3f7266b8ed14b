"""The campaign-targeting checks of inventory lists and smart-app lists, apart from their services so that
campaign_targeting can use them without importing the campaign service back.

- targeting["inventory_lists"] = {allow: [ids], block: [ids]}: every id an inventory list of the campaign's
  own advertiser, active, an allow list on the allow side and a block list on the block side.
- targeting["smart_app_lists"] = [ids]: active smart-app lists (the admin's, offered to everyone), allowed.

Ids the campaign already had may since have been archived (a list in use is archived, never deleted): they stay
accepted, so the campaign's other settings can still be edited; they cannot be newly chosen.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlmodel import Session, col, select

from app.kernel.i18n.catalog import Message
from app.supply.models import AppList, Audience, AudienceStatus, ListKind, ListStatus, SmartAppList

# Where a campaign's targeting names supply: {allow: [ids], block: [ids]} lists, and allowed smart-app lists.
INVENTORY_KEY, AUDIENCE_KEY, SMART_APP_KEY = "inventory_lists", "audiences", "smart_app_lists"


def check_inventory_lists(db: Session, *, advertiser_id: int, allow: list[int], block: list[int],
                          kept: Collection[int] = ()) -> str | None:
    """None when the choice is valid, otherwise the message saying what is wrong."""
    wanted = set(allow) | set(block)
    if not wanted:
        return None
    lists = {a.id: a for a in db.exec(select(AppList).where(col(AppList.id).in_(wanted)))}
    foreign = sorted(i for i in wanted if i not in lists or lists[i].advertiser_id != advertiser_id)
    if foreign:
        return Message("Not inventory lists of this campaign's advertiser: {ids}.",
                       ids=", ".join(f"#{i}" for i in foreign))
    archived = sorted(lists[i].name for i in wanted - set(kept) if lists[i].status != ListStatus.ACTIVE)
    if archived:
        return Message("Archived lists cannot be chosen: {names}.", names=", ".join(archived))
    wrong_allow = sorted(lists[i].name for i in allow if lists[i].kind != ListKind.ALLOW)
    if wrong_allow:
        return Message("Block lists cannot be allowed: {names}.", names=", ".join(wrong_allow))
    wrong_block = sorted(lists[i].name for i in block if lists[i].kind != ListKind.BLOCK)
    if wrong_block:
        return Message("Allow lists cannot be blocked: {names}.", names=", ".join(wrong_block))
    return None


def check_smart_app_lists(db: Session, *, ids: list[int], kept: Collection[int] = ()) -> str | None:
    if not ids:
        return None
    active = set(db.exec(select(SmartAppList.id).where(col(SmartAppList.id).in_(ids),
                                                       SmartAppList.status == ListStatus.ACTIVE)).all())
    missing = sorted(set(ids) - active - set(kept))
    if missing:
        return Message("Choose active smart-app lists: {ids} cannot be chosen.",
                       ids=", ".join(f"#{i}" for i in missing))
    return None


def names(db: Session, targeting: dict[str, Any]) -> dict[str, list[str]]:
    """Readable names of a campaign's chosen lists (the overview): inventory_allow, inventory_block, smart_apps."""
    value = targeting.get(INVENTORY_KEY) or {}
    allow, block = list(value.get("allow") or []), list(value.get("block") or [])
    smart = list(targeting.get(SMART_APP_KEY) or [])
    inventory = {i: n for i, n in db.exec(select(AppList.id, AppList.name).where(col(AppList.id).in_(allow + block)))} \
        if allow or block else {}
    smart_names = {i: n for i, n in db.exec(select(SmartAppList.id, SmartAppList.name)
                                             .where(col(SmartAppList.id).in_(smart)))} if smart else {}
    return {"inventory_allow": [inventory.get(i, f"#{i}") for i in allow],
            "inventory_block": [inventory.get(i, f"#{i}") for i in block],
            "smart_apps": [smart_names.get(i, f"#{i}") for i in smart]}


def without_archived(db: Session, targeting: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the targeting without its inventory lists, smart-app lists and audiences that are no longer active, the
    names of those left out): what a new campaign made from this one (a clone) may keep."""
    def sides(key: str) -> tuple[list[int], list[int]]:
        value = targeting.get(key) or {}
        return list(value.get("allow") or []), list(value.get("block") or [])

    inventory, audiences = sides(INVENTORY_KEY), sides(AUDIENCE_KEY)
    smart = list(targeting.get(SMART_APP_KEY) or [])
    gone: dict[str, dict[int, str]] = {
        INVENTORY_KEY: _inactive(db, AppList, ListStatus.ACTIVE, [*inventory[0], *inventory[1]]),
        AUDIENCE_KEY: _inactive(db, Audience, AudienceStatus.ACTIVE, [*audiences[0], *audiences[1]]),
        SMART_APP_KEY: _inactive(db, SmartAppList, ListStatus.ACTIVE, smart)}
    kept = dict(targeting)
    for key, (allow, block) in ((INVENTORY_KEY, inventory), (AUDIENCE_KEY, audiences)):
        if gone[key]:
            kept[key] = {"allow": [i for i in allow if i not in gone[key]], "block": [i for i in block if i not in gone[key]]}
    if gone[SMART_APP_KEY]:
        kept[SMART_APP_KEY] = [i for i in smart if i not in gone[SMART_APP_KEY]]
    return kept, sorted((name for names in gone.values() for name in names.values()), key=str.casefold)


def _inactive(db: Session, table: Any, active: str, ids: list[int]) -> dict[int, str]:
    """{id: name} of the rows of `table` among `ids` whose status is not `active`."""
    if not ids:
        return {}
    return {int(i): n for i, n in db.exec(select(table.id, table.name).where(col(table.id).in_(ids),
                                                                           table.status != active))}
