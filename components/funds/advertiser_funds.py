"""/funds: the advertiser's balance, what it spent this month, its deposits, its ledger, and a card top-up
when Stripe is set up."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_connection, use_effect, use_state
from reactpy_router import use_search_params

from app.funds import card_payments
from app.funds import service as funds
from app.funds.schemas import CheckoutStarted, FundsRow
from components.funds.common import kpi_card, kpi_row
from components.funds.ledger import LedgerCard
from components.ui.console import Console, use_console
from components.ui.elements import loading_page, page_header
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.hooks import use_action, use_query


def page_url(scope: dict[str, Any], path: str) -> str:
    """This console's absolute URL of `path`, as the browser reached it (Stripe needs one to send the payer
    back to). The page talks over a websocket: ws/wss stand for http/https."""
    headers = {key.decode().lower(): value.decode() for key, value in scope.get("headers", [])}
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return f"{scheme}://{headers.get('host', 'localhost')}{path}"


@component
def CardTopUp(advertiser_id: int) -> Any:
    """The "Add funds by card" button and its small form; leaves for Stripe Checkout in the same tab."""
    console = use_console()
    t = console.t
    opened, set_opened = use_state(False)
    amount, set_amount = use_state("")
    scope = use_connection().scope

    def leave_for_stripe(started: CheckoutStarted) -> None:
        console.go(f"/api/payment/stripe/checkout/{started.id}")

    action = use_action(card_payments.start_card_payment, on_done=leave_for_stripe)
    if not opened:
        return html.button({"type": "button", "className": "btn btn-primary", "data-action": "card-top-up",
                            "onClick": lambda _e: set_opened(True)},
                           html.i({"className": "bi bi-credit-card me-2"}), t("funds.add_by_card"))

    def submit(values: dict[str, Any]) -> None:
        action.submit(actor=console.actor, advertiser_id=advertiser_id, amount=str(values.get("amount", "")),
                      return_url=page_url(scope, "/funds"))

    return html.div(
        {"className": "dsp-card card shadow-sm border-0 p-3", "style": {"minWidth": "18rem"}},
        form(submit,
             text_field(name="amount", label=t("funds.card_amount"), value=amount, on_change=set_amount,
                        error=action.errors.get("amount"), placeholder="500.00", autofocus=True,
                        help_text=t("funds.card_hint")),
             alert("danger", action.message),
             html.div({"className": "d-flex gap-2"},
                      submit_button(t("funds.pay_by_card"), pending=action.pending, class_name="btn btn-primary"),
                      html.button({"type": "button", "className": "btn btn-outline-secondary",
                                   "onClick": lambda _e: set_opened(False)}, t("common.cancel"))),
             name="card-top-up", values={"amount": amount}))


def _payment_return_toast(console: Console, outcome: str) -> None:
    if outcome == "success":
        console.toast("success", console.t("funds.card_success"))
    elif outcome == "cancelled":
        console.toast("info", console.t("funds.card_cancelled"))


@component
def FundsPage() -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None
    outcome = (use_search_params().get("payment") or [""])[0]
    summary = use_query(funds.funds_summary, actor=actor, advertiser_id=actor.id)
    use_effect(lambda: _payment_return_toast(console, outcome), dependencies=[outcome])
    if summary.loading:
        return loading_page(t, t("funds.title"))
    figures: FundsRow | None = summary.value
    return html.div(
        {"data-page": "funds"},
        page_header(t("funds.title"), t("funds.subtitle_advertiser"),
                    CardTopUp(actor.id) if card_payments.enabled() else ""),
        kpi_row(
            kpi_card(console, key="balance", label=t("funds.balance"), micros=figures.balance_micros if figures else 0,
                     icon="bi-wallet2", hint=t("funds.balance_hint")),
            kpi_card(console, key="month", label=t("funds.billed_month"),
                     micros=figures.month_charged_micros if figures else 0, icon="bi-graph-down-arrow"),
            kpi_card(console, key="deposits", label=t("funds.deposits"),
                     micros=figures.deposits_micros if figures else 0, icon="bi-piggy-bank"),
            kpi_card(console, key="spent", label=t("funds.billed_total"),
                     micros=figures.spend_micros + figures.margin_micros if figures else 0, icon="bi-cart-check"),
        ),
        LedgerCard(actor.id, title=t("funds.ledger")),
    )
