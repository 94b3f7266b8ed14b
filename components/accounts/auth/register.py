"""/register: create an advertiser account, then enter the e-mailed code to verify it."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.accounts import service as accounts
from app.web.middleware import header
from components.accounts.auth.common import auth_heading, client_address
from components.ui.console import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.hooks import use_action
from components.ui.links import app_link as link


@component
def VerifyStep(email: str) -> Any:
    console = use_console()
    t = console.t
    code, set_code = use_state("")
    notice, set_notice = use_state(("info", t("register.code_sent", email=email)))
    done, set_done = use_state(False)
    verify = use_action(accounts.verify_otp, errors_in_place=True, on_done=lambda _r: set_done(True))
    address = client_address(use_scope())  # code requests are throttled per e-mail and per network
    resend = use_action(accounts.resend_verify_otp, errors_in_place=True,
                        on_done=lambda _r: set_notice(("success", t("register.code_resent"))))

    if done:
        return html.div(alert("success", t("register.verified")),
                        link({"to": "/login", "className": "btn btn-primary w-100"}, t("login.submit")))
    return html.div(
        alert("danger", verify.message or resend.message) if verify.message or resend.message else alert(*notice),
        form(lambda values: verify.submit(email=email, code=values["otp"]),
             text_field(name="otp", label=t("field.code"), value=code, on_change=set_code,
                        error=verify.errors.get("code"), autocomplete="one-time-code", autofocus=True, max_length=6),
             submit_button(t("register.verify"), pending=verify.pending), name="verify"),
        html.button({"type": "button", "className": "btn btn-link w-100 mt-2 small", "disabled": resend.pending,
                     "onClick": lambda _e: resend.submit(email=email, address=address)},
                    t("register.resend")),
    )


FIELDS = ("email", "password", "first_name", "last_name", "company_name")


@component
def RegisterPage() -> Any:
    console = use_console()
    t = console.t
    scope = use_scope()
    values, set_values = use_state(dict.fromkeys(FIELDS, ""))
    registered, set_registered = use_state("")
    register = use_action(accounts.register, errors_in_place=True, on_done=lambda done: set_registered(done.email))

    def field(name: str, label_key: str, **extra: Any) -> Any:
        return text_field(name=name, label=t(label_key), value=values[name], error=register.errors.get(name),
                          on_change=lambda text: set_values(lambda v: {**v, name: text}), **extra)

    def submit(submitted: dict[str, Any]) -> None:
        register.submit(host=header(scope, b"host").split(":")[0], address=client_address(scope),
                        **{name: submitted[name] for name in FIELDS})

    if registered:
        return html.div(auth_heading(t("register.verify_title")), VerifyStep(registered))
    return html.div(
        auth_heading(t("register.title"), t("register.subtitle")),
        alert("danger", register.message),
        form(submit,
             html.div({"className": "row g-2"},
                      html.div({"className": "col-sm-6"}, field("first_name", "field.first_name", max_length=25)),
                      html.div({"className": "col-sm-6"}, field("last_name", "field.last_name", max_length=25))),
             field("company_name", "field.company"),
             field("email", "field.email", kind="email", autocomplete="email"),
             field("password", "field.password", kind="password", autocomplete="new-password",
                   help_text=t("field.password_help")),
             submit_button(t("register.submit"), pending=register.pending), name="register", values=values),
        html.p({"className": "text-center small mt-4 mb-0"}, t("register.have_account"), " ",
               link({"to": "/login"}, t("login.submit"))),
    )
