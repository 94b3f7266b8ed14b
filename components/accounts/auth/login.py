"""/login: e-mail and password, then the second factor's code when the account has one; success swaps a one-time
ticket for the session cookie."""

from __future__ import annotations

from typing import Any, cast

from reactpy import component, html, use_scope, use_state

from app.accounts import service as accounts
from app.web.middleware import header
from components.accounts.auth.common import auth_heading, client_address
from components.accounts.auth.second_factor_login import SecondFactorStep
from components.ui.console import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.hooks import use_action
from components.ui.links import app_link as link


@component
def LoginPage() -> Any:
    console = use_console()
    t = console.t
    scope = use_scope()
    email, set_email = use_state("")
    password, set_password = use_state("")
    second, set_second = use_state(cast(accounts.SecondStep | None, None))  # once the password was accepted

    def done(result: accounts.LoginResult | accounts.SecondStep) -> None:
        if isinstance(result, accounts.SecondStep):
            set_second(result)
        else:
            console.begin_session(result.new_session.secret, "/")

    sign_in = use_action(accounts.begin_login, errors_in_place=True, on_done=done)

    def submit(values: dict[str, Any]) -> None:
        sign_in.submit(email=values["email"], password=values["password"], kind="browser",
                       address=client_address(scope), user_agent=header(scope, b"user-agent"))

    if second is not None:
        return SecondFactorStep(second.step, second.challenge, lambda: set_second(None), key=second.challenge)
    errors = sign_in.errors
    return html.div(
        auth_heading(t("login.title"), t("login.subtitle")),
        alert("danger", sign_in.message),
        form(submit,
             text_field(name="email", label=t("field.email"), value=email, on_change=set_email, error=errors.get("email"),
                        kind="email", autocomplete="username", autofocus=True),
             text_field(name="password", label=t("field.password"), value=password, on_change=set_password,
                        error=errors.get("password"), kind="password", autocomplete="current-password"),
             html.div({"className": "d-flex justify-content-end mb-3"},
                      link({"to": "/forgot-password", "className": "small"}, t("login.forgot"))),
             submit_button(t("login.submit"), pending=sign_in.pending), name="login", values={"email": email, "password": password}),
        html.p({"className": "text-center small mt-4 mb-0"}, t("login.no_account"), " ",
               link({"to": "/register"}, t("login.register"))),
    )
