"""The spec's `sheetData` call (section 7, "Admin"), defined here as: a spreadsheet file of one of the console's
lists, as the caller may see it, answered as a download link like every other export.

The file is CSV, not XLSX: openpyxl is not a dependency, and the CSV exports (app/kernel/csv_exports.py) already
write files a spreadsheet opens safely (UTF-8 with a byte-order mark, no cell runs as a formula) behind a link
that works 15 minutes for the caller only, in the `{csv_download_url, filename}` shape the spec's client reads.

Each list is its service's own list function, so the rows are exactly those its page and REST call show the
caller (permission and row scope are checked there): the campaign list is the campaign export itself.
Lives with the reports (the domain of files made from the console's data), which already reads the domains
it spans; app/web is plumbing the domains import, so it may import none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.accounts import directory
from app.campaigns import export as campaign_export
from app.creatives import service as creatives
from app.creatives.schemas import CreativeStatusName
from app.kernel.csv_exports import ExportLink, export_link, write_export
from app.kernel.errors import Invalid
from app.kernel.model_base import utcnow
from app.kernel.schema_examples import example

SheetList = Literal["campaigns", "creatives", "users"]


class SheetFilters(BaseModel):
    """The list's filters, as its page has them; each list takes only its own (FILTERS)."""

    model_config = ConfigDict(extra="forbid")

    status: str = Field("", description="The list's status values (campaigns: as their list; creatives: active, "
                                        "paused or archived; users: active, pending or disabled); empty: all")
    search: str = Field("", description="campaigns, creatives: words the row must contain")
    advertiser_id: int | None = Field(None, description="campaigns, creatives: one advertiser's rows")
    campaign_id: int | None = Field(None, description="creatives: those a campaign shows")
    type: Literal["", "image", "native", "video", "html"] = Field("", description="creatives: one type")
    role: str = Field("", description="users: ADMIN, CO-ADMIN, AGENCY or ADVERTISER; empty: every role")
    include_archived: bool = Field(False, description="campaigns, creatives: archived rows too")


class SheetRequest(BaseModel):
    model_config = example({"list": "campaigns", "filters": {"status": "active", "search": "Launch"}})

    list: SheetList = Field(description="Which list: campaigns, creatives or users")
    filters: SheetFilters = Field(default_factory=SheetFilters)


# Which filters each list takes, and the columns the creative and user sheets write (the campaign sheet is the
# campaign export's, with its own columns).
FILTERS: dict[str, frozenset[str]] = {
    "campaigns": frozenset({"status", "search", "advertiser_id", "include_archived"}),
    "creatives": frozenset({"status", "search", "advertiser_id", "campaign_id", "type", "include_archived"}),
    "users": frozenset({"status", "role"}),
}
CREATIVE_COLUMNS = ("id", "name", "type", "status", "advertiser_id", "advertiser", "click_url", "width", "height",
                    "duration_ms", "updated_at")
USER_COLUMNS = ("id", "name", "email", "company", "role", "agency", "agency_id", "status", "balance", "margin",
                "created")
CREATIVE_STATUSES: tuple[CreativeStatusName, ...] = ("active", "paused", "archived")


def _written(actor: Actor, name: str, columns: tuple[str, ...], rows: Iterable[BaseModel]) -> ExportLink:
    stored = write_export(columns, ([getattr(row, column) for column in columns] for row in rows))
    return export_link(actor=actor, stored=stored, filename=f"{name}-{utcnow():%Y%m%d-%H%M%S}.csv")


def _campaigns(db: Session, actor: Actor, f: SheetFilters) -> ExportLink:
    return campaign_export.export_campaigns(db, actor=actor, columns=[], status=f.status, search=f.search,
                                            advertiser_id=f.advertiser_id, include_archived=f.include_archived)


def _creatives(db: Session, actor: Actor, f: SheetFilters) -> ExportLink:
    if f.status and f.status not in CREATIVE_STATUSES:
        raise Invalid({"status": f"Use one of: {', '.join(CREATIVE_STATUSES)}."})
    rows = creatives.list_creatives(db, actor=actor, advertiser_id=f.advertiser_id, type=f.type, status=f.status,
                                    search=f.search, campaign_id=f.campaign_id, include_archived=f.include_archived)
    return _written(actor, "Creatives", CREATIVE_COLUMNS, rows)


def _users(db: Session, actor: Actor, f: SheetFilters) -> ExportLink:
    rows = directory.accounts_overview(db, actor=actor, role=f.role, status=f.status)
    return _written(actor, "Users", USER_COLUMNS, rows)


WRITERS: dict[str, Callable[[Session, Actor, SheetFilters], ExportLink]] = {
    "campaigns": _campaigns, "creatives": _creatives, "users": _users}


def sheet_data(db: Session, *, actor: Actor, request: SheetRequest) -> ExportLink:
    """Write the list as the caller may see it to a CSV file; answers its link (15 minutes, the caller only).
    A filter the list does not take is refused naming it (`filters.<name>`), rather than silently ignored."""
    foreign = sorted(request.filters.model_fields_set - FILTERS[request.list])
    if foreign:
        raise Invalid({f"filters.{name}": f"Not a filter of the {request.list} list." for name in foreign})
    try:
        return WRITERS[request.list](db, actor, request.filters)
    except Invalid as problem:  # the list's own checks name a filter as its page does; named as this request does
        raise Invalid({f"filters.{name}": message for name, message in problem.fields.items()}) from None
