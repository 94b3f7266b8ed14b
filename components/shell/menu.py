"""The menu of a role, derived from the route table (the console's) plus the conditional external links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from components.ui.console import Console


@dataclass(frozen=True)
class MenuItem:
    label: str
    href: str
    icon: str
    external: bool = False


# Conditions of the spec (section 2): API Docs only with api_access; Help & Support when the brand enables it.
MENU_CONDITIONS: dict[str, Callable[[Console], bool]] = {
    "api_access": lambda c: bool(c.state.settings and c.state.settings.api_access),
    "help_and_support": lambda c: c.state.branding.help_and_support and bool(c.state.branding.help_and_support_link),
}


def menu_items(console: Console) -> list[MenuItem]:
    role = console.role
    if role is None:
        return []
    entries: list[tuple[int, MenuItem]] = [
        (p.order, MenuItem(console.t(p.menu or ""), p.path, p.icon)) for p in console.routes.menu_pages(role)
    ]
    for link in console.routes.menu_links:
        if role in link.roles and MENU_CONDITIONS[link.when](console):
            href = link.href or console.state.branding.help_and_support_link
            entries.append((link.order, MenuItem(console.t(link.label), href, link.icon, external=True)))
    return [item for _order, item in sorted(entries, key=lambda e: e[0])]
