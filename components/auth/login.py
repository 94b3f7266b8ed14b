"""/login: e-mail and password; success swaps a one-time ticket for the session cookie."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.db import run
from app.errors import Invalid, ServiceError
from app.middleware import header
from app.services import accounts
from components.auth.common import auth_heading, client_address
from components.shell.context import use_console
from components.ui.forms import alert, form, submit_button, text_field
from components.ui.links import app_link as link


@component
def LoginPage() -> Any:
    console = use_console()
    t = console.t
    scope = use_scope()
    email, set_email = use_state("")
    password, set_password = use_state("")
    errors, set_errors = use_state({})
    message, set_message = use_state("")
    pending, set_pending = use_state(False)

    def submit() -> None:
        set_pending(True)
        try:
            result = run(accounts.login, email=email, password=password, kind="browser",
                         address=client_address(scope), user_agent=header(scope, b"user-agent"))
        except Invalid as error:
            set_errors({k: t(v) for k, v in error.fields.items()})
            set_message("")
            set_pending(False)
            return
        except ServiceError as error:
            set_errors({})
            set_message(t(error.message))
            set_pending(False)
            return
        console.begin_session(result.new_session.secret, "/")

    return html.div(
        auth_heading(t("login.title"), t("login.subtitle")),
        alert("danger", message),
        form(submit,
             text_field(name="email", label=t("field.email"), value=email, on_change=set_email, error=errors.get("email"),
                        kind="email", autocomplete="username", autofocus=True),
             text_field(name="password", label=t("field.password"), value=password, on_change=set_password,
                        error=errors.get("password"), kind="password", autocomplete="current-password"),
             html.div({"className": "d-flex justify-content-end mb-3"},
                      link({"to": "/forgot-password", "className": "small"}, t("login.forgot"))),
             submit_button(t("login.submit"), pending=pending), name="login"),
        html.p({"className": "text-center small mt-4 mb-0"}, t("login.no_account"), " ",
               link({"to": "/register"}, t("login.register"))),
    )
