"""/campaign/creative/changelog/{id} (advertiser) and creative/changelog/{id} (agency, admin, co-admin): one
creative's history, field by field, with who made each change (markup edits show as their size, never the
markup itself)."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.creatives.common import back_to_list, creative_tabs, not_found
from components.ui.change_log import ChangeLogFrame, change_log_page

CreativeChangeLogPage = change_log_page("creative", ChangeLogFrame(
    "creative-change-log", back_to_list, not_found,
    tabs=lambda console, creative_id, _creative: creative_tabs(console, creative_id,
                                                               current=CHANGE_LOGS["creative"].page)))
