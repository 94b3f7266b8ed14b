"""Theme settings panel (spec section 1): layout, width, top bar, sidebar type and colour, preloader.
Choices are stored per user and applied as classes on the layout root."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html

from app.access.preferences import THEME_CHOICES
from components.ui.console import use_console

PANEL_OPTIONS: tuple[str, ...] = ("layout", "width", "topbar", "sidebar", "sidebar_color")


def layout_classes(preferences: dict[str, Any]) -> str:
    return " ".join(f"dsp-{key.replace('_', '-')}-{preferences.get(key, THEME_CHOICES[key][0])}" for key in PANEL_OPTIONS)


@component
def ThemePanel(is_open: bool, close: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    prefs = console.preferences
    if not is_open:
        return html.div()

    def option_group(key: str) -> Any:
        return html.div(
            {"className": "mb-4", "key": key},
            html.div({"className": "small fw-semibold text-uppercase text-body-secondary mb-2"}, t(f"theme.{key}")),
            html.div({"className": "d-flex flex-wrap gap-2"},
                     *[html.button({"type": "button", "key": str(choice), "data-theme-option": f"{key}:{choice}",
                                    "className": "btn btn-sm " + ("btn-primary" if prefs.get(key) == choice else "btn-outline-secondary"),
                                    "onClick": lambda _e, c=choice: console.set_preferences({key: c})},
                                   t(f"theme.{key}.{choice}"))
                       for choice in THEME_CHOICES[key]]),
        )

    return html.div(
        html.div({"className": "offcanvas-backdrop fade show", "onClick": lambda _e: close()}),
        html.aside(
            {"className": "offcanvas offcanvas-end show dsp-theme-panel", "role": "dialog", "aria-modal": "true",
             "aria-label": t("theme.title")},
            html.div({"className": "offcanvas-header border-bottom"},
                     html.h2({"className": "offcanvas-title h6 mb-0"}, t("theme.title")),
                     html.button({"type": "button", "className": "btn-close", "aria-label": t("common.close"),
                                  "onClick": lambda _e: close()})),
            html.div({"className": "offcanvas-body"},
                     *[option_group(key) for key in PANEL_OPTIONS],
                     html.div({"className": "form-check form-switch"},
                              html.input({"className": "form-check-input", "type": "checkbox", "id": "theme-preloader",
                                          "checked": bool(prefs.get("preloader", True)),
                                          "onChange": lambda e: console.set_preferences({"preloader": bool(e["target"]["checked"])})}),
                              html.label({"className": "form-check-label", "htmlFor": "theme-preloader"},
                                         t("theme.preloader")))),
        ),
    )
