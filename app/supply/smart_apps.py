"""Smart-app lists (/admin/smart-apps and co-admin's): app lists curated by staff under one node of the
app-store taxonomy (category → genre → subgenre, app/reference/app_taxonomy.py), offered to every advertiser
as allow lists in campaign targeting. Staff create and edit them; everyone reads the active ones.

Entries are checked and stored exactly as inventory-list entries are (app/supply/app_entries.py). A list that
a campaign which is not archived allows cannot be deleted, only archived.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, func, select

from app.access.policy import Actor, can, require
from app.history import audit, change_log
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.model_base import utcnow
from app.reference import app_taxonomy
from app.supply import app_entries, app_lists
from app.supply.campaign_usage import campaigns_using
from app.supply.list_targeting import SMART_APP_KEY
from app.supply.models import ListStatus, SmartAppEntry, SmartAppList

NOT_FOUND = "Smart-app list not found."
NOT_IN_TAXONOMY = "Choose a category, a genre of it and (optionally) one of its subgenres."


# --- the taxonomy (get-smart-app-categories, genre, subgenre) ----------------------------------------------

def categories(db: Session, *, actor: Actor) -> list[dict[str, str]]:
    require(actor, "smart_app_list", "view")
    return app_taxonomy.categories()


def genres(db: Session, *, actor: Actor, category_id: str) -> list[dict[str, Any]]:
    require(actor, "smart_app_list", "view")
    return app_taxonomy.genres(category_id)


def subgenres(db: Session, *, actor: Actor, category_id: str, genre_id: str) -> list[dict[str, str]]:
    require(actor, "smart_app_list", "view")
    return app_taxonomy.subgenres(category_id, genre_id)


# --- reading -------------------------------------------------------------------------------------------

def _visible(actor: Actor, found: SmartAppList | None) -> SmartAppList:
    """Staff see every list; others only active ones (what they may target). Anything else is not found."""
    if found is None or (not can(actor, "smart_app_list", "manage") and found.status != ListStatus.ACTIVE):
        raise NotFound(NOT_FOUND)
    return found


def _row(found: SmartAppList, counts: dict[str, int], used: list[dict[str, Any]]) -> dict[str, Any]:
    taxonomy = app_taxonomy.describe(found.category_id, found.genre_id, found.subgenre_id) or {
        "category_id": found.category_id, "category": found.category_id, "genre_id": found.genre_id,
        "genre": found.genre_id, "subgenre_id": found.subgenre_id, "subgenre": found.subgenre_id}
    return {"id": found.id, "name": found.name, "status": found.status, **taxonomy,
            "apps": counts["app"], "domains": counts["domain"], "entries": counts["total"],
            "campaigns": used, "campaign_count": len(used),
            "created_at": found.created_at.isoformat(), "updated_at": found.updated_at.isoformat()}


def _public(db: Session, actor: Actor, found: SmartAppList) -> dict[str, Any]:
    assert found.id is not None
    counts = app_entries.counts(db, SmartAppEntry, [found.id])[found.id]
    # Which campaigns use it is staff's business (they span every advertiser).
    used = campaigns_using(db, SMART_APP_KEY, [found.id])[found.id] \
        if can(actor, "smart_app_list", "manage") else []
    return _row(found, counts, used)


def get_list(db: Session, *, actor: Actor, list_id: int) -> dict[str, Any]:
    require(actor, "smart_app_list", "view")
    return _public(db, actor, _visible(actor, db.get(SmartAppList, list_id)))


def list_lists(db: Session, *, actor: Actor, status: str = "") -> list[dict[str, Any]]:
    """Every list for staff (by newest change); the active ones for everyone else."""
    require(actor, "smart_app_list", "view")
    query = select(SmartAppList)
    if not can(actor, "smart_app_list", "manage"):
        status = ListStatus.ACTIVE
    if status:
        query = query.where(SmartAppList.status == status)
    rows = list(db.exec(query.order_by(col(SmartAppList.updated_at).desc(), col(SmartAppList.id).desc())))
    ids = [r.id for r in rows if r.id is not None]
    counts = app_entries.counts(db, SmartAppEntry, ids)
    used = campaigns_using(db, SMART_APP_KEY, ids) if can(actor, "smart_app_list", "manage") \
        else {i: [] for i in ids}
    return [_row(r, counts[r.id], used[r.id]) for r in rows if r.id is not None]


def list_entries(db: Session, *, actor: Actor, list_id: int) -> list[dict[str, str]]:
    require(actor, "smart_app_list", "view")
    found = _visible(actor, db.get(SmartAppList, list_id))
    assert found.id is not None
    return app_entries.entries_of(db, SmartAppEntry, found.id)


def list_change_log(db: Session, *, actor: Actor, list_id: int) -> dict[str, Any]:
    change_log.require_reader(actor, "smart_app_list")
    found = _visible(actor, db.get(SmartAppList, list_id))
    return {"list": {"id": found.id, "name": found.name},
            "entries": change_log.entries(db, entity="smart_app_list", entity_id=list_id)}


# --- writing -------------------------------------------------------------------------------------------

def _snapshot(found: SmartAppList) -> dict[str, Any]:
    return {"name": found.name, "category_id": found.category_id, "genre_id": found.genre_id,
            "subgenre_id": found.subgenre_id, "status": found.status}


def _taxonomy(data: dict[str, Any]) -> dict[str, str]:
    chosen = {key: str(data.get(key) or "").strip() for key in ("category_id", "genre_id", "subgenre_id")}
    if not chosen["category_id"]:
        raise Invalid({"category_id": "This field is required."})
    if not app_taxonomy.genres(chosen["category_id"]):
        raise Invalid({"category_id": NOT_IN_TAXONOMY})
    if not chosen["genre_id"]:
        raise Invalid({"genre_id": "This field is required."})
    if app_taxonomy.describe(chosen["category_id"], chosen["genre_id"], "") is None:
        raise Invalid({"genre_id": NOT_IN_TAXONOMY})
    if app_taxonomy.describe(**chosen) is None:
        raise Invalid({"subgenre_id": NOT_IN_TAXONOMY})
    return chosen


def _checked(data: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    try:
        values["name"] = app_lists.checked_name(data.get("name"))
    except Invalid as problem:
        errors.update(problem.fields)
    try:
        values.update(_taxonomy(data))
    except Invalid as problem:
        errors.update(problem.fields)
    if errors:
        raise Invalid(errors)
    return values


def create_list(db: Session, *, actor: Actor, data: dict[str, Any]) -> dict[str, Any]:
    """admin/create-smart-app-list: name, category_id, genre_id, subgenre_id (optional) and `entries` (text,
    one a line). Answers {list, result}."""
    require(actor, "smart_app_list", "manage")
    values = _checked(data)
    parsed = app_entries.parse_text(str(data.get("entries") or ""))
    found = SmartAppList.model_validate({**values, "status": ListStatus.ACTIVE, "created_by": actor.id})
    db.add(found)
    db.flush()
    assert found.id is not None
    result = app_entries.store(db, SmartAppEntry, found.id, parsed)
    audit.record(db, actor=actor, entity="smart_app_list", entity_id=found.id, action="create",
                 after=_snapshot(found) | app_lists.entry_audit(result))
    return {"list": _public(db, actor, found), "result": result}


def _writable(db: Session, actor: Actor, list_id: int) -> SmartAppList:
    require(actor, "smart_app_list", "manage")
    found = _visible(actor, db.get(SmartAppList, list_id))
    if found.status == ListStatus.ARCHIVED:
        raise Invalid({"status": "An archived list cannot be changed; restore it first."})
    return found


def update_list(db: Session, *, actor: Actor, list_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """Change the name and the taxonomy node (fields not sent keep their values)."""
    found = _writable(db, actor, list_id)
    before = _snapshot(found)
    merged = {key: data[key] if data.get(key) is not None else before[key]
              for key in ("name", "category_id", "genre_id", "subgenre_id")}
    for key, value in _checked(merged).items():
        setattr(found, key, value)
    after = _snapshot(found)
    if after != before:
        found.updated_at = utcnow()
        db.add(found)
        audit.record(db, actor=actor, entity="smart_app_list", entity_id=found.id, action="update",
                     before=before, after=after)
    return _public(db, actor, found)


def _apply(db: Session, actor: Actor, found: SmartAppList, parsed: app_entries.Parsed, mode: str,
           action: str) -> dict[str, Any]:
    assert found.id is not None
    result = app_entries.store(db, SmartAppEntry, found.id, parsed, mode=mode)
    if result["added"] or result["removed"]:
        found.updated_at = utcnow()
        db.add(found)
        audit.record(db, actor=actor, entity="smart_app_list", entity_id=found.id, action=action,
                     after=app_lists.entry_audit(result))
    return result


def change_entries(db: Session, *, actor: Actor, list_id: int, text: str, mode: str = "add") -> dict[str, Any]:
    found = _writable(db, actor, list_id)
    return _apply(db, actor, found, app_entries.parse_text(text), mode, f"entries_{mode}")


def upload_entries(db: Session, *, actor: Actor, list_id: int, content: bytes, mode: str = "add") -> dict[str, Any]:
    found = _writable(db, actor, list_id)
    return _apply(db, actor, found, app_entries.parse_csv(content), mode, f"upload_{mode}")


def set_status(db: Session, *, actor: Actor, list_id: int, status: str) -> dict[str, Any]:
    require(actor, "smart_app_list", "manage")
    found = _visible(actor, db.get(SmartAppList, list_id))
    try:
        wanted = ListStatus(status)
    except ValueError:
        raise Invalid({"status": "Not an allowed value."}) from None
    if wanted != found.status:
        before = found.status
        found.status = wanted.value
        found.updated_at = utcnow()
        db.add(found)
        audit.record(db, actor=actor, entity="smart_app_list", entity_id=found.id, action=f"set_status_{wanted.value}",
                     before={"status": before}, after={"status": wanted.value})
    return _public(db, actor, found)


def delete_list(db: Session, *, actor: Actor, list_id: int) -> dict[str, Any]:
    require(actor, "smart_app_list", "manage")
    found = _visible(actor, db.get(SmartAppList, list_id))
    used = campaigns_using(db, SMART_APP_KEY, [list_id], live_only=True)[list_id]
    if used:
        raise Conflict(app_lists.IN_USE.format(names=", ".join(c["name"] for c in used)), data={"campaigns": used})
    count = db.exec(select(func.count()).select_from(SmartAppEntry).where(SmartAppEntry.list_id == list_id)).one()
    before = _snapshot(found) | {"entries_total": count}
    app_entries.delete_all(db, SmartAppEntry, list_id)
    db.delete(found)
    db.flush()
    audit.record(db, actor=actor, entity="smart_app_list", entity_id=list_id, action="delete", before=before)
    return {"id": list_id, "name": before["name"], "deleted": True}


def targeting_choices(db: Session, *, actor: Actor) -> list[dict[str, Any]]:
    """The active smart-app lists a campaign may allow: {id, name, genre, subgenre, entries}."""
    return [{"id": r["id"], "name": r["name"], "category": r["category"], "genre": r["genre"],
             "subgenre": r["subgenre"], "entries": r["entries"]} for r in list_lists(db, actor=actor)]
