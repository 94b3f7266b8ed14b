"""/admin/user/change-log/{id}, its co-admin copy and /agency/changeLog/{id}: a user's history."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.accounts import users
from app.history import change_log
from components.accounts.users.common import back_link, not_found, user_page_links
from components.ui.change_log import change_log_table
from components.ui.console import use_console
from components.ui.elements import loading_page, page_header
from components.ui.hooks import use_query
from components.ui.routes import use_subject_id


@component
def UserChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    user_id = use_subject_id()
    user_query = use_query(users.get_user, actor=console.actor, user_id=user_id, deps=[user_id])
    entries_query = use_query(change_log.user_change_log, actor=console.actor, user_id=user_id, deps=[user_id])
    user, entries = user_query.value, entries_query.value
    if user_query.loading or entries_query.loading:
        return loading_page(t, t("changelog.title"))
    if user is None or entries is None:
        return html.div(page_header(t("changelog.title")), not_found(console))
    return html.div(
        page_header(t("changelog.title"), f"{user['name']} · {user['email']}", back_link(console)),
        user_page_links(console, user, current="user.change_log"),
        change_log_table(console, entries),
    )
