"""Smart-app lists (/admin/smart-apps and co-admin's): app lists curated by staff under one node of the
app-store taxonomy (category → genre → subgenre, app/reference/app_taxonomy.py), offered to every advertiser
as allow lists in campaign targeting. Staff create and edit them; everyone reads the active ones.

Entries are checked and stored exactly as inventory-list entries are (app/supply/app_entries.py). A list that
a campaign which is not archived allows cannot be deleted, only archived.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from app.access.policy import Actor, can, require
from app.history import audit, change_log
from app.kernel.errors import Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, newest_first, read_page
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.reference import app_taxonomy
from app.supply import app_entries, app_lists
from app.supply.campaign_usage import campaigns_using
from app.supply.list_lifecycle import ListLifecycle, ListRoutes, declare, usage
from app.supply.list_targeting import SMART_APP_KEY
from app.supply.models import ListStatus, SmartAppEntry, SmartAppList
from app.supply.schemas import (
    CampaignUse,
    CategoryRead,
    EntryBatchResult,
    GenreRead,
    ListCreated,
    ListDeleted,
    ListEntry,
    SmartAppListChoice,
    SmartAppListRead,
    SubgenreRead,
)

NOT_FOUND = "Smart-app list not found."
NOT_IN_TAXONOMY = "Choose a category, a genre of it and (optionally) one of its subgenres."


# --- the taxonomy (get-smart-app-categories, genre, subgenre) ----------------------------------------------

def categories(db: Session, *, actor: Actor) -> list[CategoryRead]:
    require(actor, "smart_app_list", "view")
    return [CategoryRead.model_validate(row) for row in app_taxonomy.categories()]


def genres(db: Session, *, actor: Actor, category_id: str) -> list[GenreRead]:
    require(actor, "smart_app_list", "view")
    return [GenreRead.model_validate(row) for row in app_taxonomy.genres(category_id)]


def subgenres(db: Session, *, actor: Actor, category_id: str, genre_id: str) -> list[SubgenreRead]:
    require(actor, "smart_app_list", "view")
    return [SubgenreRead.model_validate(row) for row in app_taxonomy.subgenres(category_id, genre_id)]


# --- reading -------------------------------------------------------------------------------------------

def _visible(actor: Actor, found: SmartAppList | None) -> SmartAppList:
    """Staff see every list; others only active ones (what they may target). Anything else is not found."""
    if found is None or (not can(actor, "smart_app_list", "manage") and found.status != ListStatus.ACTIVE):
        raise NotFound(NOT_FOUND)
    return found


def _row(found: SmartAppList, counts: dict[str, int], used: list[CampaignUse]) -> SmartAppListRead:
    assert found.id is not None
    taxonomy = app_taxonomy.describe(found.category_id, found.genre_id, found.subgenre_id) or {
        "category_id": found.category_id, "category": found.category_id, "genre_id": found.genre_id,
        "genre": found.genre_id, "subgenre_id": found.subgenre_id, "subgenre": found.subgenre_id}
    return SmartAppListRead(id=found.id, name=found.name, status=found.status, **taxonomy,
                            **dict(usage(found, counts, used)))


def _public(db: Session, actor: Actor, found: SmartAppList) -> SmartAppListRead:
    assert found.id is not None
    counts = app_entries.counts(db, SmartAppEntry, [found.id])[found.id]
    # Which campaigns use it is staff's business (they span every advertiser).
    used = campaigns_using(db, SMART_APP_KEY, [found.id])[found.id] \
        if can(actor, "smart_app_list", "manage") else []
    return _row(found, counts, used)


def _find(db: Session, actor: Actor, list_id: int) -> SmartAppList:
    return _visible(actor, db.get(SmartAppList, list_id))


def get_list(db: Session, *, actor: Actor, list_id: int) -> SmartAppListRead:
    return LIFECYCLE.get(db, actor=actor, list_id=list_id)


def _lists_query(actor: Actor, status: str) -> Any:
    """Every list for staff; the active ones for everyone else. Before its order."""
    require(actor, "smart_app_list", "view")
    query = select(SmartAppList)
    if not can(actor, "smart_app_list", "manage"):
        status = ListStatus.ACTIVE
    return query.where(SmartAppList.status == status) if status else query


# Newest change first, ties by id: the list's one order.
_NEWEST_FIRST = KeysetOrder(col(SmartAppList.updated_at), col(SmartAppList.id), descending=True)


def _list_rows(db: Session, actor: Actor, rows: Sequence[SmartAppList]) -> list[SmartAppListRead]:
    """Lists as shown, their entry counts (and, for staff, campaigns) read for all of them at once."""
    ids = [r.id for r in rows if r.id is not None]
    counts = app_entries.counts(db, SmartAppEntry, ids)
    used = campaigns_using(db, SMART_APP_KEY, ids) if can(actor, "smart_app_list", "manage") \
        else {i: [] for i in ids}
    return [_row(r, counts[r.id], used[r.id]) for r in rows if r.id is not None]


def list_lists(db: Session, *, actor: Actor, status: str = "") -> list[SmartAppListRead]:
    """Every list for staff (by newest change); the active ones for everyone else."""
    return _list_rows(db, actor, list(db.exec(_lists_query(actor, status).order_by(*_NEWEST_FIRST.order_by()))))


# The smart-app grid's sorts (numbered_pages.column_order): a column shown, or None for the id alone. The taxonomy's
# names come from app_taxonomy (the table holds its ids), and the counts are figured for the page's lists only: they
# do not sort on the server.
LIST_SORTS: dict[str, Any] = {"id": None, "name": SmartAppList.name_key, "status": SmartAppList.status,
                              "updated_at": SmartAppList.updated_at}


def list_lists_page(db: Session, *, actor: Actor, status: str = "", search: str = "", sort: str = "", page: int = 1,
                    page_size: int = 50) -> NumberedPage[SmartAppListRead]:
    """One page of the smart-app lists' grid (pages count from 1): list_lists' rows, `search` in the name, `sort`
    one of LIST_SORTS ("-" first for descending; default newest change first), only the page's rows read (and their
    counts) and the total by a COUNT."""
    check_page(page, page_size, things="lists")
    order = column_order(sort, LIST_SORTS, col(SmartAppList.id), default="-updated_at")
    query = _lists_query(actor, status)
    query = query.where(*every_word(search, SmartAppList.name))
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[SmartAppListRead](rows=_list_rows(db, actor, rows), total=total, page=page,
                                          page_size=page_size)


def lists_page(db: Session, *, actor: Actor, status: str = "", limit: int = DEFAULT_LIMIT,
               cursor: str | None = None) -> Page[SmartAppListRead]:
    """The API's smart-app lists a page at a time, newest change first (keyset on updated_at, id); `total` by a
    COUNT."""
    query = _lists_query(actor, status)
    scope = {"list": "smart_app_lists", "status": status}
    return read_page(db, query, newest_first(col(SmartAppList.id)), limit=limit, cursor=cursor, scope=scope,
                     position=lambda r: (None, r.id), shown=lambda rows: _list_rows(db, actor, rows))


def list_entries(db: Session, *, actor: Actor, list_id: int) -> list[ListEntry]:
    return LIFECYCLE.list_entries(db, actor=actor, list_id=list_id)


def entries_page(db: Session, *, actor: Actor, list_id: int, search: str = "", limit: int = DEFAULT_LIMIT,
                 cursor: str | None = None) -> Page[ListEntry]:
    """A list's entries a page at a time, by value (the API's and the view page's grid)."""
    return LIFECYCLE.entries_page(db, actor=actor, list_id=list_id, search=search, limit=limit, cursor=cursor)


change_log.register("smart_app_list", change_log.ChangeLogSource(
    lambda db, actor, list_id: change_log.about(_find(db, actor, list_id))))


# --- writing -------------------------------------------------------------------------------------------

def _snapshot(found: SmartAppList) -> dict[str, Any]:
    return {"name": found.name, "category_id": found.category_id, "genre_id": found.genre_id,
            "subgenre_id": found.subgenre_id, "status": found.status}


def _taxonomy(data: dict[str, str]) -> dict[str, str]:
    chosen = {key: (data.get(key) or "").strip() for key in ("category_id", "genre_id", "subgenre_id")}
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


def _checked(data: dict[str, str]) -> dict[str, str]:
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


def create_list(db: Session, *, actor: Actor, name: str = "", category_id: str = "", genre_id: str = "",
                subgenre_id: str = "", entries: str = "") -> ListCreated[SmartAppListRead]:
    """admin/create-smart-app-list: name, category_id, genre_id, subgenre_id (optional) and `entries` (text,
    one a line). Answers {list, result}."""
    require(actor, "smart_app_list", "manage")
    values = _checked({"name": name, "category_id": category_id, "genre_id": genre_id, "subgenre_id": subgenre_id})
    parsed = app_entries.parse_text(entries or "")
    found = SmartAppList.model_validate({**values, "status": ListStatus.ACTIVE, "created_by": actor.id})
    db.add(found)
    db.flush()
    result = LIFECYCLE.created(db, actor=actor, row=found, parsed=parsed)
    return ListCreated[SmartAppListRead](list=_public(db, actor, found), result=result)


def update_list(db: Session, *, actor: Actor, list_id: int, name: str | None = None, category_id: str | None = None,
                genre_id: str | None = None, subgenre_id: str | None = None) -> SmartAppListRead:
    """Change the name and the taxonomy node (None keeps its value)."""
    found = LIFECYCLE.writable(db, actor, list_id)
    before = _snapshot(found)
    given = {"name": name, "category_id": category_id, "genre_id": genre_id, "subgenre_id": subgenre_id}
    merged = {key: value if value is not None else before[key] for key, value in given.items()}
    for key, value in _checked(merged).items():
        setattr(found, key, value)
    after = _snapshot(found)
    if after != before:
        found.updated_at = utcnow()
        db.add(found)
        audit.record(db, actor=actor, entity="smart_app_list", entity_id=found.id, action="update",
                     before=before, after=after)
    return _public(db, actor, found)


def change_entries(db: Session, *, actor: Actor, list_id: int, text: str, mode: str = "add") -> EntryBatchResult:
    return LIFECYCLE.change_entries(db, actor=actor, list_id=list_id, text=text, mode=mode)


def upload_entries(db: Session, *, actor: Actor, list_id: int, content: bytes, mode: str = "add") -> EntryBatchResult:
    return LIFECYCLE.upload_entries(db, actor=actor, list_id=list_id, content=content, mode=mode)


def set_status(db: Session, *, actor: Actor, list_id: int, status: str) -> SmartAppListRead:
    return _public(db, actor, SMART_APP_LIST_STATUS.change(db, actor=actor, record_id=list_id, status=status))


# Smart-app lists' lifecycle (app/supply/list_lifecycle.py): staff's lists, used by any advertiser's campaigns.
LIFECYCLE = declare(ListLifecycle[SmartAppList, SmartAppListRead](
    "smart_app_list", SmartAppList, SmartAppEntry, ("smart_app_list", "view"), ("smart_app_list", "manage"),
    ("smart_app_list", "manage"), _find, _public, SmartAppListRead,
    lambda db, found: campaigns_using(db, SMART_APP_KEY, [found.id], live_only=True)[found.id], _snapshot,
    ListRoutes("/smart-apps/{list_id}", "/uploads/smart-app-list", "Smart-app list", "smart-app lists",
               who="Admin and co-admin: ",
               names=(("get", "get_smart"), ("delete", "delete_smart"), ("entries", "entries_smart"),
                      ("change_entries", "change_smart_entries"), ("upload", "upload_smart")))))
SMART_APP_LIST_STATUS = LIFECYCLE.status("Admin and co-admin: archive or restore a list.")


def delete_list(db: Session, *, actor: Actor, list_id: int) -> ListDeleted:
    return LIFECYCLE.delete(db, actor=actor, list_id=list_id)


def targeting_choices(db: Session, *, actor: Actor) -> list[SmartAppListChoice]:
    """The active smart-app lists a campaign may allow: {id, name, genre, subgenre, entries}."""
    return [SmartAppListChoice(id=r.id, name=r.name, category=r.category, genre=r.genre, subgenre=r.subgenre,
                               entries=r.entries) for r in list_lists(db, actor=actor)]
