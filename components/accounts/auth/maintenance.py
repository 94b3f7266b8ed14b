"""/maintenance: shown to everyone but staff while the brand's maintenance switch is on."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from components.ui.console import use_console


@component
def MaintenancePage() -> Any:
    console = use_console()
    return html.div(
        {"className": "text-center py-3"},
        html.i({"className": "bi bi-tools display-5 text-primary d-block mb-3"}),
        html.h1({"className": "h4 fw-semibold"}, console.t("maintenance.title")),
        html.p({"className": "text-body-secondary mb-4"}, console.t("maintenance.text")),
        html.button({"type": "button", "className": "btn btn-outline-secondary btn-sm",
                     "onClick": lambda _e: console.logout()}, console.t("usermenu.logout")) if console.actor else "",
    )
