"""/admin/addfund (+ /co-admin/addfund): staff add a deposit, a refund or an adjustment to an advertiser's
balance; the advertiser can be chosen beforehand with ?advertiser=<id> (the funds list links here so)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy_router import use_search_params

from app.funds import service as funds
from app.funds.schemas import FundsRow
from app.kernel.i18n.formatters import money
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation


@component
def AddFundsPage() -> Any:
    console = use_console()
    t = console.t
    chosen = (use_search_params().get("advertiser") or [""])[0]
    overview = use_query(funds.funds_overview, actor=console.actor)
    values, set_values = use_state({"advertiser_id": chosen, "kind": "deposit", "amount": "", "note": ""})
    navigation, go = use_navigation()
    back = console.path("funds")
    action = use_action(funds.add_funds, success="funds.added", on_done=lambda _r: go(back) if back else None)
    if overview.loading:
        return loading_page(t, t("funds.add_title"))
    rows: list[FundsRow] = overview.value or []

    def field(name: str) -> Any:
        return lambda value: set_values(lambda old: {**old, name: value})

    def submit(submitted: dict[str, Any]) -> None:
        action.submit(actor=console.actor, advertiser_id=submitted.get("advertiser_id", ""),
                      amount=str(submitted.get("amount", "")), kind=str(submitted.get("kind", "")),
                      note=str(submitted.get("note", "")))

    advertisers = [("", t("funds.choose_advertiser"))] + [
        (str(row.id), f"{row.name} · {row.company or row.email}" + (f" ({row.agency})" if row.agency else ""))
        for row in rows]
    current = next((row for row in rows if str(row.id) == values["advertiser_id"]), None)
    kinds = [(kind, t(f"ledger.{kind}")) for kind in funds.STAFF_KINDS]
    return html.div(
        {"data-page": "add-funds"},
        navigation,
        page_header(t("funds.add_title"), t("funds.add_subtitle"),
                    app_link({"to": back, "className": "btn btn-outline-secondary btn-sm"},
                             html.i({"className": "bi bi-arrow-left me-1"}), t("funds.back")) if back else ""),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-lg-7 col-xl-6"}, card(form(
                     submit,
                     select_field(name="advertiser_id", label=t("funds.advertiser"), value=values["advertiser_id"],
                                  options=advertisers, on_change=field("advertiser_id"),
                                  error=action.errors.get("advertiser_id")),
                     html.div({"className": "row g-3"},
                              html.div({"className": "col-sm-6"},
                                       select_field(name="kind", label=t("funds.kind"), value=values["kind"],
                                                    options=kinds, on_change=field("kind"),
                                                    error=action.errors.get("kind"),
                                                    help_text=t(f"funds.kind_hint.{values['kind']}"))),
                              html.div({"className": "col-sm-6"},
                                       text_field(name="amount", label=t("funds.amount"), value=values["amount"],
                                                  on_change=field("amount"), error=action.errors.get("amount"),
                                                  placeholder="250.00", help_text=t("funds.amount_hint")))),
                     text_field(name="note", label=t("funds.note"), value=values["note"], on_change=field("note"),
                                error=action.errors.get("note"), max_length=funds.NOTE_MAX_LENGTH,
                                placeholder=t("funds.note_placeholder")),
                     submit_button(t("funds.add"), pending=action.pending, class_name="btn btn-primary px-4"),
                     name="add-funds", values=values), title=t("funds.entry"))),
                 html.div({"className": "col-lg-5 col-xl-4"}, card(
                     html.div({"className": "small text-body-secondary"}, t("funds.current_balance")),
                     html.div({"className": "fs-3 fw-semibold", "data-kpi": "selected_balance"},
                              money(current.balance_micros, micros=True, language=console.language)
                              if current else "—"),
                     html.div({"className": "small text-body-secondary mt-2"},
                              f"{current.name} · {current.email}" if current else t("funds.choose_advertiser")),
                     title=t("funds.advertiser")))),
    )
