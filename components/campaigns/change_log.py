"""/campaign/changelog/{id} (every role that has it): one campaign's history; /admin/CampaignList/changeLog/{id}:
every campaign of one advertiser. Field by field (old → new; targeting as added/removed), who did it and
"signed in as" when someone acted for them, filtered by date range and by person."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns import history as campaign_history
from components.campaigns.common import back_to_list, campaign_tabs, not_found
from components.ui.change_log import change_log_table, filters, use_filtered_log
from components.ui.console import use_console
from components.ui.elements import loading_page, page_header
from components.ui.routes import use_subject_id


@component
def CampaignChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    campaign_id = use_subject_id()
    query, values, set_values = use_filtered_log(campaign_history.campaign_change_log, actor=console.actor,
                                                 campaign_id=campaign_id)
    if query.value is None:
        return loading_page(t, t("changelog.title")) if query.loading or not query.failed else \
            html.div(page_header(t("changelog.title")), not_found(console))
    log = query.value
    return html.div(
        {"data-page": "campaign-change-log"},
        page_header(t("changelog.title"), log["campaign"]["name"], back_to_list(console)),
        campaign_tabs(console, log["campaign"] | {"id": campaign_id}, current="campaign.change_log"),
        filters(console, log["people"], values, set_values),
        change_log_table(console, log["entries"], entity="campaign"),
    )


@component
def AdvertiserCampaignsChangeLogPage() -> Any:
    console = use_console()
    t = console.t
    advertiser_id = use_subject_id()
    query, values, set_values = use_filtered_log(campaign_history.advertiser_change_log, actor=console.actor,
                                                 advertiser_id=advertiser_id)
    if query.value is None:
        return loading_page(t, t("changelog.title")) if query.loading or not query.failed else \
            html.div(page_header(t("changelog.title")), not_found(console))
    log = query.value
    return html.div(
        {"data-page": "advertiser-campaigns-change-log"},
        page_header(t("campaigns.advertiser_log_title"), log["advertiser"]["name"], back_to_list(console)),
        filters(console, log["people"], values, set_values),
        change_log_table(console, log["entries"], entity="campaign", subject_label=t("campaigns.col.name"),
                         subject_key="campaign"),
    )
