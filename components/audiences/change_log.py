"""/audience/changeLog/{id} (advertiser) and audience/changelog/{id} (agency, admin, co-admin): one audience's
history, field by field, each file appended with its counts, filterable by date and person."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.supply import audiences
from components.supply.audiences.common import audience_tabs, back_to_list, not_found
from components.ui.change_log import change_log_table, filters, use_filtered_log
from components.ui.console import use_console
from components.ui.elements import loading_page, page_header
from components.ui.routes import use_subject_id


@component
def AudienceChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    audience_id = use_subject_id()
    query, values, set_values = use_filtered_log(audiences.audience_history, actor=console.actor,
                                                 audience_id=audience_id)
    if query.value is None:
        return loading_page(t, t("changelog.title")) if query.loading or not query.failed else \
            html.div(page_header(t("changelog.title")), not_found(console))
    log = query.value
    return html.div(
        {"data-page": "audience-change-log"},
        page_header(t("changelog.title"), log["audience"]["name"], back_to_list(console)),
        audience_tabs(console, audience_id, current="audience.change_log"),
        filters(console, log["people"], values, set_values),
        change_log_table(console, log["entries"], entity="audience"),
    )
