"""/login's second step, after a right password: the code from the authenticator app (or a recovery code), or, when
the user's role must use two-factor sign-in and has none yet, setting one up first (app/accounts/second_factor.py)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.accounts import second_factor
from app.accounts import service as accounts
from app.web.middleware import header
from components.accounts.auth.common import auth_heading, client_address
from components.accounts.second_factor_parts import code_field, enrolment_panel, recovery_codes_panel
from components.ui.console import use_console
from components.ui.elements import spinner
from components.ui.forms import alert, form, submit_button
from components.ui.hooks import use_action, use_query


def _back(t: Any, on_back: Any) -> Any:
    return html.p({"className": "text-center small mt-4 mb-0"},
                  html.button({"type": "button", "className": "btn btn-link btn-sm", "onClick": lambda _e: on_back()},
                              html.i({"className": "bi bi-arrow-left me-1"}), t("twofactor.back")))


@component
def SecondFactorStep(step: str, challenge: str, on_back: Any) -> Any:
    console = use_console()
    t = console.t
    scope = use_scope()
    code, set_code = use_state("")
    codes, set_codes = use_state(list[str]())  # a forced set-up's recovery codes, shown before the console opens
    ticket, set_ticket = use_state("")

    def signed_in(done: accounts.FinishedLogin) -> None:
        if done.recovery_codes:
            set_ticket(done.new_session.secret)
            set_codes(done.recovery_codes)
        else:
            console.begin_session(done.new_session.secret, "/")

    finish = use_action(accounts.finish_login, errors_in_place=True, on_done=signed_in)

    def submit(values: dict[str, Any]) -> None:
        finish.submit(challenge=challenge, code=values["code"], kind="browser", address=client_address(scope),
                      user_agent=header(scope, b"user-agent"))

    code_form = form(submit,
                     code_field(t, code, set_code, finish.errors.get("code"), recovery=step == "code"),
                     submit_button(t("twofactor.verify" if step == "code" else "twofactor.confirm"),
                                   pending=finish.pending),
                     name="second-factor", values={"code": code})
    if codes:
        return html.div(auth_heading(t("twofactor.recovery_title"), t("twofactor.enrolled")),
                        recovery_codes_panel(t, codes, html.button(
                            {"type": "button", "className": "btn btn-primary flex-grow-1",
                             "onClick": lambda _e: console.begin_session(ticket, "/")}, t("twofactor.continue"))))
    if step == "enrol":
        return html.div(auth_heading(t("twofactor.required_title"), t("twofactor.required_subtitle")),
                        alert("danger", finish.message),
                        RequiredEnrolment(challenge, code_form),
                        _back(t, on_back))
    return html.div(
        html.div({"className": "text-center mb-3"},
                 html.span({"className": "dsp-auth-icon"}, html.i({"className": "bi bi-lock"}))),
        auth_heading(t("twofactor.prompt_title"), t("twofactor.prompt_subtitle")),
        alert("danger", finish.message),
        code_form,
        html.p({"className": "small text-body-secondary mt-3 mb-0"}, t("twofactor.lost_phone")),
        _back(t, on_back),
    )


@component
def RequiredEnrolment(challenge: str, code_form: Any) -> Any:
    console = use_console()
    scope = use_scope()
    enrolment = use_query(second_factor.begin_enrolment_at_sign_in, challenge=challenge,
                          host=header(scope, b"host"))
    if enrolment.value is None:
        return spinner()
    return enrolment_panel(console.t, enrolment.value, code_form, stacked=True)
