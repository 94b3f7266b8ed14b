"""Inventory lists and smart-app lists over the API: the same service calls the pages make, so the same
permission and row-scope checks (an agency reaches its advertisers' lists only; another tenant's id answers 404).
REST paths first, then the spec's call names (section 7) as aliases of the same functions. What every list kind
has alike (one list, its deletion, its entries typed and uploaded) is derived from its declaration
(app/supply/list_routes.py); here is what each kind has of its own: listing, creating, editing, the taxonomy.

Uploads are multipart (field `file`): a CSV or text file, the first cell of each row an entry. Its `data` is the
batch's result: lines read, added, duplicates (in the file, already in the list), and the refused lines with
their line numbers and reasons. A file that cannot be read at all answers 422 and saves nothing.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Response
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.csv_exports import ExportLink
from app.kernel.paging import Page
from app.supply import app_lists, smart_apps
from app.supply.list_routes import RESULT_HELP, SPEC_TAG, spec_operation_id
from app.supply.schemas import (
    CategoryRead,
    GenreRead,
    InventoryListCreate,
    InventoryListRead,
    InventoryListSaved,
    InventoryListUpdate,
    ListCreated,
    SmartAppListCreate,
    SmartAppListRead,
    SmartAppListUpdate,
    SubgenreRead,
)
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply, spec_call
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["inventory lists"])
smart_router = APIRouter(tags=["smart-app lists"])
spec_router = APIRouter(tags=[SPEC_TAG])

StatusFilter = Literal["", "active", "archived"]
KindFilter = Literal["", "allow", "block"]


# --- inventory lists ---------------------------------------------------------------------------------------

@router.get("/inventory-lists", description="The inventory lists in your scope, a page at a time, newest change "
            "first, with their entry counts by kind and the campaigns using each; `total` counts what the filters match.")
def list_lists(advertiser_id: int | None = None, status: StatusFilter = "", kind: KindFilter = "",
               paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[Page[InventoryListRead]]:
    return reply(app_lists.lists_page(db, actor=actor, advertiser_id=advertiser_id, status=status, kind=kind,
                                      limit=paging.limit, cursor=paging.cursor))


def all_lists(advertiser_id: int | None = None, status: StatusFilter = "", kind: KindFilter = "",
              actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[InventoryListRead]]:
    """getApplistAllDataList answers the whole list, as the spec's client reads it (an array)."""
    return reply(app_lists.list_lists(db, actor=actor, advertiser_id=advertiser_id, status=status, kind=kind))


@router.post("/inventory-lists", status_code=201, responses=LOCATION_HEADER, description="Create an allow or block list for an advertiser, with entries typed "
             "one a line. Refused lines are reported, the others saved. " + RESULT_HELP)
def create_list(body: InventoryListCreate, response: Response, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[ListCreated[InventoryListRead]]:
    made = app_lists.create_list(db, actor=actor, name=body.name, kind=body.kind, entries=body.entries,
                                 advertiser_id=body.advertiser_id)
    return created(response, made, "Inventory list created", f"/inventory-lists/{made.list.id}")


@router.put("/inventory-lists/{applist_id}", description="Rename a list or change its kind (not while campaigns "
            "use it); with `entries`, also add, replace or remove entries. " + RESULT_HELP)
def update_list(applist_id: int, body: InventoryListUpdate, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[InventoryListSaved]:
    saved = app_lists.update_list(db, actor=actor, applist_id=applist_id, name=body.name, kind=body.kind)
    result = None
    if body.entries is not None:
        result = app_lists.change_entries(db, actor=actor, applist_id=applist_id, text=body.entries, mode=body.mode)
        saved = app_lists.get_list(db, actor=actor, applist_id=applist_id)
    return reply(InventoryListSaved(list=saved, result=result), "Inventory list saved")


@router.post("/inventory-lists/{applist_id}/export", description="The entries as a CSV (value, kind): replies "
             "with data.csv_download_url, a link that works for 15 minutes for you only.")
def export_entries(applist_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ExportLink]:
    return reply(app_lists.export_entries(db, actor=actor, applist_id=applist_id))


# --- smart-app lists ---------------------------------------------------------------------------------------

@smart_router.get("/smart-apps/categories", description="The taxonomy's categories (the app stores).")
def categories(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[CategoryRead]]:
    return reply(smart_apps.categories(db, actor=actor))


@smart_router.get("/smart-apps/genres", description="The genres of a category, each saying whether it has subgenres.")
def genres(category_id: str, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[GenreRead]]:
    return reply(smart_apps.genres(db, actor=actor, category_id=category_id))


@smart_router.get("/smart-apps/subgenres", description="The subgenres of a genre (none for most genres but Games).")
def subgenres(category_id: str, genre_id: str, actor: Actor = Depends(get_actor),
              db: Session = DB) -> Envelope[list[SubgenreRead]]:
    return reply(smart_apps.subgenres(db, actor=actor, category_id=category_id, genre_id=genre_id))


@smart_router.get("/smart-apps", description="Smart-app lists: every one for admins and co-admins, the active ones "
                  "(which campaigns may allow) for everyone else; a page at a time, newest change first.")
def list_smart(status: StatusFilter = "", paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[Page[SmartAppListRead]]:
    return reply(smart_apps.lists_page(db, actor=actor, status=status, limit=paging.limit, cursor=paging.cursor))


@smart_router.post("/smart-apps", status_code=201, responses=LOCATION_HEADER, description="Admin and co-admin: create a smart-app list under a category, genre "
                   "and (optionally) subgenre, with entries. " + RESULT_HELP)
def create_smart(body: SmartAppListCreate, response: Response, actor: Actor = Depends(get_actor),
                 db: Session = DB) -> Envelope[ListCreated[SmartAppListRead]]:
    made = smart_apps.create_list(db, actor=actor, **body.model_dump())
    return created(response, made, "Smart-app list created", f"/smart-apps/{made.list.id}")


@smart_router.put("/smart-apps/{list_id}", description="Admin and co-admin: rename or move a list in the taxonomy.")
def update_smart(list_id: int, body: SmartAppListUpdate, actor: Actor = Depends(get_actor),
                 db: Session = DB) -> Envelope[SmartAppListRead]:
    return reply(smart_apps.update_list(db, actor=actor, list_id=list_id, **body.model_dump()), "Smart-app list saved")


# --- the spec's call names (section 7): compatibility routes, creates keep 200 there (spec_call) -----------
# (getAppListById and csvupload are declared with the inventory lists' routes: app/supply/app_lists.py)

for path, endpoint, methods, summary in (
    ("/file/addApp", spec_call(create_list), ["POST"], "file/addApp: create an inventory list (as POST /inventory-lists)"),
    ("/updateApplist/{applist_id}", update_list, ["PUT", "POST"],
     "updateApplist: edit a list and its entries (as PUT /inventory-lists/{id})"),
    ("/getApplistAllDataList", all_lists, ["GET"],
     "getApplistAllDataList: the lists, all of them (as GET /inventory-lists, unpaged)"),
    ("/admin/create-smart-app-list", spec_call(create_smart), ["POST"],
     "admin/create-smart-app-list: create a smart-app list (as POST /smart-apps)"),
    ("/get-smart-app-categories", categories, ["GET"],
     "get-smart-app-categories: the taxonomy's categories (as GET /smart-apps/categories)"),
    ("/genre", genres, ["GET"], "genre: the genres of a category (as GET /smart-apps/genres)"),
    ("/subgenre", subgenres, ["GET"], "subgenre: the subgenres of a genre (as GET /smart-apps/subgenres)"),
):
    for method in methods:  # one operation per method: generated clients need unique operation ids
        spec_router.add_api_route(path, endpoint, methods=[method], summary=summary, description=summary,
                                  operation_id=spec_operation_id(path, method))
