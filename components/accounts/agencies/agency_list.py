"""/admin/agencies and /co-admin/agencies: every agency with its advertisers and their balance, a page at a time
(account_grids.agencies_list_page: sort and search in SQL, only the page's agencies read and sent)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.accounts import account_grids
from components.accounts.users.accounts_table import account_columns
from components.accounts.users.common import USER_PAGES
from components.accounts.users.row_actions import account_grid, use_account_actions
from components.ui.console import use_console
from components.ui.elements import card, page_header
from components.ui.links import app_link
from components.ui.offset_pages import use_offset_pages

COLUMNS = ("company", "name", "email", "status", "advertisers", "balance", "created")
# The agency page first (its button); the per-user pages that apply to agencies go in the row menu.
AGENCY_PAGES = (("agency.edit", "agencies.open", "bi-pencil", ""), *USER_PAGES[1:])
PAGE_SIZE = 50


@component
def AgenciesPage() -> Any:
    console = use_console()
    t = console.t
    shown = use_offset_pages(account_grids.agencies_list_page, filters=[], page_size=PAGE_SIZE, actor=console.actor)
    actions = use_account_actions(shown.rows, shown.query.reload, name_of=lambda row: row.company or row.name,
                                  open_page="agency.edit")
    columns = [{**c, "label": t("agencies.col.balance")} if c["key"] == "balance" else c
               for c in account_columns(console, COLUMNS, name=130, email=175, balance=145)]
    assign_path = console.path("agency.assign")
    add_path = console.path("user.add")
    return html.div(
        page_header(t("agencies.title"), t("agencies.subtitle"),
                    app_link({"to": assign_path, "className": "btn btn-outline-primary"},
                             html.i({"className": "bi bi-arrow-left-right me-1"}), t("agencies.assign"))
                    if assign_path else "",
                    app_link({"to": add_path, "className": "btn btn-primary"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("agencies.add")) if add_path else ""),
        card(account_grid(console, columns=columns, rows=shown.rows, actions=actions, empty_text=t("agencies.empty"),
                          pages=AGENCY_PAGES, loading=shown.query.loading, paging=shown.paging,
                          on_view_change=shown.on_view_change)),
        actions.elements,
    )
