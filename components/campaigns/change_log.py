"""/campaign/changelog/{id} (every role that has it): one campaign's history; /admin/CampaignList/changeLog/{id}:
every campaign of one advertiser. Field by field (old → new; targeting as added/removed), who did it and
"signed in as" when someone acted for them, filtered by date range and by person."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.services import campaign_history
from components.campaigns.common import back_to_list, campaign_tabs, not_found
from components.shell.context import Console, use_console
from components.ui.change_log import change_log_table
from components.ui.elements import loading_page, page_header
from components.ui.forms import select_field, text_field
from components.ui.hooks import use_query
from components.users.common import use_subject_id


def filters(console: Console, people: list[dict[str, Any]], values: dict[str, str], set_values: Any) -> Any:
    t = console.t

    def change(name: str, value: str) -> None:
        set_values(lambda v: {**v, name: value})

    return html.div(
        {"className": "d-flex flex-wrap gap-3 align-items-end mb-3 dsp-filters", "data-filters": "change-log"},
        html.div({"className": "dsp-filter"},
                 text_field(name="since", label=t("changelog.since"), kind="date", value=values["since"],
                            on_change=lambda v: change("since", v))),
        html.div({"className": "dsp-filter"},
                 text_field(name="until", label=t("changelog.until"), kind="date", value=values["until"],
                            on_change=lambda v: change("until", v))),
        select_field(name="user", label=t("changelog.person"), value=values["user"], class_name="dsp-filter mb-3",
                     options=[("", t("changelog.anyone"))] + [(str(p["id"]), p["name"]) for p in people],
                     on_change=lambda v: change("user", v)),
        html.button({"type": "button", "className": "btn btn-link btn-sm mb-3", "data-action": "clear-filters",
                     "onClick": lambda _e: set_values({"since": "", "until": "", "user": ""})},
                    t("changelog.clear")) if any(values.values()) else "",
    )


def use_filtered_log(fn: Any, **kwargs: Any) -> tuple[Any, dict[str, str], Any]:
    values, set_values = use_state({"since": "", "until": "", "user": ""})
    # A date being typed is not a date yet: only whole ISO dates filter.
    since = values["since"] if len(values["since"]) == 10 else ""
    until = values["until"] if len(values["until"]) == 10 else ""
    query = use_query(fn, since=since, until=until, user_id=int(values["user"]) if values["user"] else None,
                      deps=[*kwargs.values(), since, until, values["user"]], **kwargs)
    return query, values, set_values


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
