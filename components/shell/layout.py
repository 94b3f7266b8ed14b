"""The three frames a page can have: the console shell, the centred auth card, the documentation layout."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from components.shell.footer import footer
from components.shell.sidebar import Navigation
from components.shell.theme_panel import ThemePanel, layout_classes
from components.shell.topbar import Impersonation, Topbar
from components.ui.console import use_console
from components.ui.links import app_link as link


@component
def ShellLayout(content: Any) -> Any:
    console = use_console()
    menu_open, set_menu_open = use_state(False)
    theme_open, set_theme_open = use_state(False)
    prefs = console.preferences
    horizontal = prefs.get("layout") == "horizontal"
    return html.div(
        {"className": f"dsp-shell {layout_classes(prefs)}" + (" dsp-menu-open" if menu_open else ""),
         "data-role": console.role.value if console.role else ""},
        html.div({"className": "dsp-preloader", "aria-hidden": "true"},
                 html.div({"className": "spinner-border text-primary"})) if prefs.get("preloader", True) else "",
        Topbar(lambda: set_menu_open(not menu_open), lambda: set_theme_open(True)),
        Impersonation(),
        html.div({"className": "dsp-menubar"}, Navigation("horizontal")) if horizontal else "",
        html.div(
            {"className": "dsp-body"},
            "" if horizontal else html.aside({"className": "dsp-sidebar"},
                                                     html.div({"className": "dsp-sidebar-inner"}, Navigation("vertical"))),
            html.main({"className": "dsp-main"},
                      html.div({"className": "dsp-content"}, content),
                      footer(console.state.branding)),
        ),
        ThemePanel(theme_open, lambda: set_theme_open(False)),
    )


def auth_layout(content: Any, console: Any) -> Any:
    branding = console.state.branding
    return html.div(
        {"className": "dsp-auth"},
        html.div({"className": "dsp-auth-card card border-0 shadow"},
                 html.div({"className": "card-body p-4 p-md-5"},
                          html.div({"className": "text-center mb-4"},
                                   html.img({"src": branding.logo_url, "alt": branding.name, "className": "dsp-auth-logo mb-2"}),
                                   html.div({"className": "fw-semibold"}, branding.name)),
                          content)),
        html.div({"className": "dsp-auth-footer small"},
                 link({"to": "/documentation/general"}, console.t("docs.general")), " · ",
                 link({"to": "/documentation/console"}, console.t("docs.console")), html.br(),
                 footer(branding)),
    )


def docs_layout(content: Any, console: Any) -> Any:
    branding = console.state.branding
    home = "/" if console.actor else "/login"
    return html.div(
        {"className": "dsp-docs"},
        html.header({"className": "dsp-docs-header"},
                    html.a({"href": home, "className": "dsp-brand"},
                           html.img({"src": branding.logo_url, "alt": branding.name, "className": "dsp-logo"}),
                           html.span({"className": "dsp-brand-name"}, branding.name)),
                    html.nav({"className": "dsp-docs-nav ms-auto"},
                             link({"to": "/documentation/general"}, console.t("docs.general")),
                             link({"to": "/documentation/console"}, console.t("docs.console")),
                             html.a({"href": home, "className": "btn btn-sm btn-primary"},
                                    console.t("docs.back_to_console" if console.actor else "login.submit")))),
        html.main({"className": "dsp-docs-main"}, content),
        footer(branding),
    )
