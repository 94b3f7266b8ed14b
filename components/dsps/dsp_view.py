"""/admin/viewdsp/{id}: one DSP's connection, its supported exchanges, its last connection test (and a button to
run one) and how many campaigns and creatives it holds ids for. Its credentials show only as set."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.dsps import service as dsps
from app.dsps.schemas import DspRead, TestedDsp
from components.dsps.common import DSPS, back_to_list, not_found, status_badge, test_result, utc_minute
from components.ui.console import use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.hooks import use_action, use_query
from components.ui.routes import use_subject_id


@component
def DspViewPage() -> Any:
    console = use_console()
    t = console.t
    dsp_id = use_subject_id()
    query = use_query(dsps.get_dsp, actor=console.actor, dsp_id=dsp_id, deps=[dsp_id])

    def tested(result: TestedDsp) -> None:
        console.toast("success" if result.ok else "error",
                      t("dsps.test_ok") if result.ok else f"{t('dsps.test_failed')}: {result.message}")
        query.reload()

    test = use_action(dsps.test_connection, on_done=tested)
    move = use_action(dsps.set_status, success=lambda d: t(f"dsps.now_{d.status}", name=d.name),
                      on_done=lambda _d: query.reload())
    if query.loading:
        return loading_page(t, t("dsps.view_title"))
    dsp: DspRead | None = query.value
    if dsp is None:
        return html.div({"data-page": "dsp-view"}, page_header(t("dsps.view_title")), not_found(console))
    wanted = "inactive" if dsp.status == "active" else "active"
    toggle = html.button({"type": "button", "className": "btn btn-sm btn-outline-primary", "data-move": wanted,
                          "disabled": move.pending,
                          "onClick": lambda _e: move.submit(actor=console.actor, dsp_id=dsp_id, status=wanted)},
                         html.i({"className": "bi bi-toggle-on me-1" if wanted == "active" else "bi bi-toggle-off me-1"}),
                         t("dsps.activate" if wanted == "active" else "dsps.deactivate"))
    test_button = html.button(
        {"type": "button", "className": "btn btn-sm btn-outline-primary", "data-action": "test-connection",
         "disabled": test.pending, "onClick": lambda _e: test.submit(actor=console.actor, dsp_id=dsp_id)},
        html.span({"className": "spinner-border spinner-border-sm me-2", "aria-hidden": "true"}) if test.pending
        else html.i({"className": "bi bi-plug me-1"}), t("dsps.test_connection"))
    exchanges = [html.span({"className": "badge rounded-pill text-bg-light border me-1 mb-1", "key": name}, name)
                 for name in dsp.exchanges]
    return html.div(
        {"data-page": "dsp-view"},
        page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"},
                              dsp.name, status_badge(console, dsp.status)),
                    t("dsps.connector." + dsp.connector) + f" · #{dsp.id}", toggle, back_to_list(console)),
        DSPS.record_tabs(console, dsp_id, current="dsp.view"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-7"},
                          card(facts([
                              (t("dsps.field.endpoint_url"), html.code({"className": "text-break"}, dsp.endpoint_url)),
                              (t("dsps.field.connector"), t(f"dsps.connector.{dsp.connector}")),
                              (t("dsps.field.seat_id"), html.code(dsp.seat_id) if dsp.seat_id else
                               html.span({"className": "text-body-secondary"}, t("dsps.no_seat"))),
                              (t("dsps.field.api_key"),
                               html.span({"className": "badge text-bg-success", "data-credentials": "set"},
                                         html.i({"className": "bi bi-lock me-1"}), t("dsps.key_set"))
                               if dsp.credentials_set else html.span({"className": "text-danger"}, t("dsps.key_missing"))),
                              (t("dsps.col.synced"), str(dsp.synced)),
                              (t("dsps.col.updated_at"), utc_minute(dsp.updated_at)),
                              (t("dsps.created_at"), utc_minute(dsp.created_at)),
                          ]), title=t("dsps.section_connection"))),
                 html.div({"className": "col-xl-5"},
                          card(html.p({"className": "small mb-3", "data-last-test": ""},
                                      test_result(console, dsp.last_test_ok, dsp.last_test_message,
                                                  when=dsp.last_test_at)),
                               html.p({"className": "small text-body-secondary"}, t("dsps.test_explained")),
                               test_button, title=t("dsps.section_test")),
                          html.div({"className": "mt-4"},
                                   card(html.div({"data-exchanges": str(len(exchanges))}, *exchanges)
                                        if exchanges else html.p({"className": "small text-body-secondary mb-0"},
                                                                 t("dsps.no_exchanges")),
                                        title=t("dsps.field.exchanges"))))),
    )
