"""Notifications dropdown: unread count badge, latest items, mark read, and an item's link to where its cause is
fixed (an alert's fix for the reader's role, app/alerts/kinds.py fix_link)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html

from app.messaging import notifications
from app.messaging.models import Notification
from components.ui.console import Console, use_console
from components.ui.dropdown import Dropdown
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link


def in_app(link: str) -> bool:
    """Only a path of this console is followed (a stored link could be anything: javascript:, another site)."""
    return link.startswith("/") and not link.startswith("//") and "\\" not in link


def _item(console: Console, n: Notification, read: Callable[[int | None], Any], close: Callable[[], None]) -> Any:
    def follow(_e: Any) -> None:
        read(n.id)
        close()

    return html.div(
        {"key": str(n.id), "className": "dsp-notification" + ("" if n.read_at else " unread")},
        html.button({"type": "button", "className": "dropdown-item p-0 bg-transparent text-wrap",
                     "onClick": lambda _e: read(n.id)},
                    html.div({"className": "fw-medium small"}, n.title),
                    html.div({"className": "small text-body-secondary text-wrap"}, n.body)),
        html.div({"className": "mt-1", "onClick": follow},
                 app_link({"to": n.link, "className": "small fw-medium", "data-notification-fix": n.link},
                          console.t("notifications.open"), html.i({"className": "bi bi-arrow-right ms-1"})))
        if in_app(n.link) else "")


@component
def NotificationsMenu() -> Any:
    console = use_console()
    t = console.t
    items_query = use_query(notifications.recent, actor=console.actor)
    unread_query = use_query(notifications.unread_count, actor=console.actor)
    items, unread = items_query.value, unread_query.value

    def after_change(_result: Any) -> None:
        items_query.reload()
        unread_query.reload()

    mark = use_action(notifications.mark_read, on_done=after_change)

    def read(notification_id: int | None) -> None:
        mark.submit(actor=console.actor, notification_id=notification_id)

    def render_menu(close: Callable[[], None]) -> Any:
        rows = items or []
        return html.div(
            html.div({"className": "d-flex justify-content-between align-items-center px-3 py-2 border-bottom"},
                     html.strong({"className": "small"}, t("notifications.title")),
                     html.button({"type": "button", "className": "btn btn-link btn-sm p-0",
                                  "onClick": lambda _e: mark.submit(actor=console.actor)}, t("notifications.mark_all"))
                     if unread else ""),
            html.div({"className": "dsp-notification-list"},
                     *[_item(console, n, read, close) for n in rows]
                     if rows else [html.div({"className": "text-center small text-body-secondary py-4"},
                                            t("notifications.empty"))]),
        )

    badge = html.span({"className": "badge rounded-pill text-bg-danger dsp-badge", "data-unread": str(unread)},
                      str(unread)) if unread else ""
    return Dropdown(html.span({"className": "position-relative"}, html.i({"className": "bi bi-bell fs-5"}), badge),
                    render_menu, t("notifications.title"), "notifications", "dsp-dropdown-wide")
