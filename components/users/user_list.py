"""/admin/users, /co-admin/users and /agency/advertiser: the accounts an actor may see, with
"Login as" for the ones it may act as (the Back buttons return here)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.auth.roles import Role
from app.models.user import UserStatus
from app.services import directory, sessions, users
from components.shell.context import use_console
from components.ui.confirm import ConfirmDialog
from components.ui.elements import card, page_header
from components.ui.hooks import use_action, use_query
from components.users.accounts_table import account_columns, account_rows
from components.widgets.datagrid import data_grid

STAFF_COLUMNS = ("name", "email", "role", "agency", "status", "balance", "created")
STATUS_ACTIONS = {"disable": UserStatus.DISABLED, "enable": UserStatus.ACTIVE}
AGENCY_COLUMNS = ("name", "email", "company", "status", "balance", "created")


@component
def UsersPage() -> Any:
    console = use_console()
    t = console.t
    rows, reload = use_query(directory.accounts_overview, actor=console.actor)
    pending, set_pending = use_state(None)  # (action, user id, name) waiting for confirmation
    agency = console.role == Role.AGENCY
    keys = AGENCY_COLUMNS if agency else STAFF_COLUMNS
    columns = account_columns(console, keys)

    enter = use_action(sessions.impersonate, on_done=console.go)
    change_status = use_action(users.set_status)

    def on_action(action_id: str, user_id: Any) -> None:
        if action_id == "login_as":
            enter.submit(actor=console.actor, target_id=int(user_id))
        elif action_id in STATUS_ACTIONS:
            name = next((r["name"] for r in rows or [] if r["id"] == int(user_id)), "")
            set_pending((action_id, int(user_id), name))

    def confirm() -> None:
        if pending is None:
            return
        action_id, user_id, name = pending
        set_pending(None)
        if change_status.submit(actor=console.actor, user_id=user_id, status=STATUS_ACTIONS[action_id]) is not None:
            console.toast("success", t(f"users.{action_id}d", name=name))
            reload()

    title = t("users.advertisers_title" if agency else "users.title")
    return html.div(
        page_header(title, t("users.subtitle_agency" if agency else "users.subtitle")),
        card(data_grid(columns=columns, rows=account_rows(console, rows or []), height=520,
                       search_placeholder=t("common.search"), empty_text=t("dashboard.no_accounts"),
                       row_count_label=t("grid.rows"), locale=console.language,
                       actions=[{"id": "login_as", "label": t("users.login_as"), "icon": "bi-box-arrow-in-right",
                                 "variant": "primary", "when": "can_enter"},
                                {"id": "disable", "label": t("users.disable"), "icon": "bi-slash-circle",
                                 "variant": "danger", "when": "can_disable"},
                                {"id": "enable", "label": t("users.enable"), "icon": "bi-check-circle",
                                 "variant": "success", "when": "can_enable"}],
                       on_action=on_action)),
        ConfirmDialog(t(f"users.confirm_{pending[0]}_title"), t(f"users.confirm_{pending[0]}", name=pending[2]),
                      t(f"users.{pending[0]}"), t("common.cancel"), confirm, lambda: set_pending(None),
                      danger=pending[0] == "disable") if pending else "",
    )
