"""/admin/exchange-approval/change-log/{id}: one campaign's exchange requests and decisions over time."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns import exchange_approvals
from components.campaigns.exchange_approvals.common import APPROVALS
from components.ui.change_log import change_log_table, filters, use_filtered_log
from components.ui.console import use_console
from components.ui.elements import loading_page, page_header
from components.ui.routes import use_subject_id


@component
def ExchangeApprovalChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    campaign_id = use_subject_id()
    query, values, set_values = use_filtered_log(exchange_approvals.approval_history, actor=console.actor,
                                                 campaign_id=campaign_id)
    if query.value is None:
        return loading_page(t, t("exchanges.history_title")) if query.loading or not query.failed else \
            html.div(page_header(t("exchanges.history_title")), APPROVALS.not_found(console))
    log = query.value
    return html.div(
        {"data-page": "exchange-approval-change-log"},
        page_header(t("exchanges.history_title"), log["campaign"]["name"], APPROVALS.back_to_list(console)),
        filters(console, log["people"], values, set_values),
        change_log_table(console, log["entries"], entity="exchange_approval", subject_label=t("exchanges.col.exchange"),
                         subject_key="exchange"),
    )
