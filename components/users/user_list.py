"""/admin/users, /co-admin/users and /agency/advertiser: the accounts an actor may see, with
"Login as" for the ones it may act as (the Back buttons return here)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.auth.roles import Role
from app.db import run
from app.errors import ServiceError
from app.services import directory, sessions
from components.shell.context import use_console
from components.ui.elements import card, page_header
from components.ui.hooks import use_query
from components.users.accounts_table import account_columns, account_rows
from components.widgets.datagrid import data_grid

STAFF_COLUMNS = ("name", "email", "company", "role", "agency", "status", "balance", "created")
AGENCY_COLUMNS = ("name", "email", "company", "status", "balance", "created")


@component
def UsersPage() -> Any:
    console = use_console()
    t = console.t
    rows, _reload = use_query(directory.accounts_overview, actor=console.actor)
    agency = console.role == Role.AGENCY
    keys = AGENCY_COLUMNS if agency else STAFF_COLUMNS
    columns = account_columns(console, keys)

    def on_action(action_id: str, user_id: Any) -> None:
        if action_id != "login_as":
            return
        try:
            console.go(run(sessions.impersonate, actor=console.actor, target_id=int(user_id)))
        except ServiceError as error:
            console.toast("error", t(error.message))

    title = t("users.advertisers_title" if agency else "users.title")
    return html.div(
        page_header(title, t("users.subtitle_agency" if agency else "users.subtitle")),
        card(data_grid(columns=columns, rows=account_rows(console, rows or []), height=520,
                       search_placeholder=t("common.search"), empty_text=t("dashboard.no_accounts"),
                       row_count_label=t("grid.rows"), locale=console.language,
                       actions=[{"id": "login_as", "label": t("users.login_as"), "icon": "bi-box-arrow-in-right",
                                 "variant": "primary", "when": "can_enter"}],
                       on_action=on_action)),
    )
