"""/audience, /agency/audience, /admin/audience (and co-admin's): every audience the actor may see, with its kind,
size, status switch and how many campaigns use it; "New audience" opens the create page.

The grid shows one page (audiences.list_audiences_page, as the campaign list): sort, search and the kind and status
filters are SQL, and sizes and campaign counts are figured for the page's audiences only (which is why those two
columns do not sort)."""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html, use_state

from app.supply import audiences
from app.supply.models import AudienceKind, AudienceStatus
from app.supply.schemas import AudienceRow
from components.supply.audiences.common import definition_text, size_text, status_cell
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.elements import card, page_header, slot
from components.ui.forms import select_field
from components.ui.grid_host import (
    TOGGLE,
    ColumnSpec,
    declared_columns,
    sortable_only,
    use_row_actions,
)
from components.ui.hooks import use_action
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, data_grid

ALL = ""
DELETE = "delete"
GRID_HEIGHT_PX = 520
PAGE_SIZE = 50
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 220, False), ("definition", "text", 200, False), ("advertiser", "text", 150, False),
    ("size", "text", 170, False), ("status", "badge", 95, False), ("active", "toggle", 64, False),
    ("campaign_count", "number", 100, False), ("updated_at", "date", 150, False), ("id", "number", 70, True))


def _columns(console: Console) -> list[GridColumn]:
    staff_or_agency = console.role is not None and console.role.value != "ADVERTISER"
    return sortable_only(declared_columns(lambda key: console.t(f"audiences.col.{key}"),
                                          (c for c in COLUMNS if staff_or_agency or c[0] != "advertiser")),
                         audiences.LIST_SORTS)


def _rows(console: Console, rows: list[AudienceRow]) -> list[dict[str, Any]]:
    t = console.t
    return [{**row.model_dump(), "definition": definition_text(console, row), "size": size_text(console, row),
             "status": status_cell(console, row.status),
             "active": {"on": row.status == AudienceStatus.ACTIVE, "enabled": True,
                        "label": t("audiences.deactivate" if row.status == AudienceStatus.ACTIVE
                                   else "audiences.activate")},
             "unused": row.campaign_count == 0} for row in rows]


def _actions(console: Console) -> list[GridAction]:
    t = console.t
    return [{"id": "audience.view", "label": t("audiences.tab_overview"), "icon": "bi-eye"},
            {"id": "audience.change_log", "label": t("audiences.tab_change_log"), "icon": "bi-clock-history",
             "menu": True},
            {"id": DELETE, "label": t("audiences.delete"), "icon": "bi-trash", "variant": "danger", "when": "unused",
             "menu": True}]


@component
def _RowActions(host: Ref[Any], rows: list[AudienceRow], reload: Any) -> Any:
    """The list's switch (active ⇄ inactive), deleting after a question, and opening an audience's pages."""
    console = use_console()
    t = console.t
    not_asking: tuple[int, str] | None = None
    asking, set_asking = use_state(not_asking)  # (id, name) to delete
    navigation, go = use_navigation()
    toggle = use_action(audiences.set_status, success=lambda a: t(f"audiences.now_{a.status}", name=a.name),
                        on_done=lambda _a: reload())
    remove = use_action(audiences.delete_audience, success=lambda gone: t("audiences.deleted", name=gone.name),
                        on_done=lambda _gone: reload())

    def act(action_id: str, row_id: int) -> None:
        row = next((r for r in rows if r.id == row_id), None)
        if row is None:
            return
        if action_id == TOGGLE:
            wanted = AudienceStatus.INACTIVE if row.status == AudienceStatus.ACTIVE else AudienceStatus.ACTIVE
            toggle.submit(actor=console.actor, audience_id=row_id, status=wanted.value)
        elif action_id == DELETE:
            set_asking((row_id, row.name))
        elif path := console.path(action_id, id=row_id):
            go(path)

    host.current = act

    def confirm() -> None:
        if asking is not None:
            set_asking(None)
            remove.submit(actor=console.actor, audience_id=asking[0])

    return html.div(navigation,
                    ConfirmDialog(t("audiences.confirm_delete_title"), t("audiences.confirm_delete", name=asking[1]),
                                  t("audiences.delete"), t("common.cancel"), confirm, lambda: set_asking(None))
                    if asking else "")


@component
def AudienceListPage() -> Any:
    console = use_console()
    t = console.t
    kind, set_kind = use_state(ALL)
    status, set_status = use_state(ALL)
    pages = use_offset_pages(audiences.list_audiences_page, filters=[kind, status], page_size=PAGE_SIZE,
                             actor=console.actor, kind=kind, status=status)
    listed = pages.query
    rows = pages.rows
    actions = use_row_actions(_RowActions, rows, listed.reload)
    create = console.path("audience.create")

    return html.div(
        {"data-page": "audiences"},
        page_header(t("audiences.title"), t("audiences.subtitle"),
                    app_link({"to": create, "className": "btn btn-primary", "data-action": "new-audience"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("audiences.new")) if create else ""),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="kind_filter", label=t("audiences.field.kind"), value=kind,
                                  options=[(ALL, t("audiences.all_kinds"))]
                                  + [(k.value, t(f"audiences.kind.{k.value}")) for k in AudienceKind],
                                  on_change=set_kind, class_name="dsp-filter"),
                     select_field(name="status_filter", label=t("audiences.field.status"), value=status,
                                  options=[(ALL, t("audiences.all_statuses"))]
                                  + [(s.value, t(f"audiences.status.{s.value}")) for s in AudienceStatus],
                                  on_change=set_status, class_name="dsp-filter")),
            slot(
                data_grid(columns=_columns(console), rows=_rows(console, rows), height=GRID_HEIGHT_PX,
                          search_placeholder=t("common.search"), empty_text=t("audiences.empty"),
                          row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                          actions=_actions(console), on_action=actions.on_action,
                          on_row_click=lambda key: actions.on_action("audience.view", key),
                          loading_text=t("common.loading") if listed.loading else None,
                          columns_label=t("grid.columns"), storage_key="audiences",
                          on_view_change=pages.on_view_change, paging=pages.paging),
                f"calc({GRID_HEIGHT_PX}px + 5rem)"),
            html.p({"className": "small text-body-secondary mt-2 mb-0"}, t("audiences.size_note")),
        ),
        actions.elements,
    )
