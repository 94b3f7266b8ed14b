"""A dropdown opened by ReactPy state (no Bootstrap JS): a toggle button and a menu that closes on a click outside."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from components.ui import styles
from components.ui.elements import backdrop


@component
def Dropdown(toggle: Any, render_menu: Callable[[Callable[[], None]], Any], label: str, name: str,
             menu_class: str = "") -> Any:
    """`render_menu(close)` builds the menu; it is called only while open."""
    is_open, set_open = use_state(False)

    def close() -> None:
        set_open(False)

    def on_key_down(event: dict[str, Any]) -> None:
        if event.get("key") == "Escape":
            close()

    return html.div(
        {"className": "dropdown dsp-topbar-item", "data-dropdown": name, "onKeyDown": on_key_down},
        # The label is hidden text inside the button, not an aria-label: a spoken name must contain what the
        # button shows ("EN", the unread count, the user's name), or speech users cannot say it (WCAG 2.5.3).
        html.button({"type": "button", "className": styles.TOPBAR_BUTTON, "title": label,
                     "aria-expanded": "true" if is_open else "false", "onClick": lambda _e: set_open(not is_open)},
                    html.span({"className": "visually-hidden"}, label), toggle),
        backdrop(lambda _e: close()) if is_open else "",
        html.div({"className": f"{styles.DROPDOWN_MENU} {menu_class}"}, render_menu(close)) if is_open else "",
    )
