"""What the pages of one kind of record (campaigns, creatives) share, declared once per kind: its status
badges, the back link to its list, its not-found state and the tabs between one record's pages."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from reactpy import html

from components.ui.console import Console
from components.ui.elements import card, empty_state
from components.ui.links import app_link


@dataclass(frozen=True)
class EntityPages:
    prefix: str  # catalog prefix: <prefix>.status.<status>, <prefix>.back, <prefix>.not_found, ...
    list_page: str  # the page name of the list
    icon: str  # Bootstrap icon of the not-found state
    variants: Mapping[str, str]  # status -> badge colour
    tabs: tuple[tuple[str, str, str], ...]  # one record's pages: (page name, label key, icon)

    def status_badge(self, console: Console, status: str) -> Any:
        return html.span({"className": f"badge text-bg-{self.variants.get(status, 'secondary')}", "data-status": status},
                         console.t(f"{self.prefix}.status.{status}"))

    def status_cell(self, console: Console, status: str) -> dict[str, str]:
        """A status as the data grid's badge value."""
        return {"text": console.t(f"{self.prefix}.status.{status}"), "variant": self.variants.get(status, "secondary")}

    def back_to_list(self, console: Console) -> Any:
        path = console.path(self.list_page)
        return app_link({"to": path, "className": "btn btn-light border btn-sm"},
                        html.i({"className": "bi bi-arrow-left me-1"}), console.t(f"{self.prefix}.back")) if path else ""

    def not_found(self, console: Console) -> Any:
        return card(empty_state(self.icon, console.t(f"{self.prefix}.not_found"),
                                console.t(f"{self.prefix}.not_found_hint"), self.back_to_list(console),
                                marker={"data-state": "not-found"}))

    def record_tabs(self, console: Console, record_id: int, *, current: str, hidden: Collection[str] = ()) -> Any:
        """Tabs to the record's other pages that the role has (`hidden`: pages this record does not offer)."""
        items = []
        for name, label_key, icon in self.tabs:
            path = console.path(name, id=record_id) if name not in hidden else None
            if path is None:
                continue
            active = name == current
            items.append(html.li({"className": "nav-item", "key": name},
                                 app_link({"to": path, "className": "nav-link" + (" active" if active else ""),
                                           "aria-current": "page" if active else "false", "data-tab": name},
                                          html.i({"className": f"bi {icon} me-1"}), console.t(label_key))))
        return html.ul({"className": "nav nav-pills dsp-subnav mb-4"}, *items)
