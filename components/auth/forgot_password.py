"""/forgot-password: e-mail a one-time code, then set a new password with it."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.db import run
from app.errors import Invalid, ServiceError
from app.services import accounts
from components.auth.common import auth_heading
from components.shell.context import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.links import app_link as link


@component
def ForgotPasswordPage() -> Any:
    console = use_console()
    t = console.t
    step, set_step = use_state("email")  # email -> code -> done
    email, set_email = use_state("")
    code, set_code = use_state("")
    new_password, set_new_password = use_state("")
    errors, set_errors = use_state({})
    notice, set_notice = use_state("")

    def attempt(fn: Any, next_step: str, **kwargs: Any) -> None:
        try:
            run(fn, **kwargs)
        except Invalid as error:
            set_errors({k: t(v) for k, v in error.fields.items()})
            return
        except ServiceError as error:
            set_errors({"code": t(error.message)})
            return
        set_errors({})
        set_step(next_step)

    if step == "done":
        return html.div(auth_heading(t("forgot.title")), alert("success", t("forgot.done")),
                        link({"to": "/login", "className": "btn btn-primary w-100"}, t("login.submit")))
    if step == "code":
        def resend(_event: Any) -> None:
            run(accounts.resend_verify_otp, email=email, purpose="reset")
            set_notice(t("register.code_resent"))

        return html.div(
            auth_heading(t("forgot.title"), t("forgot.code_sent", email=email)),
            alert("success", notice),
            form(lambda: attempt(accounts.reset_password, "done", email=email, code=code, new_password=new_password),
                 text_field(name="otp", label=t("field.code"), value=code, on_change=set_code, error=errors.get("code"),
                            autocomplete="one-time-code", autofocus=True, max_length=6),
                 text_field(name="new_password", label=t("field.new_password"), value=new_password,
                            on_change=set_new_password, error=errors.get("new_password"), kind="password",
                            autocomplete="new-password", help_text=t("field.password_help")),
                 submit_button(t("forgot.reset")), name="reset"),
            html.button({"type": "button", "className": "btn btn-link w-100 mt-2 small", "onClick": resend},
                        t("register.resend")),
        )
    return html.div(
        auth_heading(t("forgot.title"), t("forgot.subtitle")),
        form(lambda: attempt(accounts.request_password_reset, "code", email=email),
             text_field(name="email", label=t("field.email"), value=email, on_change=set_email,
                        error=errors.get("email"), kind="email", autocomplete="email", autofocus=True),
             submit_button(t("forgot.send")), name="forgot"),
        html.p({"className": "text-center small mt-4 mb-0"}, link({"to": "/login"}, t("forgot.back"))),
    )
