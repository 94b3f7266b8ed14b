"""/admin/user/change-log/{id}, its co-admin copy and /agency/changeLog/{id}: a user's history."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.accounts.users.common import back_link, not_found, user_page_links
from components.ui.change_log import ChangeLogFrame, change_log_page

UserChangeLogPage = change_log_page("user", ChangeLogFrame(
    "user-change-log", back_link, not_found,
    tabs=lambda console, user_id, user: user_page_links(console, user_id, user["role"],
                                                         current=CHANGE_LOGS["user"].page)))
