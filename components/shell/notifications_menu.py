"""Notifications dropdown: unread count badge, latest items, mark read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html

from app.messaging import notifications
from components.ui.console import use_console
from components.ui.dropdown import Dropdown
from components.ui.hooks import use_action, use_query


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

    def render_menu(_close: Callable[[], None]) -> Any:
        rows = items or []
        return html.div(
            html.div({"className": "d-flex justify-content-between align-items-center px-3 py-2 border-bottom"},
                     html.strong({"className": "small"}, t("notifications.title")),
                     html.button({"type": "button", "className": "btn btn-link btn-sm p-0",
                                  "onClick": lambda _e: mark.submit(actor=console.actor)}, t("notifications.mark_all"))
                     if unread else ""),
            html.div({"className": "dsp-notification-list"},
                     *[html.button({"type": "button", "key": str(n.id),
                                    "className": "dropdown-item dsp-notification" + ("" if n.read_at else " unread"),
                                    "onClick": lambda _e, nid=n.id: mark.submit(actor=console.actor, notification_id=nid)},
                                   html.div({"className": "fw-medium small"}, n.title),
                                   html.div({"className": "small text-body-secondary text-wrap"}, n.body))
                       for n in rows]
                     if rows else [html.div({"className": "text-center small text-body-secondary py-4"},
                                            t("notifications.empty"))]),
        )

    badge = html.span({"className": "badge rounded-pill text-bg-danger dsp-badge", "data-unread": str(unread)},
                      str(unread)) if unread else ""
    return Dropdown(html.span({"className": "position-relative"}, html.i({"className": "bi bi-bell fs-5"}), badge),
                    render_menu, t("notifications.title"), "notifications", "dsp-dropdown-wide")
