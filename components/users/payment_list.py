"""/admin/CampaignList/payment-list/{id}, its co-admin copy and /agency/advertiser/payment-list/{id}:
an advertiser's deposits, spend and adjustments with the running balance."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.i18n.formatters import money
from app.services import ledger, users
from components.shell.context import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.hooks import use_query
from components.users.common import back_link, not_found, use_subject_id, user_page_links
from components.widgets.datagrid import data_grid


@component
def PaymentListPage() -> Any:
    console = use_console()
    t = console.t
    user_id = use_subject_id()
    user_query = use_query(users.get_user, actor=console.actor, user_id=user_id, deps=[user_id])
    history_query = use_query(ledger.payment_history, actor=console.actor, advertiser_id=user_id, deps=[user_id])
    user, history = user_query.value, history_query.value
    if user_query.loading or history_query.loading:
        return loading_page(t, t("payments.title"))
    if user is None or history is None:
        return html.div(page_header(t("payments.title")), not_found(console))
    balance = history[0]["balance"] if history else "0.00"
    columns = [{"key": "date", "label": t("payments.date"), "type": "date", "width": 180},
               {"key": "kind", "label": t("payments.kind"), "type": "badge", "width": 120},
               {"key": "note", "label": t("payments.note"), "width": 260},
               {"key": "by", "label": t("payments.by"), "width": 160},
               {"key": "amount", "label": t("payments.amount"), "type": "money", "width": 130},
               {"key": "balance", "label": t("payments.balance"), "type": "money", "width": 130}]
    rows = [{**row, "kind": {"text": t(f"ledger.{row['kind']}"),
                             "variant": "secondary" if row["amount"].startswith("-") else "success"}} for row in history]
    return html.div(
        page_header(t("payments.title"), f"{user['name']} · {user['email']}", back_link(console)),
        user_page_links(console, user, current="user.payments"),
        html.div({"className": "row g-4 mb-4"},
                 html.div({"className": "col-sm-6 col-xl-3"},
                          card(html.div({"className": "small text-body-secondary"}, t("payments.current_balance")),
                               html.div({"className": "fs-4 fw-semibold", "data-payment-balance": money(balance)},
                                        money(balance, language=console.language)))),
                 html.div({"className": "col-sm-6 col-xl-3"},
                          card(html.div({"className": "small text-body-secondary"}, t("payments.entries")),
                               html.div({"className": "fs-4 fw-semibold"}, str(len(history)))))),
        card(data_grid(columns=columns, rows=rows, height=420, empty_text=t("payments.empty"),
                       row_count_label=t("grid.rows"), locale=console.language, search_placeholder=t("common.search"))),
    )
