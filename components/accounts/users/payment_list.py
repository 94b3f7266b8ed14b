"""/admin/CampaignList/payment-list/{id}, its co-admin copy and /agency/advertiser/payment-list/{id}:
an advertiser's deposits, adjustments and delivery charges (a day a row) with the running balance."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.accounts import users
from app.accounts.schemas import UserRead
from app.funds import ledger
from app.kernel.i18n.formatters import money
from app.kernel.money import dollars
from components.accounts.users.common import back_link, not_found, user_page_links
from components.funds.ledger import LedgerCard
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.hooks import use_query
from components.ui.routes import use_subject_id


@component
def PaymentListPage() -> Any:
    console = use_console()
    t = console.t
    user_id = use_subject_id()
    user_query = use_query(users.get_user, actor=console.actor, user_id=user_id, deps=[user_id])
    figures = use_query(ledger.statement_figures, actor=console.actor, advertiser_id=user_id, deps=[user_id])
    user: UserRead | None = user_query.value
    if user_query.loading or figures.loading:
        return loading_page(t, t("payments.title"))
    if user is None or figures.value is None:
        return html.div(page_header(t("payments.title")), not_found(console))
    balance_micros, entries = figures.value
    balance = dollars(balance_micros)
    return html.div(
        page_header(t("payments.title"), f"{user.name} · {user.email}", back_link(console)),
        user_page_links(console, user.id, user.role, current="user.payments"),
        html.div({"className": "row g-4 mb-4"},
                 html.div({"className": "col-sm-6 col-xl-3"},
                          card(html.div({"className": "small text-body-secondary"}, t("payments.current_balance")),
                               html.div({"className": "fs-4 fw-semibold", "data-payment-balance": money(balance)},
                                        money(balance, language=console.language)))),
                 html.div({"className": "col-sm-6 col-xl-3"},
                          card(html.div({"className": "small text-body-secondary"}, t("payments.entries")),
                               html.div({"className": "fs-4 fw-semibold", "data-payment-entries": entries},
                                        str(entries))))),
        LedgerCard(user_id, show_by=True),
    )
