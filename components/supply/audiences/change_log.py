"""/audience/changeLog/{id} (advertiser) and audience/changelog/{id} (agency, admin, co-admin): one audience's
history, field by field, each file appended with its counts, filterable by date and person."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.supply.audiences.common import audience_tabs, back_to_list, not_found
from components.ui.change_log import ChangeLogFrame, change_log_page

AudienceChangeLogPage = change_log_page("audience", ChangeLogFrame(
    "audience-change-log", back_to_list, not_found,
    tabs=lambda console, audience_id, _audience: audience_tabs(console, audience_id,
                                                               current=CHANGE_LOGS["audience"].page)))
