"""Inventory lists (the spec's app lists: /inventory-list and its agency and admin copies): an advertiser's
allow or block lists of app bundle ids and web domains, and what campaigns target with them.

Every function checks the actor's permission, then the row scope (an agency reaches its advertisers' lists, an
advertiser its own; a list out of scope answers exactly like a missing one), and audits its writes in the same
transaction. Entries are parsed and stored in bulk by app/supply/app_entries.py; the audit records how many
entries a change added or removed, never the values themselves (a list can hold 500,000).

A list used by a campaign that is not archived cannot be deleted, only archived; an archived list stays
attached to the campaigns that had it but cannot be newly chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from app.access.models import SHOWN_NAME_SQL, User
from app.access.policy import Actor, advertiser_for_new, advertiser_rows, can_see_user, require
from app.history import audit, change_log
from app.kernel import validation as v
from app.kernel.csv_exports import ExportLink, export_link, write_export
from app.kernel.errors import Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, newest_first, read_page
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.supply import app_entries
from app.supply.campaign_usage import campaigns_using
from app.supply.list_lifecycle import ListLifecycle, ListRoutes, declare, usage
from app.supply.list_targeting import INVENTORY_KEY
from app.supply.models import AppList, AppListEntry, ListKind, ListStatus
from app.supply.schemas import (
    CampaignUse,
    EntryBatchResult,
    InventoryListChoice,
    InventoryListRead,
    ListCreated,
    ListDeleted,
    ListEntry,
)

NOT_FOUND = "Inventory list not found."
NAME_MAX_LENGTH = 120
KIND_IN_USE = "This list is used by campaigns ({names}): its kind cannot change while they use it."


# --- reading -------------------------------------------------------------------------------------------

def in_scope(db: Session, actor: Actor, applist_id: int) -> tuple[AppList, User]:
    """The list and its advertiser, or NotFound when missing or outside the actor's scope."""
    found = db.get(AppList, applist_id)
    advertiser = db.get(User, found.advertiser_id) if found else None
    if found is None or advertiser is None or not can_see_user(actor, advertiser):
        raise NotFound(NOT_FOUND)
    return found, advertiser


def _advertiser_name(user: User) -> str:
    return user.account_name


def _used_by(db: Session, app_list: AppList, *, live_only: bool = False) -> list[CampaignUse]:
    """The campaigns of the list's advertiser that allow or block it (only those not archived: `live_only`)."""
    assert app_list.id is not None
    return campaigns_using(db, INVENTORY_KEY, [app_list.id], advertiser_ids={app_list.advertiser_id},
                           live_only=live_only)[app_list.id]


def _row(app_list: AppList, advertiser: User, counts: dict[str, int], used: list[CampaignUse]) -> InventoryListRead:
    assert app_list.id is not None
    return InventoryListRead(id=app_list.id, name=app_list.name, kind=app_list.kind, status=app_list.status,
                             advertiser_id=app_list.advertiser_id, advertiser=_advertiser_name(advertiser),
                             **dict(usage(app_list, counts, used)))


def public(db: Session, app_list: AppList, advertiser: User) -> InventoryListRead:
    assert app_list.id is not None
    counts = app_entries.counts(db, AppListEntry, [app_list.id])[app_list.id]
    return _row(app_list, advertiser, counts, _used_by(db, app_list))


def get_list(db: Session, *, actor: Actor, applist_id: int) -> InventoryListRead:
    """withOutRole/getAppListById: one list with its counts by kind and the campaigns using it."""
    return LIFECYCLE.get(db, actor=actor, list_id=applist_id)


def _lists_query(actor: Actor, *, advertiser_id: int | None, status: str, kind: str) -> Any:
    """The inventory list's query in the actor's row scope (advertiser_rows, as can_see_user says), before its order."""
    query = (select(AppList, User).join(User, col(User.id) == AppList.advertiser_id)
             .where(advertiser_rows(actor, AppList.advertiser_id)))
    if advertiser_id is not None:
        query = query.where(AppList.advertiser_id == advertiser_id)
    if status:
        query = query.where(AppList.status == status)
    if kind:
        query = query.where(AppList.kind == kind)
    return query


# Newest change first, ties by id: the list's one order.
_NEWEST_FIRST = KeysetOrder(col(AppList.updated_at), col(AppList.id), descending=True)


def _list_rows(db: Session, rows: Sequence[Any]) -> list[InventoryListRead]:
    """Lists as shown, their entry counts and campaigns read for all of them at once."""
    ids = [a.id for a, _u in rows if a.id is not None]
    counts = app_entries.counts(db, AppListEntry, ids)
    used = campaigns_using(db, INVENTORY_KEY, ids, advertiser_ids={a.advertiser_id for a, _u in rows})
    return [_row(a, u, counts[a.id], used[a.id]) for a, u in rows if a.id is not None]


def list_lists(db: Session, *, actor: Actor, advertiser_id: int | None = None, status: str = "",
               kind: str = "") -> list[InventoryListRead]:
    """getApplistAllDataList: the lists in the actor's scope, newest change first, with counts and campaigns."""
    require(actor, "app_list", "view")
    query = _lists_query(actor, advertiser_id=advertiser_id, status=status, kind=kind)
    rows = [(a, u) for a, u in db.exec(query.order_by(*_NEWEST_FIRST.order_by())).all() if can_see_user(actor, u)]
    return _list_rows(db, rows)


# The inventory grid's sorts (numbered_pages.column_order): a column shown, or None for the id alone. The counts and
# the campaigns using a list are figured for the page's lists only and do not sort on the server.
LIST_SORTS: dict[str, Any] = {"id": None, "name": AppList.name_key, "kind": AppList.kind,
                              "advertiser": User.name_key, "status": AppList.status, "updated_at": AppList.updated_at}


def list_lists_page(db: Session, *, actor: Actor, status: str = "", kind: str = "", search: str = "", sort: str = "",
                    page: int = 1, page_size: int = 50) -> NumberedPage[InventoryListRead]:
    """One page of the inventory lists' grid (pages count from 1): list_lists' rows and filters, `search` in the
    name or the advertiser shown, `sort` one of LIST_SORTS ("-" first for descending; default newest change first),
    only the page's rows read (and their counts and campaigns) and the total by a COUNT."""
    require(actor, "app_list", "view")
    check_page(page, page_size, things="lists")
    order = column_order(sort, LIST_SORTS, col(AppList.id), default="-updated_at")
    query = _lists_query(actor, advertiser_id=None, status=status, kind=kind)
    query = query.where(*every_word(search, AppList.name, SHOWN_NAME_SQL))
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[InventoryListRead](rows=_list_rows(db, [(a, u) for a, u in rows]), total=total, page=page,
                                           page_size=page_size)


def lists_page(db: Session, *, actor: Actor, advertiser_id: int | None = None, status: str = "", kind: str = "",
               limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> Page[InventoryListRead]:
    """The API's inventory lists a page at a time, newest change first (keyset on updated_at, id); `total` by a
    COUNT. Counts and campaigns are read for the page's lists only."""
    require(actor, "app_list", "view")
    scope = {"list": "inventory_lists", "advertiser_id": advertiser_id, "status": status, "kind": kind}
    return read_page(db, _lists_query(actor, advertiser_id=advertiser_id, status=status, kind=kind),
                     newest_first(col(AppList.id)), limit=limit, cursor=cursor, scope=scope,
                     position=lambda r: (None, r[0].id),
                     shown=lambda rows: _list_rows(db, rows))


def list_entries(db: Session, *, actor: Actor, applist_id: int) -> list[ListEntry]:
    """A list's entries ({value, kind}, by value) for the view page's grid."""
    return LIFECYCLE.list_entries(db, actor=actor, list_id=applist_id)


def entries_page(db: Session, *, actor: Actor, applist_id: int, search: str = "", limit: int = DEFAULT_LIMIT,
                 cursor: str | None = None) -> Page[ListEntry]:
    """A list's entries a page at a time, by value (the API's and the view page's grid)."""
    return LIFECYCLE.entries_page(db, actor=actor, list_id=applist_id, search=search, limit=limit, cursor=cursor)


def export_entries(db: Session, *, actor: Actor, applist_id: int) -> ExportLink:
    """The list's entries as a CSV (value, kind): {csv_download_url, filename}, a link for the actor, 15 minutes."""
    require(actor, "app_list", "view")
    found, _advertiser = in_scope(db, actor, applist_id)
    assert found.id is not None
    rows = app_entries.entries_of(db, AppListEntry, found.id)
    stored = write_export(["value", "kind"], ([row.value, row.kind] for row in rows))
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in found.name)[:60] or "inventory-list"
    return export_link(actor=actor, stored=stored, filename=f"{safe}-{utcnow():%Y%m%d}.csv")


change_log.register("app_list", change_log.ChangeLogSource(
    lambda db, actor, applist_id: change_log.about(in_scope(db, actor, applist_id)[0])))


# --- campaign targeting ----------------------------------------------------------------------------------

def targeting_choices(db: Session, *, actor: Actor, advertiser_id: int | None) -> list[InventoryListChoice]:
    """The active lists a campaign of the advertiser may allow or block: {id, name, kind, entries}."""
    require(actor, "app_list", "view")
    if advertiser_id is None:
        return []
    return [InventoryListChoice(id=r.id, name=r.name, kind=r.kind, entries=r.entries)
            for r in list_lists(db, actor=actor, advertiser_id=advertiser_id, status=ListStatus.ACTIVE)]


# --- writing -------------------------------------------------------------------------------------------

def checked_name(value: Any) -> str:
    name = str(value or "").strip()
    if not name:
        raise Invalid({"name": "This field is required."})
    if problem := v.name(name):
        raise Invalid({"name": problem})
    if len(name) > NAME_MAX_LENGTH:
        raise Invalid({"name": v.too_long(NAME_MAX_LENGTH)})
    return name


def _kind(value: Any) -> str:
    try:
        return ListKind(str(value or "")).value
    except ValueError:
        raise Invalid({"kind": "Choose allow or block."}) from None


def _snapshot(app_list: AppList) -> dict[str, Any]:
    return {"name": app_list.name, "kind": app_list.kind, "status": app_list.status,
            "advertiser_id": app_list.advertiser_id}


def create_list(db: Session, *, actor: Actor, name: str = "", kind: str = "", entries: str = "",
                advertiser_id: int | None = None) -> ListCreated[InventoryListRead]:
    """file/addApp: a new active list for the advertiser (an advertiser creates its own) with its name, kind
    (allow|block) and `entries` (text, one a line). Refused lines are reported, not saved; the others are.
    Answers {list, result}."""
    require(actor, "app_list", "create")
    errors: dict[str, str] = {}
    try:
        name = checked_name(name)
    except Invalid as problem:
        errors.update(problem.fields)
    try:
        kind = _kind(kind)
    except Invalid as problem:
        errors.update(problem.fields)
    try:
        advertiser = advertiser_for_new(db, actor, advertiser_id)
    except Invalid as problem:
        errors.update(problem.fields)
    if errors:
        raise Invalid(errors)
    parsed = app_entries.parse_text(entries or "")
    assert advertiser.id is not None
    app_list = AppList(advertiser_id=advertiser.id, name=name, kind=kind, status=ListStatus.ACTIVE)
    db.add(app_list)
    db.flush()
    result = LIFECYCLE.created(db, actor=actor, row=app_list, parsed=parsed)
    return ListCreated[InventoryListRead](list=public(db, app_list, advertiser), result=result)


def update_list(db: Session, *, actor: Actor, applist_id: int, name: str | None = None,
                kind: str | None = None) -> InventoryListRead:
    """updateApplist: change the name and kind (None keeps its value). The kind cannot change while campaigns
    use the list; an archived list is read-only until restored."""
    app_list, advertiser = LIFECYCLE.writable(db, actor, applist_id)
    before = _snapshot(app_list)
    errors: dict[str, str] = {}
    wanted: dict[str, str] = {}
    for field, value, check in (("name", name, checked_name), ("kind", kind, _kind)):
        if value is not None:
            try:
                wanted[field] = check(value)
            except Invalid as problem:
                errors.update(problem.fields)
    if not errors and wanted.get("kind", app_list.kind) != app_list.kind:
        used = _used_by(db, app_list)
        if used:
            errors["kind"] = KIND_IN_USE.format(names=", ".join(c.name for c in used))
    if errors:
        raise Invalid(errors)
    for field, value in wanted.items():
        setattr(app_list, field, value)
    after = _snapshot(app_list)
    if after != before:
        app_list.updated_at = utcnow()
        db.add(app_list)
        audit.record(db, actor=actor, entity="app_list", entity_id=app_list.id, action="update", before=before,
                     after=after)
    return public(db, app_list, advertiser)


def change_entries(db: Session, *, actor: Actor, applist_id: int, text: str, mode: str = "add") -> EntryBatchResult:
    """Typed entries (one a line): add them, replace the list's entries with them, or remove them. Answers the
    batch's result: counts and the refused lines with their reasons."""
    return LIFECYCLE.change_entries(db, actor=actor, list_id=applist_id, text=text, mode=mode)


def upload_entries(db: Session, *, actor: Actor, applist_id: int, content: bytes,
                   mode: str = "add") -> EntryBatchResult:
    """csvupload: a CSV or text file, the first cell of each row an entry (ListLifecycle.upload_entries)."""
    return LIFECYCLE.upload_entries(db, actor=actor, list_id=applist_id, content=content, mode=mode)


def set_status(db: Session, *, actor: Actor, applist_id: int, status: str) -> InventoryListRead:
    """Archive a list (it stays on the campaigns that use it, but cannot be newly chosen) or restore it."""
    app_list, advertiser = APP_LIST_STATUS.change(db, actor=actor, record_id=applist_id, status=status)
    return public(db, app_list, advertiser)


# Inventory lists' lifecycle (app/supply/list_lifecycle.py): the advertiser's lists, changed by whoever may
# update them, used by the advertiser's campaigns that allow or block them.
LIFECYCLE = declare(ListLifecycle[tuple[AppList, User], InventoryListRead](
    "app_list", AppList, AppListEntry, ("app_list", "view"), ("app_list", "update"), ("app_list", "delete"),
    in_scope, lambda db, _actor, loaded: public(db, *loaded), InventoryListRead,
    lambda db, app_list: _used_by(db, app_list, live_only=True), _snapshot,
    ListRoutes("/inventory-lists/{applist_id}", "/uploads/inventory-list", "Inventory list", "inventory lists",
               aliases=(("get", "/withOutRole/getAppListById/{applist_id}",
                         "withOutRole/getAppListById: one list (as GET /inventory-lists/{id})"),
                        ("upload", "/csvupload", "csvupload: upload a list's entries (as POST /uploads/inventory-list)")),
               names=(("get", "get_list"), ("delete", "delete_list"), ("entries", "list_entries"),
                      ("change_entries", "change_entries"), ("upload", "upload_entries")))))
APP_LIST_STATUS = LIFECYCLE.status(
    "Archive a list (it stays on the campaigns that use it but cannot be newly chosen) or restore it.")


def delete_list(db: Session, *, actor: Actor, applist_id: int) -> ListDeleted:
    """Delete an unused list with its entries; one a live campaign allows or blocks is refused (Conflict)."""
    return LIFECYCLE.delete(db, actor=actor, list_id=applist_id)
