"""/campaign/creative/changelog/{id} (advertiser) and creative/changelog/{id} (agency, admin, co-admin): one
creative's history, field by field, with who made each change (markup edits show as their size, never the
markup itself)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.services import creatives
from components.creatives.common import back_to_list, creative_tabs, not_found
from components.shell.context import use_console
from components.ui.change_log import change_log_table
from components.ui.elements import loading_page, page_header
from components.ui.hooks import use_query
from components.users.common import use_subject_id


@component
def CreativeChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    creative_id = use_subject_id()
    creative = use_query(creatives.get_creative, actor=console.actor, creative_id=creative_id, deps=[creative_id])
    entries = use_query(creatives.creative_change_log, actor=console.actor, creative_id=creative_id, deps=[creative_id])
    if creative.loading or entries.loading:
        return loading_page(t, t("changelog.title"))
    if creative.value is None or entries.value is None:
        return html.div(page_header(t("changelog.title")), not_found(console))
    return html.div(
        {"data-page": "creative-change-log"},
        page_header(t("changelog.title"), creative.value["name"], back_to_list(console)),
        creative_tabs(console, creative_id, current="creative.change_log"),
        change_log_table(console, entries.value, entity="creative"),
    )
