"""The redirect screen: a signed-in user goes to their role's dashboard, anyone else to /login."""

from __future__ import annotations

from typing import Any

from reactpy import component, html
from reactpy_router import navigate

from app.access.roles import home_path
from components.ui.console import use_console
from components.ui.elements import spinner


def redirect_target(role: str | None, *, maintenance: bool, staff: bool) -> str:
    if role and maintenance and not staff:
        return "/maintenance"
    return home_path(role)


@component
def RedirectScreen() -> Any:
    console = use_console()
    target = redirect_target(console.role.value if console.role else None,
                             maintenance=console.state.branding.maintenance_mode,
                             staff=bool(console.actor and console.actor.is_staff))
    return html.div({"className": "dsp-redirect", "data-redirect-to": target}, spinner(console.t("common.loading")),
                    navigate(target, replace=True))
