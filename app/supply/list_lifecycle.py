"""The lifecycle inventory lists and smart-app lists share, declared once: a list is created with entries,
changed while active (archived lists are read-only until restored), archived or restored through its status
machine, has entries added, replaced or removed (typed or uploaded), and is deleted only when no live campaign
uses it. Each kind (app/supply/app_lists.py, smart_apps.py) declares its ListLifecycle: its tables, who may do
what, how it finds and shows a list in the actor's scope, which campaigns use one, and where its API routes are
(derived from the declaration by app/supply/list_routes.py, as app/web/kinds_api.py derives status routes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from sqlmodel import Session, func, select

from app.access.policy import Actor, require
from app.history import audit
from app.history import status as status_machine
from app.kernel.csv_uploads import refused_lines
from app.kernel.errors import Conflict, Invalid
from app.kernel.model_base import utcnow
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.supply import app_entries
from app.supply.models import ListStatus
from app.supply.schemas import CampaignUse, EntryBatchResult, ListDeleted, ListEntry, ListUsage

IN_USE = "This list is used by campaigns that are not archived: {names}. Archive it instead, or take it out of them."
ARCHIVED = "An archived list cannot be changed; restore it first."
REPLACE_WITH_NOTHING = "Give the entries the list should hold."
# A file whose every line is refused: in replace mode it emptied the list (200, "removed 3, total 0"), in add mode it
# answered 200 for nothing. Refused whole instead, naming the lines (issue 38 item 8).
NO_ENTRY_IN_FILE = "No line of the file holds an entry, so the list was left as it was."

L = TypeVar("L")  # a list as its kind finds it: the row, or a tuple whose first item is the row
R = TypeVar("R", bound=BaseModel)  # a list as its kind shows it (its Read schema)


def usage(row: Any, counts: dict[str, int], used: list[CampaignUse]) -> ListUsage:
    """What a list's row shows of its entries and the campaigns using it, whichever kind it is."""
    return ListUsage(apps=counts["app"], domains=counts["domain"], entries=counts["total"], campaigns=used,
                     campaign_count=len(used), created_at=row.created_at.isoformat(),
                     updated_at=row.updated_at.isoformat())


def entry_audit(result: EntryBatchResult) -> dict[str, Any]:
    return {"entries_added": result.added, "entries_removed": result.removed, "entries_total": result.total}


@dataclass(frozen=True)
class ListRoutes:
    """The API routes a list kind gets from its declaration (app/supply/list_routes.py): one list, its deletion,
    its entries (read, typed, uploaded). Its status route is its status machine's (app/web/kinds_api.py)."""

    path: str  # one list, "/inventory-lists/{applist_id}": its one parameter is the list's id
    upload: str  # the multipart upload of entries; its form field is named like `path`'s parameter
    noun: str  # "Inventory list": the replies' messages say "<noun> deleted"
    tag: str  # the OpenAPI tag of its routes
    who: str = ""  # who may change a list, said before the description of each change ("Admin and co-admin: ")
    aliases: tuple[tuple[str, str, str], ...] = ()  # the spec's names: (route "get" or "upload", path, summary)
    # Each route's function name, of which FastAPI makes its operation id ("get", "delete", "entries",
    # "change_entries", "upload" -> a name); a route not named here is "<route>_<entity>". The kinds whose routes
    # were written by hand before keep their operation ids, which generated clients call their methods by.
    names: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ListLifecycle(Generic[L, R]):
    entity: str  # AuditEntry.entity of its writes
    table: type[Any]  # the lists' table (id, name, status, updated_at)
    entries: app_entries.EntryModel  # its entries' table
    view: tuple[str, str]  # the permission to read a list and its entries
    change: tuple[str, str]  # the permission to change a list and its entries
    remove: tuple[str, str]  # the permission to delete one
    find: Callable[[Session, Actor, int], L]  # the list in the actor's scope (NotFound otherwise)
    show: Callable[[Session, Actor, L], R]  # the list as its pages and API show it
    read: type[R]  # ...which is this schema
    used_by: Callable[[Session, Any], list[CampaignUse]]  # the campaigns not archived that use the list
    snapshot: Callable[[Any], dict[str, Any]]  # its audited fields
    routes: ListRoutes | None = None  # its API routes; None: none

    @staticmethod
    def row(loaded: Any) -> Any:
        return loaded[0] if isinstance(loaded, tuple) else loaded

    def status(self, description: str) -> status_machine.StatusMachine[L]:
        """Its status machine: archive (it stays on the campaigns that use it, but cannot be newly chosen) or
        restore, by whoever may change a list; routed at its path's /status."""
        assert self.routes is not None
        return status_machine.declare(status_machine.StatusMachine(
            self.entity, self.table, tuple(ListStatus), self.change, self.find, self.show, read=self.read,
            routes=(status_machine.StatusRoute(f"{self.routes.path}/status", description=description),)))

    def get(self, db: Session, *, actor: Actor, list_id: int) -> R:
        """One list as the actor may see it."""
        require(actor, *self.view)
        return self.show(db, actor, self.find(db, actor, list_id))

    def list_entries(self, db: Session, *, actor: Actor, list_id: int) -> list[ListEntry]:
        """A list's entries ({value, kind}, by value) for the view page's grid."""
        require(actor, *self.view)
        row = self.row(self.find(db, actor, list_id))
        return app_entries.entries_of(db, self.entries, row.id)

    def entries_page(self, db: Session, *, actor: Actor, list_id: int, search: str = "", limit: int = DEFAULT_LIMIT,
                     cursor: str | None = None) -> Page[ListEntry]:
        """A list's entries a page at a time, by value (the API's entries and the view page's grid)."""
        require(actor, *self.view)
        row = self.row(self.find(db, actor, list_id))
        return app_entries.entries_page(db, self.entries, row.id, search=search, limit=limit, cursor=cursor)

    def created(self, db: Session, *, actor: Actor, row: Any, parsed: app_entries.Parsed) -> EntryBatchResult:
        """A new list's entries stored and its creation audited (the row is flushed): the batch's result."""
        result = app_entries.store(db, self.entries, row.id, parsed)
        audit.record(db, actor=actor, entity=self.entity, entity_id=row.id, action="create",
                     after=self.snapshot(row) | entry_audit(result))
        return result

    def writable(self, db: Session, actor: Actor, list_id: int) -> L:
        """The list, when the actor may change it and it is not archived."""
        require(actor, *self.change)
        loaded = self.find(db, actor, list_id)
        if self.row(loaded).status == ListStatus.ARCHIVED:
            raise Invalid({"status": ARCHIVED})
        return loaded

    def apply(self, db: Session, *, actor: Actor, row: Any, parsed: app_entries.Parsed, mode: str,
              action: str) -> EntryBatchResult:
        """Add, replace or remove entries; audited when something changed. The batch's result: counts and the
        refused lines with their reasons."""
        result = app_entries.store(db, self.entries, row.id, parsed, mode=mode)
        if result.added or result.removed:
            row.updated_at = utcnow()
            db.add(row)
            audit.record(db, actor=actor, entity=self.entity, entity_id=row.id, action=action,
                         after=entry_audit(result))
        return result

    def change_entries(self, db: Session, *, actor: Actor, list_id: int, text: str, mode: str) -> EntryBatchResult:
        """Typed entries (one a line): add them, replace the list's entries with them, or remove them."""
        row = self.row(self.writable(db, actor, list_id))
        parsed = app_entries.parse_text(text)
        if mode == "replace" and not parsed.values:
            raise Invalid({"entries": REPLACE_WITH_NOTHING})
        return self.apply(db, actor=actor, row=row, parsed=parsed, mode=mode, action=f"entries_{mode}")

    def upload_entries(self, db: Session, *, actor: Actor, list_id: int, content: bytes,
                       mode: str) -> EntryBatchResult:
        """A CSV or text file, the first cell of each row an entry. A file that cannot be read (not UTF-8 text,
        not CSV, empty, too big) raises Invalid on `file` and saves nothing, as does a file none of whose lines
        is an entry (its message names the lines refused, and why); otherwise the readable lines are applied and
        the refused ones reported with their line numbers."""
        row = self.row(self.writable(db, actor, list_id))
        parsed = app_entries.parse_csv(content)
        if not parsed.values and parsed.refused:
            raise Invalid({"file": NO_ENTRY_IN_FILE}, refused_lines(NO_ENTRY_IN_FILE, parsed.refused))
        return self.apply(db, actor=actor, row=row, parsed=parsed, mode=mode, action=f"upload_{mode}")

    def delete(self, db: Session, *, actor: Actor, list_id: int) -> ListDeleted:
        """Delete an unused list with its entries. A list that a campaign which is not archived uses is refused
        (Conflict naming the campaigns): archive it instead."""
        require(actor, *self.remove)
        row = self.row(self.find(db, actor, list_id))
        used = self.used_by(db, row)
        if used:
            raise Conflict(IN_USE.format(names=", ".join(c.name for c in used)),
                           data={"campaigns": [c.model_dump() for c in used]})
        entries: Any = self.entries
        count = db.exec(select(func.count()).select_from(entries).where(entries.list_id == list_id)).one()
        before = self.snapshot(row) | {"entries_total": count}
        app_entries.delete_all(db, self.entries, list_id)
        db.delete(row)
        db.flush()
        audit.record(db, actor=actor, entity=self.entity, entity_id=list_id, action="delete", before=before)
        return ListDeleted(id=list_id, name=before["name"], deleted=True)


LIST_LIFECYCLES: dict[str, ListLifecycle[Any, Any]] = {}


def declare(lifecycle: ListLifecycle[L, R]) -> ListLifecycle[L, R]:
    """Register a list kind (its API routes then exist); declaring an entity again replaces it."""
    LIST_LIFECYCLES[lifecycle.entity] = lifecycle
    return lifecycle
