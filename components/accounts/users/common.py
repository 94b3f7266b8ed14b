"""Pieces the per-user pages share: the back link, the not-found state and the links to a user's other pages."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.access.roles import Role
from components.ui import links
from components.ui.console import Console
from components.ui.elements import card, empty_state
from components.ui.links import app_link

# The per-user pages, in the order their links show: (page name, label key, icon, row flag it needs).
USER_PAGES: tuple[tuple[str, str, str, str], ...] = (
    ("user.edit", "users.edit", "bi-pencil", "can_edit"),
    ("user.config", "users.configure", "bi-sliders", "can_configure"),
    ("user.change_log", "users.change_log", "bi-clock-history", ""),
    ("user.payments", "users.payments", "bi-credit-card", "has_payments"),
    ("campaigns.of_advertiser", "users.campaigns", "bi-megaphone", "has_payments"),
    ("campaigns.advertiser_change_log", "users.campaign_log", "bi-journal-text", "has_payments"),
)


def back_link(console: Console) -> Any:
    """Back to the users list (the agency's advertisers) of the console's role."""
    return links.back_link(console, "users", "users.back_to_list")


def not_found(console: Console) -> Any:
    return card(empty_state("bi-person-x", console.t("users.not_found"), console.t("users.not_found_hint"),
                            back_link(console), marker={"data-state": "not-found"}))


def user_page_links(console: Console, user_id: int, role: str, *, current: str) -> Any:
    """Tabs to the other pages about the same user (of this role) that the actor's role has."""
    items = []
    for name, label_key, icon, flag in USER_PAGES:
        if flag == "has_payments" and role != Role.ADVERTISER:
            continue
        path = console.path(name, id=user_id)
        if path is None:
            continue
        active = name == current
        items.append(html.li({"className": "nav-item", "key": name},
                             app_link({"to": path, "className": "nav-link" + (" active" if active else ""),
                                       "aria-current": "page" if active else "false"},
                                      html.i({"className": f"bi {icon} me-1"}), console.t(label_key))))
    return html.ul({"className": "nav nav-pills dsp-subnav mb-4"}, *items)
