"""Inventory lists and smart-app lists over the API: the same service calls the pages make, so the same
permission and row-scope checks (an agency reaches its advertisers' lists only; another tenant's id answers 404).
REST paths first, then the spec's call names (section 7) as aliases of the same functions.

Uploads are multipart (field `file`): a CSV or text file, the first cell of each row an entry. Its `data` is the
batch's result: lines read, added, duplicates (in the file, already in the list), and the refused lines with
their line numbers and reasons. A file that cannot be read at all answers 422 and saves nothing.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Form, UploadFile
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.uploads import shown_file_name
from app.supply import app_entries, app_lists, smart_apps
from app.web.deps import DB, get_actor
from app.web.envelope import ok

router = APIRouter(tags=["inventory lists"])
smart_router = APIRouter(tags=["smart-app lists"])
spec_router = APIRouter(tags=["inventory and smart-app lists (spec call names)"])

Kind = Literal["allow", "block"]
Status = Literal["active", "archived"]
Mode = Literal["add", "replace", "remove"]
ENTRIES_HELP = ("App bundle ids (com.example.app, id123456789) and domains (example.com), one a line; commas, "
                "semicolons and tabs also separate entries")
RESULT_HELP = ("`data.result` is the batch's result: lines, added, duplicates_in_batch, already_in_list, "
               "refused_count and refused [{line, text, reason}] (the first 1,000).")


class NewListBody(BaseModel):
    name: str
    kind: Kind
    entries: str = Field("", description=ENTRIES_HELP)
    advertiser_id: int | None = Field(None, description="Whose list; an advertiser's own calls leave it out")


class ListBody(BaseModel):
    """Fields left out keep their values. `entries` with `mode` also changes the entries."""

    name: str | None = None
    kind: Kind | None = None
    entries: str | None = Field(None, description=ENTRIES_HELP)
    mode: Mode = "add"


class EntriesBody(BaseModel):
    entries: str = Field(..., description=ENTRIES_HELP)
    mode: Mode = Field("add", description="add them, replace the list's entries with them, or remove them")


class NewSmartListBody(BaseModel):
    name: str
    category_id: str = Field(..., description="From get-smart-app-categories")
    genre_id: str = Field(..., description="From genre?category_id=")
    subgenre_id: str = Field("", description="From subgenre?category_id=&genre_id=; empty for the whole genre")
    entries: str = Field("", description=ENTRIES_HELP)


class SmartListBody(BaseModel):
    name: str | None = None
    category_id: str | None = None
    genre_id: str | None = None
    subgenre_id: str | None = None


def _read(file: UploadFile) -> bytes:
    # A sync handler runs in a worker thread; one byte past the limit is enough to refuse the file.
    return file.file.read(app_entries.MAX_UPLOAD_BYTES + 1)


# --- inventory lists ---------------------------------------------------------------------------------------

@router.get("/inventory-lists", description="The inventory lists in your scope, newest change first, with their "
            "entry counts by kind and the campaigns using each.")
def list_lists(advertiser_id: int | None = None, status: Literal["", "active", "archived"] = "",
               kind: Literal["", "allow", "block"] = "", actor: Actor = Depends(get_actor),
               db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.list_lists(db, actor=actor, advertiser_id=advertiser_id, status=status, kind=kind))


@router.post("/inventory-lists", description="Create an allow or block list for an advertiser, with entries typed "
             "one a line. Refused lines are reported, the others saved. " + RESULT_HELP)
def create_list(body: NewListBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.create_list(db, actor=actor, data=body.model_dump(), advertiser_id=body.advertiser_id),
              "Inventory list created")


@router.get("/inventory-lists/{applist_id}", description="One list: counts by kind and the campaigns using it.")
def get_list(applist_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.get_list(db, actor=actor, applist_id=applist_id))


@router.put("/inventory-lists/{applist_id}", description="Rename a list or change its kind (not while campaigns "
            "use it); with `entries`, also add, replace or remove entries. " + RESULT_HELP)
def update_list(applist_id: int, body: ListBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    saved = app_lists.update_list(db, actor=actor, applist_id=applist_id, data=body.model_dump(exclude={"entries", "mode"}))
    result = None
    if body.entries is not None:
        result = app_lists.change_entries(db, actor=actor, applist_id=applist_id, text=body.entries, mode=body.mode)
        saved = app_lists.get_list(db, actor=actor, applist_id=applist_id)
    return ok({"list": saved, "result": result}, "Inventory list saved")


@router.delete("/inventory-lists/{applist_id}", description="Delete an unused list. A list that a campaign which is "
               "not archived uses answers 409 naming the campaigns: archive it instead.")
def delete_list(applist_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.delete_list(db, actor=actor, applist_id=applist_id), "Inventory list deleted")


@router.get("/inventory-lists/{applist_id}/entries", description="The list's entries, {value, kind}, by value.")
def list_entries(applist_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.list_entries(db, actor=actor, applist_id=applist_id))


@router.post("/inventory-lists/{applist_id}/entries", description="Add, replace or remove typed entries. " + RESULT_HELP)
def change_entries(applist_id: int, body: EntriesBody, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> dict[str, Any]:
    return ok({"result": app_lists.change_entries(db, actor=actor, applist_id=applist_id, text=body.entries,
                                                  mode=body.mode)})


@router.post("/inventory-lists/{applist_id}/export", description="The entries as a CSV (value, kind): replies "
             "with data.csv_download_url, a link that works for 15 minutes for you only.")
def export_entries(applist_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(app_lists.export_entries(db, actor=actor, applist_id=applist_id))


@router.post("/uploads/inventory-list", description="Upload entries to a list (multipart: `file`, `applist_id`, "
             "`mode`). A CSV or text file of at most 8 MB, the first cell of each row an entry; a header row is "
             "skipped. A file that is not UTF-8 CSV text, is empty or too big answers 422 and saves nothing. "
             "`data.result` as for typed entries.")
def upload_entries(file: UploadFile, applist_id: int = Form(...), mode: Mode = Form("add"),
                   actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    result = app_lists.upload_entries(db, actor=actor, applist_id=applist_id, content=_read(file), mode=mode)
    return ok({"result": result, "filename": shown_file_name(file.filename)}, "Uploaded")


# --- smart-app lists ---------------------------------------------------------------------------------------

@smart_router.get("/smart-apps/categories", description="The taxonomy's categories (the app stores).")
def categories(actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.categories(db, actor=actor))


@smart_router.get("/smart-apps/genres", description="The genres of a category, each saying whether it has subgenres.")
def genres(category_id: str, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.genres(db, actor=actor, category_id=category_id))


@smart_router.get("/smart-apps/subgenres", description="The subgenres of a genre (none for most genres but Games).")
def subgenres(category_id: str, genre_id: str, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.subgenres(db, actor=actor, category_id=category_id, genre_id=genre_id))


@smart_router.get("/smart-apps", description="Smart-app lists: every one for admins and co-admins, the active ones "
                  "(which campaigns may allow) for everyone else.")
def list_smart(status: Literal["", "active", "archived"] = "", actor: Actor = Depends(get_actor),
               db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.list_lists(db, actor=actor, status=status))


@smart_router.post("/smart-apps", description="Admin and co-admin: create a smart-app list under a category, genre "
                   "and (optionally) subgenre, with entries. " + RESULT_HELP)
def create_smart(body: NewSmartListBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.create_list(db, actor=actor, data=body.model_dump()), "Smart-app list created")


@smart_router.get("/smart-apps/{list_id}", description="One smart-app list with its taxonomy and counts.")
def get_smart(list_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.get_list(db, actor=actor, list_id=list_id))


@smart_router.put("/smart-apps/{list_id}", description="Admin and co-admin: rename or move a list in the taxonomy.")
def update_smart(list_id: int, body: SmartListBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.update_list(db, actor=actor, list_id=list_id, data=body.model_dump()), "Smart-app list saved")


@smart_router.delete("/smart-apps/{list_id}", description="Admin and co-admin: delete an unused list (409 naming the "
                     "campaigns when in use: archive it instead).")
def delete_smart(list_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.delete_list(db, actor=actor, list_id=list_id), "Smart-app list deleted")


@smart_router.get("/smart-apps/{list_id}/entries", description="The list's entries, {value, kind}, by value.")
def entries_smart(list_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(smart_apps.list_entries(db, actor=actor, list_id=list_id))


@smart_router.post("/smart-apps/{list_id}/entries", description="Admin and co-admin: add, replace or remove typed "
                   "entries. " + RESULT_HELP)
def change_smart_entries(list_id: int, body: EntriesBody, actor: Actor = Depends(get_actor),
                         db: Session = DB) -> dict[str, Any]:
    return ok({"result": smart_apps.change_entries(db, actor=actor, list_id=list_id, text=body.entries,
                                                   mode=body.mode)})


@smart_router.post("/uploads/smart-app-list", description="Admin and co-admin: upload entries to a smart-app list "
                   "(multipart: `file`, `list_id`, `mode`), checked as inventory-list uploads are.")
def upload_smart(file: UploadFile, list_id: int = Form(...), mode: Mode = Form("add"),
                 actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    result = smart_apps.upload_entries(db, actor=actor, list_id=list_id, content=_read(file), mode=mode)
    return ok({"result": result, "filename": shown_file_name(file.filename)}, "Uploaded")


# --- the spec's call names (section 7) ----------------------------------------------------------------------

for path, endpoint, methods, summary in (
    ("/file/addApp", create_list, ["POST"], "file/addApp: create an inventory list (as POST /inventory-lists)"),
    ("/updateApplist/{applist_id}", update_list, ["PUT", "POST"],
     "updateApplist: edit a list and its entries (as PUT /inventory-lists/{id})"),
    ("/getApplistAllDataList", list_lists, ["GET"], "getApplistAllDataList: the lists (as GET /inventory-lists)"),
    ("/withOutRole/getAppListById/{applist_id}", get_list, ["GET"],
     "withOutRole/getAppListById: one list (as GET /inventory-lists/{id})"),
    ("/csvupload", upload_entries, ["POST"], "csvupload: upload a list's entries (as POST /uploads/inventory-list)"),
    ("/admin/create-smart-app-list", create_smart, ["POST"],
     "admin/create-smart-app-list: create a smart-app list (as POST /smart-apps)"),
    ("/get-smart-app-categories", categories, ["GET"],
     "get-smart-app-categories: the taxonomy's categories (as GET /smart-apps/categories)"),
    ("/genre", genres, ["GET"], "genre: the genres of a category (as GET /smart-apps/genres)"),
    ("/subgenre", subgenres, ["GET"], "subgenre: the subgenres of a genre (as GET /smart-apps/subgenres)"),
):
    for method in methods:  # one operation per method: generated clients need unique operation ids
        spec_router.add_api_route(path, endpoint, methods=[method], summary=summary, description=summary,
                                  operation_id=f"{path.strip('/').replace('/', '_').replace('{', '').replace('}', '')}"
                                               f"_{method.lower()}")
