"""/admin/assignAdvertiser and the co-admin copy: move advertisers between agencies (their campaigns,
funds and lists go with them; every move is in both agencies' and the advertiser's change log)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy_router import use_search_params

from app.access.roles import Role
from app.accounts import directory, users
from app.accounts.schemas import AccountRow, AgencyChoice
from app.kernel.i18n.formatters import money
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.elements import card, page_header, spinner
from components.ui.forms import select_field
from components.ui.hooks import use_action, use_query
from components.ui.links import back_link

ALL, DIRECT = "", "direct"  # filter values besides agency ids


def _from_query(params: dict[str, list[str]]) -> str:
    value = (params.get("from") or [ALL])[0]
    return value if value.isdigit() or value == DIRECT else ALL


@component
def AssignAdvertiserPage() -> Any:
    console = use_console()
    t = console.t
    source, set_source = use_state(_from_query(use_search_params()))
    target, set_target = use_state(DIRECT)
    selected, set_selected = use_state(frozenset[int]())
    confirming, set_confirming = use_state(False)
    advertisers_query = use_query(directory.accounts_overview, actor=console.actor, role=Role.ADVERTISER.value)
    advertisers: list[AccountRow] | None = advertisers_query.value
    reload = advertisers_query.reload
    agencies: list[AgencyChoice] | None = use_query(users.agency_choices, actor=console.actor).value
    agency_names = {str(a.id): a.name for a in agencies or []}

    def moved(count: int) -> None:
        console.toast("success", t("assign.moved", count=count, agency=agency_names.get(target, t("assign.direct"))))
        set_selected(frozenset())
        reload()

    assign = use_action(users.assign_advertisers, on_done=moved)
    shown = [a for a in advertisers or []
             if source == ALL or (source == DIRECT and not a.agency_id) or str(a.agency_id) == source]

    def toggle(user_id: int, checked: bool) -> None:
        set_selected(lambda s: s | {user_id} if checked else s - {user_id})

    def toggle_all(checked: bool) -> None:
        ids = {a.id for a in shown}
        set_selected(lambda s: s | ids if checked else s - ids)

    def confirm() -> None:
        set_confirming(False)
        assign.submit(actor=console.actor, advertiser_ids=sorted(selected),
                      agency_id=int(target) if target != DIRECT else None)

    agency_options = [(str(a.id), a.name) for a in agencies or []]
    all_checked = bool(shown) and all(a.id in selected for a in shown)
    table = html.table(
        {"className": "table table-hover align-middle mb-0", "data-table": "advertisers"},
        html.thead(html.tr(
            html.th({"style": {"width": "2.5rem"}},
                    html.input({"type": "checkbox", "className": "form-check-input", "aria-label": t("assign.select_all"),
                                "checked": all_checked, "onChange": lambda e: toggle_all(bool(e["target"]["checked"]))})),
            html.th(t("dashboard.col.name")), html.th(t("dashboard.col.company")), html.th(t("assign.current_agency")),
            html.th({"className": "text-end"}, t("dashboard.col.balance")))),
        html.tbody(*[html.tr(
            {"key": str(a.id), "data-advertiser": a.email},
            html.td(html.input({"type": "checkbox", "className": "form-check-input", "id": f"adv-{a.id}",
                                "checked": a.id in selected, "aria-label": a.name,
                                "onChange": lambda e, i=a.id: toggle(i, bool(e["target"]["checked"]))})),
            html.td(html.label({"htmlFor": f"adv-{a.id}", "className": "fw-medium"}, a.name),
                    html.div({"className": "small text-body-secondary"}, a.email)),
            html.td(a.company), html.td(a.agency or html.span({"className": "text-body-secondary"},
                                                             t("assign.direct"))),
            html.td({"className": "text-end"}, money(a.balance or 0, language=console.language))) for a in shown]),
    ) if shown else spinner(t("common.loading")) if advertisers_query.loading \
        else html.p({"className": "text-body-secondary text-center py-4 mb-0"}, t("assign.none"))
    source_options = [(ALL, t("assign.all_agencies")), (DIRECT, t("assign.direct"))] + agency_options
    return html.div(
        page_header(t("assign.title"), t("assign.subtitle"), back_link(console, "agencies", "agencies.back")),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(select_field(name="from", label=t("assign.current_agency"), value=source,
                                            options=source_options, on_change=set_source, class_name="mb-3 dsp-filter"),
                               html.div({"className": "table-responsive dsp-scroll-table"}, table),
                               title=t("assign.advertisers"))),
                 html.div({"className": "col-xl-4"},
                          card(select_field(name="agency_id", label=t("assign.move_to"), value=target,
                                            options=[(DIRECT, t("assign.direct"))] + agency_options,
                                            on_change=set_target, error=assign.errors.get("agency_id")),
                               html.p({"className": "small text-body-secondary", "data-selected-count": len(selected)},
                                      t("assign.selected", count=len(selected))),
                               html.div({"className": "invalid-feedback d-block mb-2"},
                                        assign.errors["advertiser_ids"]) if assign.errors.get("advertiser_ids") else "",
                               html.button({"type": "button", "className": "btn btn-primary w-100",
                                            "disabled": not selected or assign.pending, "data-action": "move",
                                            "onClick": lambda _e: set_confirming(True)},
                                           html.i({"className": "bi bi-arrow-left-right me-1"}), t("assign.move")),
                               html.p({"className": "small text-body-secondary mt-3 mb-0"}, t("assign.explain")),
                               title=t("assign.move_to")))),
        ConfirmDialog(t("assign.confirm_title"),
                      t("assign.confirm", count=len(selected), agency=agency_names.get(target, t("assign.direct"))),
                      t("assign.move"), t("common.cancel"), confirm, lambda: set_confirming(False), danger=False)
        if confirming else "",
    )
