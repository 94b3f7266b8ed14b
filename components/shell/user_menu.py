"""User menu: who is signed in (hidden for ADMIN), profile, settings where allowed, theme, logout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html

from app.access.roles import Role
from components.ui.console import Console, use_console
from components.ui.dropdown import Dropdown
from components.ui.labels import role_label_key
from components.ui.links import app_link as link


def settings_link(console: Console) -> str | None:
    """Spec section 6: admin has its settings; others only when postback is ENABLED or api_access is set."""
    role = console.role
    if role is None:
        return None
    if role not in (Role.AGENCY, Role.ADVERTISER):
        return console.path("settings")
    user_settings = console.state.settings
    allowed = bool(user_settings and (user_settings.postback_enabled == "ENABLED" or user_settings.api_access))
    return console.path("settings") if allowed else None


def identity_block(console: Console) -> Any:
    actor = console.actor
    if actor is None or actor.role == Role.ADMIN:
        return ""  # the name, company and ID block is hidden for ADMIN
    user = actor.user
    return html.div({"className": "px-3 py-2 border-bottom dsp-identity"},
                    html.div({"className": "fw-semibold"}, user.display_name),
                    html.div({"className": "small text-body-secondary"}, user.company_name or user.email),
                    html.div({"className": "small text-body-secondary"}, f"ID {user.id} · {console.t(role_label_key(actor.role))}"))


@component
def UserMenu(open_theme_panel: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None

    def render_menu(close: Callable[[], None]) -> Any:
        def open_theme(_event: Any) -> None:
            close()
            open_theme_panel()

        settings = settings_link(console)
        reference_lists = console.path("metadata")  # /admin/metadata: ADMIN and CO-ADMIN, per the route table
        return html.div(
            identity_block(console),
            link({"to": console.routes.profile_path(actor.role), "className": "dropdown-item"},
                 html.i({"className": "bi bi-person me-2"}), t("usermenu.profile")),
            link({"to": settings, "className": "dropdown-item"}, html.i({"className": "bi bi-gear me-2"}),
                 t("usermenu.settings")) if settings else "",
            link({"to": reference_lists, "className": "dropdown-item", "data-menu": "reference-lists"},
                 html.i({"className": "bi bi-list-ul me-2"}), t("usermenu.reference_lists")) if reference_lists else "",
            html.button({"type": "button", "className": "dropdown-item",
                         "onClick": open_theme},
                        html.i({"className": "bi bi-palette me-2"}), t("usermenu.theme")),
            html.div({"className": "dropdown-divider"}),
            html.button({"type": "button", "className": "dropdown-item text-danger", "data-action": "logout",
                         "onClick": lambda _e: console.logout()},
                        html.i({"className": "bi bi-box-arrow-right me-2"}), t("usermenu.logout")),
        )

    initials = "".join(part[:1] for part in actor.user.display_name.split()[:2]).upper() or "?"
    return Dropdown(html.span({"className": "d-flex align-items-center gap-2"},
                              html.span({"className": "dsp-avatar"}, initials),
                              html.span({"className": "d-none d-lg-inline small fw-medium"}, actor.user.display_name)),
                    render_menu, t("usermenu.title"), "user")
