"""/admin/users, /co-admin/users and /agency/advertiser: the accounts an actor may see, filtered by
role and status, with the row actions the actor may take ("Login as"; the Back buttons return here).

The grid shows one page (account_grids.accounts_list_page: at 10,000 accounts only the page's rows are read and
sent); its sort, its search and the filters are SQL, and the total is a COUNT."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.access.models import UserStatus
from app.access.roles import ALL_ROLES, Role
from app.accounts import account_grids
from components.accounts.users.accounts_table import account_columns
from components.accounts.users.row_actions import account_grid, use_account_actions
from components.ui.console import Console, use_console
from components.ui.elements import card, page_header
from components.ui.forms import select_field
from components.ui.labels import role_label_key
from components.ui.links import app_link
from components.ui.offset_pages import use_offset_pages

STAFF_COLUMNS = ("name", "email", "role", "agency", "status", "balance", "created")
AGENCY_COLUMNS = ("name", "email", "company", "status", "balance", "margin", "created")
PAGE_SIZE = 50


def filters(console: Console, role: str, status: str, set_role: Any, set_status: Any) -> Any:
    t = console.t
    return html.div(
        {"className": "d-flex flex-wrap gap-3 mb-1 dsp-filters"},
        select_field(name="role_filter", label=t("users.filter_role"), value=role, on_change=set_role,
                     options=[("", t("users.all_roles"))] + [(r.value, t(role_label_key(r))) for r in ALL_ROLES],
                     class_name="dsp-filter"),
        select_field(name="status_filter", label=t("users.filter_status"), value=status, on_change=set_status,
                     options=[("", t("users.all_statuses"))] + [(s, t(f"status.{s}")) for s in UserStatus.ALL],
                     class_name="dsp-filter"),
    )


@component
def UsersPage() -> Any:
    console = use_console()
    t = console.t
    agency = console.role == Role.AGENCY
    role_filter, set_role_filter = use_state("")
    status_filter, set_status_filter = use_state("")
    shown = use_offset_pages(account_grids.accounts_list_page, filters=[role_filter, status_filter],
                             page_size=PAGE_SIZE, actor=console.actor, role=role_filter, status=status_filter)
    actions = use_account_actions(shown.rows, shown.query.reload)
    columns = account_columns(console, AGENCY_COLUMNS if agency else STAFF_COLUMNS)
    add_path = console.path("user.add")
    add_button = app_link({"to": add_path, "className": "btn btn-primary", "data-action": "add-user"},
                          html.i({"className": "bi bi-plus-lg me-1"}),
                          t("users.add_advertiser" if agency else "users.add")) if add_path else ""
    return html.div(
        page_header(t("users.advertisers_title" if agency else "users.title"),
                    t("users.subtitle_agency" if agency else "users.subtitle"), add_button),
        card(filters(console, role_filter, status_filter, set_role_filter, set_status_filter) if not agency else "",
             account_grid(console, columns=columns, rows=shown.rows, actions=actions,
                          empty_text=t("dashboard.no_accounts"), loading=shown.query.loading, paging=shown.paging,
                          on_view_change=shown.on_view_change)),
        actions.elements,
    )
