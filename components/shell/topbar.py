"""Top bar: logo, menu toggle, balance, view switch, language, fullscreen, notifications, user menu;
and the acting-as bar with the Back buttons shown under it while impersonating."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.access import preferences
from app.access.roles import Role
from app.accounts import console as console_service
from app.accounts import impersonation
from app.kernel.i18n.formatters import money
from components.shell.language_menu import LanguageMenu
from components.shell.notifications_menu import NotificationsMenu
from components.shell.user_menu import UserMenu
from components.ui import styles
from components.ui.console import Console, use_console
from components.ui.hooks import use_action, use_query
from components.ui.labels import role_label_key
from components.widgets.document_effects import document_effects

BACK_LABEL_KEYS: dict[Role, str] = {
    Role.ADMIN: "topbar.back_to_admin",
    Role.CO_ADMIN: "topbar.back_to_co_admin",
    Role.AGENCY: "topbar.back_to_agency",
}


def shows_view_switch(console: Console) -> bool:
    """Spec section 6: admin and co-admin always; others only with insight_dashboard."""
    return preferences.may_switch_dashboard_view(console.role, console.state.settings)


@component
def Balance() -> Any:
    console = use_console()
    micros = use_query(console_service.advertiser_balance_micros, actor=console.actor).value
    return html.div({"className": "dsp-balance dsp-topbar-item", "data-balance": money(micros or 0, micros=True)},
                    html.span({"className": "small text-body-secondary me-1"}, console.t("topbar.balance")),
                    html.strong(money(micros or 0, micros=True, language=console.language)))


@component
def Impersonation() -> Any:
    console = use_console()
    actor = console.actor
    back = use_action(impersonation.back, on_done=console.go)
    if actor is None or not actor.impersonating:
        return html.div()
    return html.div(
        {"className": "dsp-acting-bar", "role": "status"},
        html.span({"className": "dsp-acting-badge", "data-acting": actor.user.email},
                  html.i({"className": "bi bi-incognito me-2"}),
                  console.t("topbar.acting_as", name=actor.user.display_name,
                            role=console.t(role_label_key(actor.role)))),
        *[html.button({"type": "button", "className": "btn btn-sm btn-dark", "key": role.value,
                       "data-back": role.value,
                       "onClick": lambda _e, r=role: back.submit(actor=actor, to_role=r)},
                      html.i({"className": "bi bi-arrow-left-circle me-1"}), console.t(BACK_LABEL_KEYS[role]))
          for role in console.state.back_roles],
    )


@component
def ViewSwitch() -> Any:
    console = use_console()
    view = console.preferences.get("dashboard_view", "old")
    options = (("old", console.t("topbar.view_old")), ("new", console.t("topbar.view_new")))
    return html.div({"className": "btn-group btn-group-sm dsp-topbar-item dsp-view-switch", "role": "group",
                     "aria-label": console.t("topbar.view")},
                    *[html.button({"type": "button", "key": key, "data-view": key,
                                   "className": "btn " + ("btn-primary" if view == key else "btn-outline-secondary"),
                                   "onClick": lambda _e, k=key: console.set_preferences({"dashboard_view": k})}, text)
                      for key, text in options],
                    document_effects(dashboard_view=view))


@component
def FullscreenToggle() -> Any:
    console = use_console()
    fullscreen, set_fullscreen = use_state(False)
    label = console.t("topbar.exit_fullscreen" if fullscreen else "topbar.fullscreen")
    return html.div({"className": "dsp-topbar-item"},
                    html.button({"type": "button", "className": styles.TOPBAR_BUTTON, "aria-label": label, "title": label,
                                 "data-fullscreen": "on" if fullscreen else "off",
                                 "onClick": lambda _e: set_fullscreen(not fullscreen)},
                                html.i({"className": "bi " + ("bi-fullscreen-exit" if fullscreen else "bi-arrows-fullscreen")})),
                    document_effects(fullscreen=fullscreen, on_fullscreen_change=set_fullscreen))


@component
def Topbar(toggle_menu: Callable[[], None], open_theme_panel: Callable[[], None]) -> Any:
    console = use_console()
    branding = console.state.branding
    home = "/"
    return html.header(
        {"className": "dsp-topbar"},
        html.div({"className": "d-flex align-items-center gap-2"},
                 html.a({"href": home, "className": "dsp-brand", "aria-label": branding.name},
                        html.img({"src": branding.logo_url, "alt": branding.name, "className": "dsp-logo"}),
                        html.span({"className": "dsp-brand-name"}, branding.name)),
                 html.button({"type": "button", "className": styles.TOPBAR_BUTTON + " dsp-menu-toggle",
                              "aria-label": console.t("topbar.toggle_menu"), "onClick": lambda _e: toggle_menu()},
                             html.i({"className": "bi bi-list fs-4"}))),
        html.div({"className": "d-flex align-items-center gap-1 ms-auto justify-content-end"},
                 Balance() if console.role == Role.ADVERTISER else "",
                 ViewSwitch() if shows_view_switch(console) else "",
                 LanguageMenu(),
                 FullscreenToggle(),
                 # Theme settings sit in the bar (a floating button covered the last column of wide tables).
                 html.div({"className": "dsp-topbar-item"},
                          html.button({"type": "button", "className": styles.TOPBAR_BUTTON + " dsp-theme-button",
                                       "aria-label": console.t("theme.title"), "title": console.t("theme.title"),
                                       "onClick": lambda _e: open_theme_panel()},
                                      html.i({"className": "bi bi-sliders"}))),
                 NotificationsMenu(),
                 UserMenu(open_theme_panel)),
    )
