"""/register: create an advertiser account, then enter the e-mailed code to verify it."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.db import run
from app.errors import Invalid, ServiceError
from app.middleware import header
from app.services import accounts
from components.auth.common import auth_heading
from components.shell.context import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.links import app_link as link


@component
def VerifyStep(email: str) -> Any:
    console = use_console()
    t = console.t
    code, set_code = use_state("")
    errors, set_errors = use_state({})
    notice, set_notice = use_state(("info", t("register.code_sent", email=email)))
    done, set_done = use_state(False)

    def verify() -> None:
        try:
            run(accounts.verify_otp, email=email, code=code)
        except Invalid as error:
            set_errors({k: t(v) for k, v in error.fields.items()})
            return
        set_done(True)

    def resend(_event: Any) -> None:
        run(accounts.resend_verify_otp, email=email)
        set_notice(("success", t("register.code_resent")))

    if done:
        return html.div(alert("success", t("register.verified")),
                        link({"to": "/login", "className": "btn btn-primary w-100"}, t("login.submit")))
    return html.div(
        alert(*notice),
        form(verify,
             text_field(name="otp", label=t("field.code"), value=code, on_change=set_code, error=errors.get("code"),
                        autocomplete="one-time-code", autofocus=True, max_length=6),
             submit_button(t("register.verify")), name="verify"),
        html.button({"type": "button", "className": "btn btn-link w-100 mt-2 small", "onClick": resend},
                    t("register.resend")),
    )


@component
def RegisterPage() -> Any:
    console = use_console()
    t = console.t
    scope = use_scope()
    values, set_values = use_state({"email": "", "password": "", "first_name": "", "last_name": "", "company_name": ""})
    errors, set_errors = use_state({})
    message, set_message = use_state("")
    registered, set_registered = use_state("")

    def field(name: str, label_key: str, **extra: Any) -> Any:
        return text_field(name=name, label=t(label_key), value=values[name], error=errors.get(name),
                          on_change=lambda text: set_values(lambda v: {**v, name: text}), **extra)

    def submit() -> None:
        try:
            user = run(accounts.register, host=header(scope, b"host").split(":")[0], **values)
        except Invalid as error:
            set_errors({k: t(v) for k, v in error.fields.items()})
            return
        except ServiceError as error:
            set_message(t(error.message))
            return
        set_registered(user.email)

    if registered:
        return html.div(auth_heading(t("register.verify_title")), VerifyStep(registered))
    return html.div(
        auth_heading(t("register.title"), t("register.subtitle")),
        alert("danger", message),
        form(submit,
             html.div({"className": "row g-2"},
                      html.div({"className": "col-sm-6"}, field("first_name", "field.first_name", max_length=25)),
                      html.div({"className": "col-sm-6"}, field("last_name", "field.last_name", max_length=25))),
             field("company_name", "field.company"),
             field("email", "field.email", kind="email", autocomplete="email"),
             field("password", "field.password", kind="password", autocomplete="new-password",
                   help_text=t("field.password_help")),
             submit_button(t("register.submit")), name="register"),
        html.p({"className": "text-center small mt-4 mb-0"}, t("register.have_account"), " ",
               link({"to": "/login"}, t("login.submit"))),
    )
