"""Row actions of a data grid handled in a sibling component: the grid's handler forwards each action to a
small host component (navigation, confirmation dialogs, status writes) through a ref, so asking a question
re-renders the host, not the page that holds the grid and all its rows (ARCHITECTURE.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.kernel.i18n.catalog import Translator
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.hooks import use_action
from components.ui.navigation import use_navigation
from components.widgets.datagrid import ColumnType, GridColumn


@dataclass(frozen=True)
class RowActions:
    on_action: Callable[[str, Any], None]  # hand to data_grid(on_action=...)
    elements: Any  # render once in the page: the host


def use_row_actions(host_component: Callable[..., Any], *args: Any) -> RowActions:
    """`host_component(host_ref, *args)` sets `host_ref.current = act(action_id, row id)` as it renders."""
    host: Ref[Any] = use_ref(None)

    def on_action(action_id: str, key: Any) -> None:
        if host.current:
            host.current(action_id, int(key))

    return RowActions(on_action, host_component(host, *args))


TOGGLE = "toggle_active"  # the status switch column's action: active <-> paused
ARCHIVE = "archive"  # asks first, then archives
# A list page's column: (key, type, width in pixels, hidden until the user picks it in the column chooser).
ColumnSpec = tuple[str, ColumnType, int, bool]


def declared_columns(label: Callable[[str], str], specs: Iterable[ColumnSpec]) -> list[GridColumn]:
    """The grid columns of a list page's COLUMNS, each labelled by `label(key)`; a toggle column's switch runs
    TOGGLE."""
    columns: list[GridColumn] = []
    for key, kind, width, hidden in specs:
        column: GridColumn = {"key": key, "label": label(key), "type": kind, "width": width}
        if hidden:
            column["hidden"] = True
        if kind == "toggle":
            column["action"] = TOGGLE
        columns.append(column)
    return columns


def sortable_only(columns: list[GridColumn], sorts: Iterable[str]) -> list[GridColumn]:
    """`columns` of a server-paged grid, those its service cannot sort by (not in `sorts`) marked unsortable: the grid
    would otherwise offer a sort that the server refuses. (Switches never sort: they are left as they are.)"""
    keys = set(sorts)
    return [column if column["key"] in keys or column.get("type") == "toggle" else {**column, "sortable": False}
            for column in columns]


def selection_labels(t: Translator, select_all: str = "grid.select_all") -> tuple[str, str, str, str]:
    """data_grid's select_labels, translated: select all (`select_all`: a page's own wording), select a row,
    "{count} selected" and the button that clears the selection."""
    return t(select_all), t("grid.select_row"), t("grid.selected"), t("grid.clear_selection")


@component
def StatusRowActions(host: Ref[Any], rows: list[dict[str, Any]], reload: Callable[[], None],
                     set_status: Callable[..., Any], id_field: str, prefix: str) -> Any:
    """The row actions of a list of things with active/paused/archived statuses (campaigns, creatives): the
    status switch, archiving after a confirmation, and any other action id as the name of a page to open.
    `set_status(db, actor=..., <id_field>=..., status=...)` is the entity's service; `prefix` its catalog
    ("campaigns": campaigns.now_paused, campaigns.confirm_archived, ...)."""
    console = use_console()
    t = console.t
    not_asking: tuple[int, str] | None = None
    asking, set_asking = use_state(not_asking)  # (id, name) to archive
    navigation, go = use_navigation()

    def changed(row: dict[str, Any]) -> None:
        console.toast("success", t(f"{prefix}.now_{row['status']}", name=row["name"]))
        reload()

    def refused(errors: dict[str, str]) -> None:
        # A row has no field to show why (activating an ended flight, or with no balance): say it, and redraw the
        # switch as it really is.
        console.toast("error", " ".join(errors.values()))
        reload()

    write = use_action(set_status, on_done=changed, on_refused=refused)

    def act(action_id: str, row_id: int) -> None:
        row = next((r for r in rows if r["id"] == row_id), None)
        if row is None:
            return
        if action_id == TOGGLE:
            wanted = "paused" if row["status"] == "active" else "active"
            write.submit(actor=console.actor, **{id_field: row_id}, status=wanted)
        elif action_id == ARCHIVE:
            set_asking((row_id, row["name"]))
        elif path := console.path(action_id, id=row_id):
            go(path)

    host.current = act

    def confirm() -> None:
        if asking is not None:
            set_asking(None)
            write.submit(actor=console.actor, **{id_field: asking[0]}, status="archived")

    return html.div(navigation,
                    ConfirmDialog(t(f"{prefix}.confirm_archived_title"), t(f"{prefix}.confirm_archived", name=asking[1]),
                                  t("campaigns.archive"), t("common.cancel"), confirm, lambda: set_asking(None))
                    if asking else "")
