"""/forgot-password: e-mail a one-time code, then set a new password with it."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.accounts import service as accounts
from components.accounts.auth.common import auth_heading, client_address
from components.ui.console import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.hooks import use_action
from components.ui.links import app_link as link


@component
def ForgotPasswordPage() -> Any:
    console = use_console()
    t = console.t
    address = client_address(use_scope())  # code requests are throttled per e-mail and per network
    step, set_step = use_state("email")  # email -> code -> done
    email, set_email = use_state("")
    code, set_code = use_state("")
    new_password, set_new_password = use_state("")
    notice, set_notice = use_state("")
    request = use_action(accounts.request_password_reset, errors_in_place=True, on_done=lambda _r: set_step("code"))
    reset = use_action(accounts.reset_password, errors_in_place=True, on_done=lambda _r: set_step("done"))
    resend = use_action(accounts.resend_verify_otp, errors_in_place=True,
                        on_done=lambda _r: set_notice(t("register.code_resent")))

    if step == "done":
        return html.div(auth_heading(t("forgot.title")), alert("success", t("forgot.done")),
                        link({"to": "/login", "className": "btn btn-primary w-100"}, t("login.submit")))
    if step == "code":
        return html.div(
            auth_heading(t("forgot.title"), t("forgot.code_sent", email=email)),
            alert("danger", reset.message or resend.message) if reset.message or resend.message
            else alert("success", notice),
            form(lambda values: reset.submit(email=email, code=values["otp"], new_password=values["new_password"]),
                 text_field(name="otp", label=t("field.code"), value=code, on_change=set_code,
                            error=reset.errors.get("code"), autocomplete="one-time-code", autofocus=True, max_length=6),
                 text_field(name="new_password", label=t("field.new_password"), value=new_password,
                            on_change=set_new_password, error=reset.errors.get("new_password"), kind="password",
                            autocomplete="new-password", help_text=t("field.password_help")),
                 submit_button(t("forgot.reset"), pending=reset.pending), name="reset"),
            html.button({"type": "button", "className": "btn btn-link w-100 mt-2 small", "disabled": resend.pending,
                         "onClick": lambda _e: resend.submit(email=email, purpose="reset", address=address)},
                        t("register.resend")),
        )

    def request_code(values: dict[str, Any]) -> None:
        set_email(values["email"])
        request.submit(email=values["email"], address=address)

    return html.div(
        auth_heading(t("forgot.title"), t("forgot.subtitle")),
        alert("danger", request.message),
        form(request_code,
             text_field(name="email", label=t("field.email"), value=email, on_change=set_email,
                        error=request.errors.get("email"), kind="email", autocomplete="email", autofocus=True),
             submit_button(t("forgot.send"), pending=request.pending), name="forgot"),
        html.p({"className": "text-center small mt-4 mb-0"}, link({"to": "/login"}, t("forgot.back"))),
    )
