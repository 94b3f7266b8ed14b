"""/admin/exchange-approval (and the co-admin copy): every campaign's exchange requests, pending first by
default; a selection goes to the bulk approval page, a row to the campaign's approval history."""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.campaigns import exchange_approvals
from app.campaigns.schemas import ExchangeRequestRead
from components.campaigns.exchange_approvals.common import request_columns, request_rows
from components.ui.bulk import SelectionBar
from components.ui.console import use_console
from components.ui.cursor_pages import use_cursor_pages
from components.ui.elements import card, page_header
from components.ui.forms import selected_value
from components.ui.grid_host import selection_labels, use_row_actions
from components.ui.navigation import use_navigation
from components.widgets.datagrid import GridAction, data_grid

STATUSES = ("pending", "approved", "rejected", "")
PAGE_SIZE = 50
BULK_PAGES = (("exchange.bulk_approval", "exchanges.decide_selected", "bi-check2-square"),)


@component
def _RequestActions(host: Ref[Any], rows: list[ExchangeRequestRead]) -> Any:
    """Row actions: the campaign's approval history, or the campaign itself (both by the row's campaign)."""
    console = use_console()
    navigation, go = use_navigation()

    def act(action_id: str, approval_id: int) -> None:
        row = next((r for r in rows if r.id == approval_id), None)
        if row and (path := console.path(action_id, id=row.campaign_id)):
            go(path)

    host.current = act
    return html.div(navigation)


@component
def ExchangeApprovalPage() -> Any:
    console = use_console()
    t = console.t
    status, set_status = use_state("pending")
    search, set_search = use_state("")
    # One page of requests at a time, by the API's page function: at tens of thousands of requests only the page's
    # rows are read and sent; the search runs in SQL.
    pages = use_cursor_pages(exchange_approvals.requests_page, filters=[status, search], page_size=PAGE_SIZE,
                             actor=console.actor, status=status, search=search)
    rows = pages.items
    selection_host: Ref[Any] = use_ref(None)
    actions = use_row_actions(_RequestActions, rows)
    grid_actions: list[GridAction] = [
        {"id": "exchange.change_log", "label": t("exchanges.history"), "icon": "bi-clock-history"},
        {"id": "campaign.view", "label": t("exchanges.open_campaign"), "icon": "bi-megaphone"}]

    def selection_changed(ids: list[str]) -> None:
        if selection_host.current:
            selection_host.current(ids)

    filter_select = html.div(
        {"className": "d-flex align-items-center gap-2"},
        html.label({"className": "small text-body-secondary text-nowrap", "htmlFor": "approval-status"},
                   t("exchanges.show")),
        html.select({"id": "approval-status", "className": "form-select form-select-sm", "value": status,
                     "onChange": lambda event: set_status(selected_value(event))},
                    *[html.option({"value": s, "key": f"status-{s or 'all'}"}, t(f"exchanges.filter.{s or 'all'}"))
                      for s in STATUSES]))
    return html.div(
        {"data-page": "exchange-approvals"},
        page_header(t("exchanges.title"), t("exchanges.subtitle"), filter_select),
        actions.elements,
        card(SelectionBar(selection_host, BULK_PAGES, "exchanges.select_hint"),
             data_grid(columns=request_columns(console, sortable=False), rows=request_rows(console, rows), height=560,
                       search_placeholder=t("common.search"), empty_text=t(f"exchanges.empty.{status or 'all'}"),
                       row_count_label=t("grid.rows"), locale=console.language,
                       loading_text=t("common.loading") if pages.query.loading else None, actions=grid_actions,
                       on_action=actions.on_action, on_selection_change=selection_changed,
                       more_label=t("grid.more"), paging=pages.paging,
                       on_view_change=lambda view: set_search(view.query.strip()),
                       select_labels=selection_labels(t),
                       key=f"requests-{status or 'all'}")),
    )
