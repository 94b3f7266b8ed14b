"""/agency/funds/transfer: an agency moves money from one of its advertisers' balances to another's (the service,
app/funds/transfers.py, decides what may move; this page shows both balances before and after)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy_router import use_search_params

from app.funds import service as funds
from app.funds import transfers
from app.funds.schemas import FundsRow, FundsTransferred
from app.kernel.i18n.formatters import money
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation


def _balance_card(console: Any, title: str, row: FundsRow | None, kpi: str) -> Any:
    t = console.t
    return html.div({"className": "col-sm-6"}, html.div(
        {"className": "border rounded p-3 h-100"},
        html.div({"className": "small text-body-secondary"}, title),
        html.div({"className": "fs-4 fw-semibold", "data-kpi": kpi},
                 money(row.balance_micros, micros=True, language=console.language) if row else "—"),
        html.div({"className": "small text-body-secondary text-truncate"},
                 f"{row.company or row.name} · {row.name}" if row else t("funds.choose_advertiser"))))


@component
def TransferFundsPage() -> Any:
    console = use_console()
    t = console.t
    chosen = (use_search_params().get("from") or [""])[0]
    overview = use_query(funds.funds_overview, actor=console.actor)
    values, set_values = use_state({"from_advertiser_id": chosen, "to_advertiser_id": "", "amount": "", "note": ""})
    navigation, _go = use_navigation()
    back = console.path("funds")

    def done(_result: FundsTransferred) -> None:
        set_values(lambda old: {**old, "amount": "", "note": ""})
        overview.reload()

    action = use_action(transfers.transfer_funds, success="funds.transferred", on_done=done)
    if overview.loading and overview.value is None:
        return loading_page(t, t("funds.transfer_title"))
    rows: list[FundsRow] = overview.value or []

    def field(name: str) -> Any:
        return lambda value: set_values(lambda old: {**old, name: value})

    def submit(submitted: dict[str, Any]) -> None:
        action.submit(actor=console.actor, from_advertiser_id=submitted.get("from_advertiser_id", ""),
                      to_advertiser_id=submitted.get("to_advertiser_id", ""),
                      amount=str(submitted.get("amount", "")), note=str(submitted.get("note", "")))

    def options(leave_out: str) -> list[tuple[str, str]]:
        return [("", t("funds.choose_advertiser"))] + [
            (str(row.id), f"{row.company or row.name} · {money(row.balance_micros, micros=True, language=console.language)}")
            for row in rows if str(row.id) != leave_out]

    source = next((row for row in rows if str(row.id) == values["from_advertiser_id"]), None)
    target = next((row for row in rows if str(row.id) == values["to_advertiser_id"]), None)
    return html.div(
        {"data-page": "transfer-funds"},
        navigation,
        page_header(t("funds.transfer_title"), t("funds.transfer_subtitle"),
                    app_link({"to": back, "className": "btn btn-outline-secondary btn-sm"},
                             html.i({"className": "bi bi-arrow-left me-1"}), t("funds.back")) if back else ""),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-lg-7 col-xl-6"}, card(form(
                     submit,
                     html.div({"className": "row g-0"},
                              html.div({"className": "col-12"}, select_field(
                                  name="from_advertiser_id", label=t("funds.transfer_from"),
                                  value=values["from_advertiser_id"], options=options(values["to_advertiser_id"]),
                                  on_change=field("from_advertiser_id"), error=action.errors.get("from_advertiser_id"))),
                              html.div({"className": "col-12"}, select_field(
                                  name="to_advertiser_id", label=t("funds.transfer_to"),
                                  value=values["to_advertiser_id"], options=options(values["from_advertiser_id"]),
                                  on_change=field("to_advertiser_id"), error=action.errors.get("to_advertiser_id")))),
                     text_field(name="amount", label=t("funds.amount"), value=values["amount"],
                                on_change=field("amount"), error=action.errors.get("amount"), placeholder="250.00",
                                help_text=t("funds.transfer_amount_hint")),
                     text_field(name="note", label=t("funds.note"), value=values["note"], on_change=field("note"),
                                error=action.errors.get("note"), max_length=transfers.NOTE_MAX_LENGTH,
                                placeholder=t("funds.transfer_note_placeholder")),
                     submit_button(t("funds.transfer"), pending=action.pending, class_name="btn btn-primary px-4"),
                     name="transfer-funds", values=values), title=t("funds.transfer_entry"))),
                 html.div({"className": "col-lg-5 col-xl-6"}, card(
                     html.div({"className": "row g-3"},
                              _balance_card(console, t("funds.transfer_from"), source, "from_balance"),
                              _balance_card(console, t("funds.transfer_to"), target, "to_balance")),
                     html.p({"className": "small text-body-secondary mt-3 mb-0"}, t("funds.transfer_rules")),
                     title=t("funds.current_balance")))),
    )
