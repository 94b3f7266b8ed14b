"""/agency/funds and /admin/funds (+ /co-admin/funds): the balance of every advertiser in scope, with totals,
an agency filter for staff, and links to each advertiser's payment list and (staff) to adding funds.

The grid shows one page of the list (funds.funds_list_page: only the page's advertisers are read and sent, as
the campaign list does); its sort and search are SQL, the totals are summed over every advertiser the agency
filter keeps."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.funds import service as funds
from app.funds.schemas import FundsListPage, FundsTotals
from components.funds.common import grid_height, kpi_card, kpi_row
from components.ui.console import Console, use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import select_field
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, data_grid

ALL, DIRECT = "all", "direct"
PAGE_SIZE = 50


def agency_options(console: Console, listed: FundsListPage) -> list[tuple[str, str]]:
    options = [(ALL, console.t("funds.all_agencies"))] + [(str(agency_id), name) for agency_id, name in listed.agencies]
    if listed.direct:
        options.append((DIRECT, console.t("funds.direct_advertisers")))
    return options


def agency_filter(choice: str) -> int | None:
    """The service's agency_id for the chooser's value: None for all, 0 for direct advertisers."""
    return None if choice == ALL else 0 if choice == DIRECT else int(choice)


def columns(console: Console, staff: bool) -> list[GridColumn]:
    t = console.t
    shown: list[GridColumn] = [
        {"key": "name", "label": t("funds.col.advertiser"), "width": 170},
        {"key": "company", "label": t("funds.col.company"), "width": 150},
        {"key": "balance", "label": t("funds.col.balance"), "type": "money", "width": 125},
        {"key": "spend", "label": t("funds.col.spend"), "type": "money", "width": 125},
        {"key": "margin", "label": t("funds.col.margin"), "type": "money", "width": 125},
        {"key": "deposits", "label": t("funds.col.deposits"), "type": "money", "width": 125, "hidden": True},
        # The day is enough here; the payment list a click away has the times.
        {"key": "last_entry_at", "label": t("funds.col.last_activity"), "type": "day", "width": 125},
    ]
    if staff:
        # Staff look across agencies: the agency matters more than the company, which stays in the chooser.
        shown[1] = {**shown[1], "hidden": True}
        shown.insert(2, {"key": "agency", "label": t("funds.col.agency"), "width": 170})
    return shown


def totals(console: Console, figures: FundsTotals) -> Any:
    t = console.t
    return kpi_row(
        kpi_card(console, key="total_balance", label=t("funds.total_balance"), micros=figures.balance_micros,
                 icon="bi-wallet2", hint=t("funds.advertiser_count", count=figures.advertisers)),
        kpi_card(console, key="total_spend", label=t("funds.total_spend"), micros=figures.spend_micros,
                 icon="bi-graph-down-arrow"),
        kpi_card(console, key="total_margin", label=t("funds.total_margin"), micros=figures.margin_micros,
                 icon="bi-percent"),
        kpi_card(console, key="empty_balances", label=t("funds.empty_balances"), text=str(figures.empty_balances),
                 icon="bi-exclamation-triangle", hint=t("funds.empty_balances_hint")),
    )


@component
def FundsOverviewPage() -> Any:
    console = use_console()
    t = console.t
    agency, set_agency = use_state(ALL)
    pages = use_offset_pages(funds.funds_list_page, filters=[agency], page_size=PAGE_SIZE, actor=console.actor,
                             agency_id=agency_filter(agency))
    overview = pages.query
    navigation, go = use_navigation()
    if overview.value is None:
        return loading_page(t, t("funds.title"))
    listed: FundsListPage = overview.value
    add_path = console.path("funds.add")
    transfer_path = console.path("funds.transfer")
    staff = add_path is not None
    actions: list[GridAction] = [{"id": "payments", "label": t("funds.payment_list"), "icon": "bi-credit-card"}]
    if staff:
        actions.append({"id": "add", "label": t("funds.add"), "icon": "bi-plus-circle", "variant": "success"})

    def on_action(action: str, advertiser_id: Any) -> None:
        path = (f"{add_path}?advertiser={advertiser_id}" if action == "add" and add_path
                else console.path("user.payments", id=int(advertiser_id)))
        if path:
            go(path)

    return html.div(
        {"data-page": "funds-overview"},
        navigation,
        page_header(t("funds.title"), t("funds.subtitle_staff" if staff else "funds.subtitle_agency"),
                    app_link({"to": add_path, "className": "btn btn-primary", "data-action": "add-funds"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("funds.add")) if add_path else "",
                    app_link({"to": transfer_path, "className": "btn btn-primary", "data-action": "transfer-funds"},
                             html.i({"className": "bi bi-arrow-left-right me-1"}), t("funds.transfer"))
                    if transfer_path else ""),
        totals(console, listed.totals),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="agency_filter", label=t("funds.filter_agency"), value=agency,
                                  options=agency_options(console, listed),
                                  on_change=set_agency,
                                  class_name="dsp-filter")) if staff else "",
            data_grid(columns=columns(console, staff), rows=[row.model_dump() for row in listed.rows],
                      height=grid_height(len(listed.rows)), empty_text=t("funds.empty"),
                      loading_text=t("common.loading") if overview.loading else None,
                      row_count_label=t("grid.rows"), locale=console.language, search_placeholder=t("common.search"),
                      actions=actions, on_action=on_action, on_row_click=lambda key: on_action("payments", key),
                      columns_label=t("grid.columns"), storage_key="funds-overview", more_label=t("grid.more"),
                      on_view_change=pages.on_view_change, paging=pages.paging),
            title=t("funds.balances")),
    )
