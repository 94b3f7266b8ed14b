"""Language switcher: the choice is kept per browser (localStorage `language`) by the session agent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html

from app.kernel.i18n.catalog import LANGUAGES
from components.ui.console import use_console
from components.ui.dropdown import Dropdown


@component
def LanguageMenu() -> Any:
    console = use_console()

    def render_menu(close: Callable[[], None]) -> Any:
        def choose(code: str) -> Callable[[Any], None]:
            def handler(_event: Any) -> None:
                console.set_language(code)
                close()
            return handler

        return html.div(*[
            html.button({"type": "button", "key": code, "data-language": code, "onClick": choose(code),
                         "className": "dropdown-item" + (" active" if code == console.language else "")},
                        html.span({"className": "text-uppercase small fw-semibold me-2 dsp-lang-code"}, code), name)
            for code, name in LANGUAGES.items()
        ])

    return Dropdown(html.span({"className": "text-uppercase fw-semibold small"}, html.i({"className": "bi bi-translate me-1"}),
                              console.language),
                    render_menu, console.t("topbar.language"), "language")
