"""/campaign/creative/changelog/{id} (advertiser) and creative/changelog/{id} (agency, admin, co-admin): one
creative's history, field by field, with who made each change (markup edits show as their size, never the
markup itself)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.creatives import history as creative_history
from components.creatives.common import back_to_list, creative_tabs, not_found
from components.ui.change_log import change_log_table, filters, use_filtered_log
from components.ui.console import use_console
from components.ui.elements import loading_page, page_header
from components.ui.routes import use_subject_id


@component
def CreativeChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    creative_id = use_subject_id()
    query, values, set_values = use_filtered_log(creative_history.creative_history, actor=console.actor,
                                                 creative_id=creative_id)
    if query.value is None:
        return loading_page(t, t("changelog.title")) if query.loading or not query.failed else \
            html.div(page_header(t("changelog.title")), not_found(console))
    log = query.value
    return html.div(
        {"data-page": "creative-change-log"},
        page_header(t("changelog.title"), log["creative"]["name"], back_to_list(console)),
        creative_tabs(console, creative_id, current="creative.change_log"),
        filters(console, log["people"], values, set_values),
        change_log_table(console, log["entries"], entity="creative"),
    )
