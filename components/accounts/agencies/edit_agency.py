"""/admin/editAgency/{id} and the co-admin copy: an agency's details and its advertisers (a grid of one page at a
time, account_grids.accounts_list_page, as the user list)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.access.roles import Role
from app.accounts import account_grids, users
from app.accounts.schemas import UserRead
from components.accounts.users.accounts_table import account_columns
from components.accounts.users.common import not_found
from components.accounts.users.row_actions import account_grid, use_account_actions
from components.accounts.users.user_form import EditUserForm, account_facts
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.hooks import use_query
from components.ui.links import app_link, back_link
from components.ui.offset_pages import use_offset_pages
from components.ui.routes import use_subject_id

ADVERTISER_COLUMNS = ("name", "email", "company", "status", "balance", "margin")
PAGE_SIZE = 50


@component
def AgencyAdvertisers(agency_id: int) -> Any:
    console = use_console()
    t = console.t
    pages = use_offset_pages(account_grids.accounts_list_page, filters=[agency_id], page_size=PAGE_SIZE,
                             actor=console.actor, role=Role.ADVERTISER.value, agency_id=agency_id)
    actions = use_account_actions(pages.rows, pages.query.reload)
    assign_path = console.path("agency.assign")
    move = app_link({"to": f"{assign_path}?from={agency_id}", "className": "btn btn-sm btn-outline-primary"},
                    html.i({"className": "bi bi-arrow-left-right me-1"}), t("agencies.move_advertisers")) \
        if assign_path and pages.paging.total else ""
    return card(account_grid(console, columns=account_columns(console, ADVERTISER_COLUMNS), rows=pages.rows,
                             actions=actions, empty_text=t("agencies.no_advertisers"), height=360,
                             loading=pages.query.loading, paging=pages.paging, on_view_change=pages.on_view_change),
                actions.elements, title=t("agencies.advertisers"), extra=move, class_name="mt-4")


@component
def EditAgencyPage() -> Any:
    console = use_console()
    t = console.t
    agency_id = use_subject_id()
    query = use_query(users.get_user, actor=console.actor, user_id=agency_id, deps=[agency_id])
    user: UserRead | None = query.value
    reload = query.reload
    if query.loading:
        return loading_page(t, t("agencies.edit_title"))
    if user is None or user.role != Role.AGENCY:
        return html.div(page_header(t("agencies.edit_title")), not_found(console))
    log_path = console.path("user.change_log", id=agency_id)
    return html.div(
        page_header(t("agencies.edit_title"), user.company_name or user.name,
                    app_link({"to": log_path, "className": "btn btn-outline-secondary btn-sm"},
                             html.i({"className": "bi bi-clock-history me-1"}), t("users.change_log"))
                    if log_path else "",
                    back_link(console, "agencies", "agencies.back")),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"}, EditUserForm(user, reload, key=f"{agency_id}-{user.email}")),
                 html.div({"className": "col-xl-4"}, account_facts(console, user))),
        AgencyAdvertisers(agency_id),
    )
