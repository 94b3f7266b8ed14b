"""Sidebar (vertical layout) or menu bar (horizontal layout): the same items either way."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_location

from components.shell.menu import MenuItem, menu_items
from components.ui.console import use_console
from components.ui.links import app_link as link


def _item(item: MenuItem, active: bool) -> Any:
    content = (html.i({"className": f"bi {item.icon} dsp-nav-icon"}), html.span({"className": "dsp-nav-label"}, item.label))
    if item.external:
        return html.li({"className": "nav-item", "key": item.href},
                       html.a({"className": "nav-link dsp-nav-link", "href": item.href, "target": "_blank",
                               "rel": "noopener noreferrer", "title": item.label},
                              *content, html.i({"className": "bi bi-box-arrow-up-right ms-auto small opacity-50 dsp-nav-label"})))
    return html.li({"className": "nav-item", "key": item.href},
                   link({"to": item.href, "className": "nav-link dsp-nav-link" + (" active" if active else ""),
                         "title": item.label, "aria-current": "page" if active else "false"}, *content))


@component
def Navigation(orientation: str = "vertical") -> Any:
    console = use_console()
    path = use_location().path
    items = menu_items(console)
    return html.nav(
        {"className": f"dsp-nav dsp-nav-{orientation}", "aria-label": console.t("menu.main")},
        html.ul({"className": "nav flex-column" if orientation == "vertical" else "nav"},
                *[_item(item, path == item.href or path.startswith(item.href + "/")) for item in items]),
    )
