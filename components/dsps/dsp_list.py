"""/admin/dsplist: every DSP in the data grid, with its status switch, its last connection test and how many
campaigns and creatives it holds ids for; links to New DSP (the guided way) and the one-page form. The grid shows
one page (dsps.list_dsps_page, as the creative list): its search and sort are SQL, the total a COUNT."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html

from app.dsps import service as dsps
from app.dsps.models import DspStatus
from app.dsps.schemas import DspRead
from components.dsps.common import status_cell
from components.ui.console import Console, use_console
from components.ui.elements import card, page_header
from components.ui.grid_host import TOGGLE, ColumnSpec, declared_columns, sortable_only, use_row_actions
from components.ui.hooks import use_action
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, data_grid

PAGE_SIZE = 50
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 180, False), ("status", "badge", 90, False), ("active", "toggle", 56, False),
    ("endpoint_url", "text", 220, False), ("exchanges", "text", 170, False), ("connection", "badge", 120, False),
    ("synced", "number", 80, False), ("updated_at", "date", 150, True), ("id", "number", 70, True))


def grid_columns(console: Console) -> list[GridColumn]:
    return declared_columns(lambda key: console.t(f"dsps.col.{key}"), COLUMNS)


def _connection(console: Console, ok: bool | None) -> dict[str, str]:
    t = console.t
    if ok is None:
        return {"text": t("dsps.not_tested"), "variant": "light"}
    return {"text": t("dsps.test_ok"), "variant": "success"} if ok else {"text": t("dsps.test_failed"),
                                                                          "variant": "danger"}


def grid_rows(console: Console, rows: list[DspRead]) -> list[dict[str, Any]]:
    """The grid's rows, as JSON."""
    t = console.t
    return [{**row.model_dump(), "status": status_cell(console, row.status), "exchanges": ", ".join(row.exchanges) or "—",
             "connection": _connection(console, row.last_test_ok),
             "active": {"on": row.status == DspStatus.ACTIVE, "enabled": True,
                        "label": t("dsps.deactivate" if row.status == DspStatus.ACTIVE else "dsps.activate")}}
            for row in rows]


def grid_actions(console: Console) -> list[GridAction]:
    return [{"id": "dsp.view", "label": console.t("dsps.tab_overview"), "icon": "bi-eye"},
            {"id": "dsp.edit", "label": console.t("dsps.tab_edit"), "icon": "bi-pencil"},
            {"id": "dsp.change_log", "label": console.t("dsps.tab_change_log"), "icon": "bi-clock-history", "menu": True}]


@component
def _DspRowActions(host: Ref[Any], rows: list[DspRead], reload: Callable[[], None]) -> Any:
    """The status switch and the row buttons, in a sibling of the grid (components/ui/grid_host.py)."""
    console = use_console()
    t = console.t
    navigation, go = use_navigation()
    write = use_action(dsps.set_status, success=lambda d: t(f"dsps.now_{d.status}", name=d.name),
                       on_done=lambda _d: reload())

    def act(action_id: str, row_id: int) -> None:
        row = next((r for r in rows if r.id == row_id), None)
        if row is None:
            return
        if action_id == TOGGLE:
            wanted = DspStatus.INACTIVE if row.status == DspStatus.ACTIVE else DspStatus.ACTIVE
            write.submit(actor=console.actor, dsp_id=row_id, status=wanted.value)
        elif path := console.path(action_id, id=row_id):
            go(path)

    host.current = act
    return navigation


@component
def DspListPage() -> Any:
    console = use_console()
    t = console.t
    pages = use_offset_pages(dsps.list_dsps_page, filters=[], page_size=PAGE_SIZE, actor=console.actor)
    rows = pages.query
    actions = use_row_actions(_DspRowActions, pages.rows, rows.reload)
    wizard, form = console.path("dsp.new"), console.path("dsp.create")
    return html.div(
        {"data-page": "dsps"},
        page_header(t("dsps.title"), t("dsps.subtitle"),
                    app_link({"to": form, "className": "btn btn-outline-primary", "data-action": "create-dsp"},
                             html.i({"className": "bi bi-file-earmark-plus me-1"}), t("dsps.create_title"))
                    if form else "",
                    app_link({"to": wizard, "className": "btn btn-primary", "data-action": "new-dsp"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("dsps.new")) if wizard else ""),
        card(data_grid(columns=sortable_only(grid_columns(console), dsps.LIST_SORTS), rows=grid_rows(console, pages.rows),
                       height=520,
                       search_placeholder=t("common.search"), empty_text=t("dsps.empty"), row_count_label=t("grid.rows"),
                       more_label=t("grid.more"), locale=console.language, actions=grid_actions(console),
                       on_action=actions.on_action, on_row_click=lambda key: actions.on_action("dsp.view", key),
                       loading_text=t("common.loading") if rows.loading else None, columns_label=t("grid.columns"),
                       storage_key="dsps", on_view_change=pages.on_view_change, paging=pages.paging)),
        actions.elements,
    )
