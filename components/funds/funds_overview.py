"""/agency/funds and /admin/funds (+ /co-admin/funds): the balance of every advertiser in scope, with totals,
an agency filter for staff, and links to each advertiser's payment list and (staff) to adding funds."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.funds import service as funds
from app.funds.schemas import FundsRow
from components.funds.common import grid_height, kpi_card, kpi_row
from components.ui.console import Console, use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import select_field
from components.ui.hooks import use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.widgets.datagrid import GridAction, GridColumn, data_grid

ALL, DIRECT = "all", "direct"


def agency_options(console: Console, rows: list[FundsRow]) -> list[tuple[str, str]]:
    agencies = sorted({(row.agency, row.agency_id) for row in rows if row.agency_id})
    options = [(ALL, console.t("funds.all_agencies"))] + [(str(agency_id), name) for name, agency_id in agencies]
    if any(not row.agency_id for row in rows):
        options.append((DIRECT, console.t("funds.direct_advertisers")))
    return options


def in_agency(rows: list[FundsRow], choice: str) -> list[FundsRow]:
    if choice == ALL:
        return rows
    if choice == DIRECT:
        return [row for row in rows if not row.agency_id]
    return [row for row in rows if str(row.agency_id) == choice]


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


def totals(console: Console, rows: list[FundsRow]) -> Any:
    t = console.t
    empty = sum(1 for row in rows if row.balance_micros <= 0)
    return kpi_row(
        kpi_card(console, key="total_balance", label=t("funds.total_balance"),
                 micros=sum(row.balance_micros for row in rows), icon="bi-wallet2",
                 hint=t("funds.advertiser_count", count=len(rows))),
        kpi_card(console, key="total_spend", label=t("funds.total_spend"),
                 micros=sum(row.spend_micros for row in rows), icon="bi-graph-down-arrow"),
        kpi_card(console, key="total_margin", label=t("funds.total_margin"),
                 micros=sum(row.margin_micros for row in rows), icon="bi-percent"),
        kpi_card(console, key="empty_balances", label=t("funds.empty_balances"), text=str(empty),
                 icon="bi-exclamation-triangle", hint=t("funds.empty_balances_hint")),
    )


@component
def FundsOverviewPage() -> Any:
    console = use_console()
    t = console.t
    overview = use_query(funds.funds_overview, actor=console.actor)
    agency, set_agency = use_state(ALL)
    navigation, go = use_navigation()
    if overview.loading:
        return loading_page(t, t("funds.title"))
    rows: list[FundsRow] = overview.value or []
    add_path = console.path("funds.add")
    staff = add_path is not None
    shown = in_agency(rows, agency)
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
                             html.i({"className": "bi bi-plus-lg me-1"}), t("funds.add")) if add_path else ""),
        totals(console, shown),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="agency_filter", label=t("funds.filter_agency"), value=agency,
                                  options=agency_options(console, rows), on_change=set_agency,
                                  class_name="dsp-filter")) if staff else "",
            data_grid(columns=columns(console, staff), rows=[row.model_dump() for row in shown], height=grid_height(len(shown)), empty_text=t("funds.empty"),
                      row_count_label=t("grid.rows"), locale=console.language, search_placeholder=t("common.search"),
                      actions=actions, on_action=on_action, on_row_click=lambda key: on_action("payments", key),
                      columns_label=t("grid.columns"), storage_key="funds-overview", more_label=t("grid.more")),
            title=t("funds.balances")),
    )
