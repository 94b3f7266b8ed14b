"""/admin/newdsp: adding a DSP step by step. 1 details, 2 credentials, 3 a connection test with what was entered
(its result shown; Back to fix), 4 supported exchanges, then Create. Field errors from the final save send the
user back to the step holding the field.

What each step's form held when it was submitted is kept in this page's server-side state; the API key is never
rendered back (its field is uncontrolled, and a key already entered shows as "entered" with Replace)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_ref, use_state

from app.dsps import service as dsps
from app.dsps.connectors import HTTP_JSON
from app.dsps.models import DspStatus
from app.dsps.schemas import ConnectionTest, DspCreate, DspRead, TestedDsp
from app.reference import metadata
from components.dsps.common import back_to_list, test_result
from components.dsps.dsp_form import (
    connector_options,
    exchange_picker,
    key_field,
    key_is_set,
    seat_field,
    status_options,
    submitted_exchanges,
)
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, page_header, spinner
from components.ui.forms import form, select_field, text_field
from components.ui.hooks import use_action, use_query
from components.ui.navigation import use_navigation

STEPS = ("details", "credentials", "test", "exchanges")
# Where each field is entered: an error from the final save opens its step.
STEP_OF_FIELD = {"name": 1, "connector": 1, "endpoint_url": 1, "seat_id": 2, "api_key": 2, "exchange_ids": 4,
                 "status": 4}
REQUIRED = "This field is required."


def _steps(console: Console, current: int) -> Any:
    t = console.t
    items = []
    for number, step in enumerate(STEPS, start=1):
        state = "done" if number < current else "current" if number == current else "todo"
        items.append(html.li({"className": f"dsp-step dsp-step-{state} d-flex align-items-center gap-2",
                              "key": step, "data-step": step, "data-state": state,
                              "aria-current": "step" if state == "current" else "false"},
                             html.span({"className": "dsp-step-number rounded-circle d-inline-flex align-items-center "
                                                     "justify-content-center fw-semibold " +
                                                     ("text-bg-primary" if state != "todo" else "text-bg-light border"),
                                        "style": {"width": "1.75rem", "height": "1.75rem", "flex": "none"}},
                                       html.i({"className": "bi bi-check2"}) if state == "done" else str(number)),
                             html.span({"className": "small fw-medium" + (" text-body-secondary" if state == "todo"
                                                                           else "")}, t(f"dsps.step.{step}"))))
    return html.ol({"className": "list-unstyled d-flex flex-wrap gap-4 mb-4 dsp-steps"}, *items)


def _buttons(console: Console, *, back: Any = None, next_label: str = "", pending: bool = False,
             next_disabled: bool = False) -> Any:
    t = console.t
    return html.div({"className": "d-flex justify-content-between gap-2 border-top pt-3 mt-2"},
                    html.button({"type": "button", "className": "btn btn-outline-secondary", "data-action": "back",
                                 "onClick": lambda _e: back()}, html.i({"className": "bi bi-arrow-left me-1"}),
                                t("dsps.back_step")) if back else html.span(),
                    html.button({"type": "submit", "className": "btn btn-primary px-4", "data-action": "next",
                                 "disabled": pending or next_disabled},
                                html.span({"className": "spinner-border spinner-border-sm me-2"}) if pending else "",
                                next_label or t("dsps.next_step"),
                                html.i({"className": "bi bi-arrow-right ms-1"}) if not next_label else ""))


@component
def NewDspPage() -> Any:
    console = use_console()
    t = console.t
    step, set_step = use_state(1)
    def blank() -> dict[str, Any]:
        return {"name": "", "connector": HTTP_JSON, "endpoint_url": "", "seat_id": "", "api_key": "",
                "status": DspStatus.ACTIVE.value, "exchange_ids": []}

    values, set_values = use_state(blank)
    no_errors: dict[str, str] = {}
    local_errors, set_local_errors = use_state(no_errors)
    not_tried: ConnectionTest | None = None
    tried, set_tried = use_state(not_tried)  # {ok, message} of the test of what is entered now
    replacing, set_replacing = use_state(False)
    exchanges = use_query(metadata.active_values, actor=console.actor, kind="exchange")
    navigation, go = use_navigation()

    def opened(result: TestedDsp) -> None:
        go(console.path("dsp.view", id=result.dsp.id) or "/")

    record_test = use_action(dsps.test_connection, on_done=opened)

    def created(dsp: DspRead) -> None:
        console.toast("success", t("dsps.created", name=dsp.name))
        record_test.submit(actor=console.actor, dsp_id=dsp.id)  # keeps the test's result on the new DSP

    create = use_action(dsps.create_dsp, on_done=created)
    test = use_action(dsps.try_connection, on_done=set_tried)
    errors = {**create.errors, **test.errors, **local_errors}
    no_answer: dict[str, str] | None = None
    handled = use_ref(no_answer)
    if create.errors and create.errors is not handled.current:
        handled.current = create.errors  # once per answer, so the user can step forward again after fixing
        first = min(STEP_OF_FIELD.get(field, 1) for field in create.errors)
        if first < step:
            set_step(first)  # a save-time error belongs to an earlier step: open it

    def merge(submitted: dict[str, Any], *, fields: tuple[str, ...]) -> dict[str, Any]:
        new = {**values, **{k: submitted[k] for k in fields if k in submitted}}
        set_values(new)
        return new

    def details(submitted: dict[str, Any]) -> None:
        new = merge(submitted, fields=("name", "connector", "endpoint_url"))
        problems = {k: m for k, m in (("name", REQUIRED if not str(new["name"]).strip() else None),
                                      ("endpoint_url", dsps.endpoint_problem(str(new["endpoint_url"]).strip())))
                    if m}
        set_local_errors({k: t(m) for k, m in problems.items()})  # the reader's language, as in every step
        if not problems:
            set_tried(None)
            set_step(2)

    def credentials(submitted: dict[str, Any]) -> None:
        key = str(submitted.get("api_key") or "").strip()
        seat = str(submitted.get("seat_id", values["seat_id"])).strip()
        set_values(lambda old: {**old, "seat_id": seat})
        problems = {k: m for k, m in (("seat_id", dsps.seat_problem(seat)),
                                      ("api_key", REQUIRED if not key and not values["api_key"] else None)) if m}
        if problems:
            set_local_errors({k: t(m) for k, m in problems.items()})
            return
        if key:
            set_values(lambda old: {**old, "api_key": key})
            set_tried(None)
        set_local_errors({})
        set_replacing(False)
        set_step(3)

    def run_test() -> None:
        set_tried(None)
        test.submit(actor=console.actor, endpoint_url=values["endpoint_url"], api_key=values["api_key"],
                    connector=values["connector"])

    def finish(submitted: dict[str, Any]) -> None:
        data = {**values, "status": submitted.get("status", values["status"]),
                "exchange_ids": submitted_exchanges(submitted, values["exchange_ids"])}
        set_values(data)
        create.submit(actor=console.actor, data=DspCreate(**data))

    def back(to: int) -> Any:
        return lambda: (set_local_errors({}), set_step(to))

    def set_chosen(ids: list[int]) -> None:
        set_values(lambda old: {**old, "exchange_ids": ids})

    if step == 1:
        body = form(details,
                    text_field(name="name", label=t("dsps.field.name"), value=values["name"], autofocus=True,
                               on_change=lambda v: set_values(lambda o: {**o, "name": v}), error=errors.get("name"),
                               max_length=120),
                    select_field(name="connector", label=t("dsps.field.connector"), value=values["connector"],
                                 options=connector_options(console), help_text=t("dsps.connector_help"),
                                 on_change=lambda v: set_values(lambda o: {**o, "connector": v}),
                                 error=errors.get("connector")),
                    text_field(name="endpoint_url", label=t("dsps.field.endpoint_url"), value=values["endpoint_url"],
                               on_change=lambda v: set_values(lambda o: {**o, "endpoint_url": v}),
                               error=errors.get("endpoint_url"), placeholder="https://bidder.example/api",
                               help_text=t("dsps.endpoint_help")),
                    _buttons(console), name="dsp-details")
    elif step == 2:
        body = form(credentials,
                    seat_field(console, value=values["seat_id"], error=errors.get("seat_id"),
                               on_change=lambda v: set_values(lambda o: {**o, "seat_id": v})),
                    key_is_set(console, lambda: set_replacing(True)) if values["api_key"] and not replacing
                    else key_field(console, error=errors.get("api_key"), autofocus=True),
                    _buttons(console, back=back(1)), name="dsp-credentials")
    elif step == 3:
        outcome = (html.div({"className": "alert alert-" + ("success" if tried.ok else "danger") + " small",
                             "role": "status", "data-test-outcome": "ok" if tried.ok else "failed"},
                            test_result(console, tried.ok, tried.message),
                            html.div({"className": "mt-1"}, t("dsps.test_fix_hint")) if not tried.ok else "")
                   if tried else "")
        body = form(lambda _v: set_step(4),
                    facts([(t("dsps.field.endpoint_url"), html.code(values["endpoint_url"])),
                           (t("dsps.field.connector"), t(f"dsps.connector.{values['connector']}"))]),
                    html.p({"className": "small text-body-secondary"}, t("dsps.test_explained")),
                    html.button({"type": "button", "className": "btn btn-outline-primary mb-3",
                                 "data-action": "test-connection", "disabled": test.pending,
                                 "onClick": lambda _e: run_test()},
                                html.span({"className": "spinner-border spinner-border-sm me-2"}) if test.pending
                                else html.i({"className": "bi bi-plug me-1"}), t("dsps.test_connection")),
                    outcome,
                    _buttons(console, back=back(2), next_disabled=tried is None,
                             next_label="" if not tried or tried.ok else t("dsps.continue_anyway")),
                    name="dsp-test")
    else:
        body = form(finish,
                    exchange_picker(console, exchanges.value, values["exchange_ids"], set_chosen,
                                    errors.get("exchange_ids")) if exchanges.value is not None
                    else spinner(t("common.loading")),
                    select_field(name="status", label=t("dsps.field.status"), value=values["status"],
                                 options=status_options(console), error=errors.get("status"),
                                 on_change=lambda v: set_values(lambda o: {**o, "status": v})),
                    _buttons(console, back=back(3), next_label=t("dsps.create"),
                             pending=create.pending or record_test.pending),
                    name="dsp-exchanges")
    return html.div(
        {"data-page": "dsp-new"}, navigation,
        page_header(t("dsps.new_title"), t("dsps.new_subtitle"), back_to_list(console)),
        html.div({"className": "row justify-content-center"},
                 html.div({"className": "col-xl-9"},
                          card(_steps(console, step), html.h2({"className": "h5 fw-semibold mb-1"},
                                                               t(f"dsps.step.{STEPS[step - 1]}")),
                               html.p({"className": "small text-body-secondary mb-4"},
                                      t(f"dsps.step_hint.{STEPS[step - 1]}")),
                               # Keyed by step: each step's fields are new DOM nodes, never the previous step's
                               # inputs reused (an input keeps what was typed into it).
                               html.div({"key": f"step-{step}"}, body)))),
    )
