"""Archiving, restoring and deleting a list (inventory or smart-app), each after a confirmation; shared by the
lists' grids (as a row-action host) and their edit pages. A list in use cannot be deleted: the server's message
names the campaigns, shown as an error toast."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html, use_state

from app.supply.schemas import InventoryListRead, ListDeleted, SmartAppListRead
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.hooks import use_action
from components.ui.navigation import use_navigation
from components.widgets.datagrid import GridAction

ARCHIVE, RESTORE, DELETE = "archive", "restore", "delete"
ListRow = InventoryListRead | SmartAppListRead


@component
def ListLifecycle(host: Ref[Any], rows: list[ListRow], on_changed: Callable[[], None],
                  set_status: Callable[..., Any], delete: Callable[..., Any], id_kw: str,
                  after_delete: str = "") -> Any:
    """`host.current(action, id)`: archive, restore or delete after asking; any other action is a page name to
    open for the row. `after_delete`: the page to go to once deleted (the list page, from an edit page)."""
    console = use_console()
    t = console.t
    not_asking: tuple[str, int, Any] | None = None
    asking, set_asking = use_state(not_asking)  # (action, id, name)
    navigation, go = use_navigation()

    def status_done(row: ListRow) -> None:
        console.toast("success", t(f"applists.now_{row.status}", name=row.name))
        on_changed()

    def deleted(row: ListDeleted) -> None:
        console.toast("success", t("applists.deleted", name=row.name))
        if after_delete and (path := console.path(after_delete)):
            go(path)
        else:
            on_changed()

    status_action = use_action(set_status, on_done=status_done)
    delete_action = use_action(delete, on_done=deleted)

    def act(action: str, row_id: int) -> None:
        row = next((r for r in rows if r.id == row_id), None)
        if row is None:
            return
        if action in (ARCHIVE, RESTORE, DELETE):
            set_asking((action, row_id, row.name))
        elif path := console.path(action, id=row_id):
            go(path)

    host.current = act

    def confirm() -> None:
        if asking is None:
            return
        action, row_id, _name = asking
        set_asking(None)
        if action == DELETE:
            delete_action.submit(actor=console.actor, **{id_kw: row_id})
        else:
            status_action.submit(actor=console.actor, **{id_kw: row_id},
                                 status="archived" if action == ARCHIVE else "active")

    return html.div(
        navigation,
        ConfirmDialog(t(f"applists.confirm_{asking[0]}_title"), t(f"applists.confirm_{asking[0]}", name=asking[2]),
                      t(f"applists.{asking[0]}"), t("common.cancel"), confirm, lambda: set_asking(None),
                      danger=asking[0] != RESTORE) if asking else "")


def lifecycle_buttons(console: Any, row: ListRow, host: Ref[Any], *, deletable: bool = True) -> list[Any]:
    """Archive or restore, and delete, for one list's page."""
    t = console.t
    moves = [RESTORE] if row.status == "archived" else [ARCHIVE]
    if deletable:
        moves.append(DELETE)
    icons = {ARCHIVE: "bi-archive", RESTORE: "bi-arrow-counterclockwise", DELETE: "bi-trash"}
    return [html.button({"type": "button", "key": move, "data-move": move,
                         "className": "btn btn-sm " + ("btn-outline-primary" if move == RESTORE else "btn-outline-danger"),
                         "onClick": lambda _e, m=move: host.current and host.current(m, row.id)},
                        html.i({"className": f"bi {icons[move]} me-1"}), t(f"applists.{move}")) for move in moves]


def grid_actions(console: Any, page_prefix: str) -> list[GridAction]:
    """A list grid's row actions: its pages (`<page_prefix>.view`, `.edit`, `.change_log`) and the lifecycle moves."""
    t = console.t
    return [{"id": f"{page_prefix}.view", "label": t("applists.tab_overview"), "icon": "bi-eye"},
            {"id": f"{page_prefix}.edit", "label": t("applists.tab_edit"), "icon": "bi-pencil", "when": "can_archive"},
            {"id": f"{page_prefix}.change_log", "label": t("applists.tab_change_log"), "icon": "bi-clock-history",
             "menu": True},
            {"id": ARCHIVE, "label": t("applists.archive"), "icon": "bi-archive", "when": "can_archive", "menu": True},
            {"id": RESTORE, "label": t("applists.restore"), "icon": "bi-arrow-counterclockwise", "when": "can_restore",
             "menu": True},
            {"id": DELETE, "label": t("applists.delete"), "icon": "bi-trash", "variant": "danger", "menu": True}]


def lifecycle_flags(row: ListRow) -> dict[str, bool]:
    return {"can_archive": row.status == "active", "can_restore": row.status == "archived"}
