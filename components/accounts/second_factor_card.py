"""The profile's "Two-factor sign-in" card: set up an authenticator app (takes effect once a code confirms it),
see the recovery codes once, how many are left and make new ones, turn it off with a code
(app/accounts/second_factor.py)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.accounts import second_factor
from app.web.middleware import header
from components.accounts.recovery_codes_renewal import RenewRecoveryCodes
from components.accounts.second_factor_parts import code_field, enrolment_panel, recovery_codes_panel
from components.ui.console import use_console
from components.ui.elements import card, spinner
from components.ui.forms import form, submit_button
from components.ui.hooks import use_action, use_query

LOW_CODES = 2  # so few codes left that the count shows in red: time to make new ones


@component
def SecondFactorCard() -> Any:
    console = use_console()
    t = console.t
    host = header(use_scope(), b"host")  # the brand the app names the account by
    status = use_query(second_factor.status, actor=console.actor)
    enrolment, set_enrolment = use_state(None)  # second_factor.Enrolment while setting up
    codes, set_codes = use_state(list[str]())  # the recovery codes, right after turning it on
    code, set_code = use_state("")
    begin = use_action(second_factor.begin_enrolment, on_done=set_enrolment)

    def confirmed(new_codes: list[str]) -> None:
        set_enrolment(None)
        set_code("")
        show_codes(new_codes)

    def show_codes(new_codes: list[str]) -> None:
        set_codes(new_codes)
        status.reload()

    confirm = use_action(second_factor.confirm_enrolment, success="twofactor.turned_on", on_done=confirmed)

    def turned_off(_result: Any) -> None:
        set_code("")
        status.reload()

    turn_off = use_action(second_factor.turn_off, success="twofactor.turned_off", on_done=turned_off)
    found: second_factor.Status | None = status.value
    on = bool(found and found.enabled)
    badge = html.span({"className": "badge dsp-2fa-badge " + ("text-bg-success" if on else "text-bg-secondary")},
                      t("twofactor.on" if on else "twofactor.off"))
    title = t("twofactor.title")
    if found is None:
        return card(spinner(), title=title)
    if codes:
        body = recovery_codes_panel(t, codes, html.button({"type": "button", "className": "btn btn-primary",
                                                           "onClick": lambda _e: set_codes([])}, t("twofactor.saved_codes")))
    elif enrolment is not None:
        body = enrolment_panel(
            t, enrolment,
            form(lambda values: confirm.submit(actor=console.actor, code=values["code"]),
                 code_field(t, code, set_code, confirm.errors.get("code")),
                 html.div({"className": "d-flex gap-2"},
                          submit_button(t("twofactor.confirm"), pending=confirm.pending, class_name="btn btn-primary"),
                          html.button({"type": "button", "className": "btn btn-link text-body-secondary",
                                       "onClick": lambda _e: set_enrolment(None)}, t("common.cancel"))),
                 name="second-factor-confirm", values={"code": code}))
    elif on:
        body = html.div(
            html.p({"className": "small mb-2"}, t("twofactor.on_help")),
            html.div({"className": "mb-3", "data-recovery-codes-left": found.recovery_codes_left},
                     html.span({"className": "small " + ("text-danger" if found.recovery_codes_left <= LOW_CODES
                                                         else "text-body-secondary")},
                               t("twofactor.codes_left", count=found.recovery_codes_left)),
                     html.div(RenewRecoveryCodes(show_codes))),
            html.p({"className": "small text-body-secondary mb-0"}, t("twofactor.required_help")) if found.required else
            form(lambda values: turn_off.submit(actor=console.actor, code=values["code"]),
                 code_field(t, code, set_code, turn_off.errors.get("code"), recovery=True),
                 submit_button(t("twofactor.turn_off"), pending=turn_off.pending, class_name="btn btn-outline-danger"),
                 name="second-factor-off", values={"code": code}))
    else:
        body = html.div(
            html.div({"className": "d-flex gap-3 align-items-start mb-3"},
                     html.i({"className": "bi bi-lock fs-3 text-primary"}),
                     html.p({"className": "small mb-0"}, t("twofactor.off_help"))),
            html.p({"className": "small text-danger"}, t("twofactor.required_help")) if found.required else "",
            html.button({"type": "button", "className": "btn btn-primary", "disabled": begin.pending,
                         "onClick": lambda _e: begin.submit(actor=console.actor, host=host)},
                        html.i({"className": "bi bi-phone me-1"}), t("twofactor.set_up")))
    return card(body, title=title, extra=badge)
