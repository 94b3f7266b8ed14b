"""/campaign/{id}/ (advertiser) and campaign/viewCampaign/{id} (agency, admin, co-admin): one campaign's
settings as a media buyer reads them, with the status moves it allows (archiving and completing ask first), under
its delivery check (why it is not spending, with the fixes)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.campaigns import service as campaigns
from app.campaigns.models import CampaignStatus
from app.campaigns.schemas import CampaignDescription, StaleValue
from app.kernel.i18n.formatters import money
from components.campaigns.campaign_audiences import CampaignAudiencesCard
from components.campaigns.campaign_form import flight_value, stale_badge, traffic_label
from components.campaigns.common import (
    back_to_list,
    bare_label,
    campaign_tabs,
    goal_text,
    not_found,
    status_badge,
)
from components.campaigns.creatives_card import CampaignCreativesCard
from components.campaigns.delivery_check import DeliveryCheckCard
from components.campaigns.exchange_approvals.campaign_card import CampaignExchangesCard
from components.campaigns.targeting import schedule_text
from components.dsps.sync_card import DspSyncCard, shows_dsps
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.routes import use_subject_id

# Status buttons, in the order they show: (status, label key, icon, asks first).
MOVES = ((CampaignStatus.ACTIVE, "campaigns.activate", "bi-play-fill", False),
         (CampaignStatus.PAUSED, "campaigns.pause", "bi-pause-fill", False),
         (CampaignStatus.COMPLETED, "campaigns.complete", "bi-flag", True),
         (CampaignStatus.ARCHIVED, "campaigns.archive", "bi-archive", True))
# The reference keys the targeting card names, in its order, each with stale values marked.
REFERENCE_KEYS = ("operating_systems", "os_versions", "manufacturers", "browsers", "carriers", "exchanges")


def _facts(rows: list[tuple[str, Any]]) -> Any:
    return facts([(bare_label(label), value) for label, value in rows])


def _money(console: Console, amount: str | None) -> str:
    return money(amount, language=console.language) if amount else "—"


def _list(values: list[str], none: str) -> str:
    return ", ".join(values) if values else none


def _marked(console: Console, names: list[str], ids: list[int], stale: list[StaleValue], none: str) -> Any:
    """A reference key's names, each stale one (retired, not allowed) followed by its badge."""
    marks = {row.id: row.reason for row in stale}
    if not marks:
        return _list(names, none)
    return html.span({"className": "d-inline-flex flex-wrap gap-1 align-items-center"},
                     *[html.span({"key": str(i)}, name, stale_badge(console, marks[i]) if i in marks else "")
                       for i, name in zip(ids, names, strict=False)])


def _refusal(console: Console, errors: dict[str, str]) -> Any:
    """Why a status move was refused; a refusal for want of money links to the role's Add Funds page."""
    message = errors.get("balance") or errors.get("ends_at") or errors.get("status")
    if not message:
        return ""
    funds_path = (console.path("funds.add") or console.path("funds")) if "balance" in errors \
        else None
    return html.div({"className": "alert alert-danger small d-flex flex-wrap gap-2 align-items-center",
                     "role": "alert", "data-refusal": "status"},
                    html.span(message),
                    app_link({"to": funds_path, "className": "alert-link", "data-action": "add-funds"},
                             console.t("campaigns.add_funds")) if funds_path else "")


@component
def CampaignViewPage() -> Any:
    console = use_console()
    t = console.t
    campaign_id = use_subject_id()
    query = use_query(campaigns.describe_campaign, actor=console.actor, campaign_id=campaign_id,
                      language=console.language, deps=[campaign_id, console.language])
    asking, set_asking = use_state(None)
    move = use_action(campaigns.set_status, success=lambda c: t(f"campaigns.now_{c.status}", name=c.name),
                      on_done=lambda _c: query.reload())
    tidy = use_action(campaigns.remove_stale_targeting, success="campaigns.stale_removed",
                      on_done=lambda _c: query.reload())
    if query.loading:
        return loading_page(t, t("campaigns.view_title"))
    found: CampaignDescription | None = query.value
    if found is None:
        return html.div(page_header(t("campaigns.view_title")), not_found(console))
    campaign, names, stale = found.campaign, found.names, found.stale
    targeting = campaign.targeting
    everyone = t("campaigns.no_narrowing")

    def clean(_event: Any) -> None:
        tidy.submit(actor=console.actor, campaign_id=campaign_id)

    def go_to(status: str) -> None:
        set_asking(None)
        move.submit(actor=console.actor, campaign_id=campaign_id, status=status)

    buttons = [html.button({"type": "button", "key": status.value, "data-move": status.value, "disabled": move.pending,
                            "className": "btn btn-sm " + ("btn-outline-danger" if status == CampaignStatus.ARCHIVED
                                                          else "btn-outline-primary"),
                            "onClick": lambda _e, s=status, ask=ask: set_asking(s.value) if ask else go_to(s.value)},
                           html.i({"className": f"bi {icon} me-1"}), t(label))
               for status, label, icon, ask in MOVES if status.value in campaign.next_statuses]
    zone = campaign.time_zone
    strategy = t(f"campaigns.strategy.{campaign.bid_strategy}")
    schedule = schedule_text(t, targeting.dayparting) or t("campaigns.daypart_all")
    fence = [p for p in targeting.geo_fence.split("|") if p.strip()]
    ids: dict[str, list[int]] = targeting.model_dump(include=set(REFERENCE_KEYS))
    return html.div(
        {"data-page": "campaign-view"},
        page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"}, campaign.name,
                              status_badge(console, campaign.shown_status)),
                    f"{campaign.advertiser} · #{campaign.id}", *buttons, back_to_list(console)),
        campaign_tabs(console, campaign.id, campaign.status, current="campaign.view"),
        _refusal(console, move.errors),
        html.div({"className": "alert alert-warning small d-flex flex-wrap gap-2 align-items-center",
                  "data-stale-note": ""},
                 html.span(t("campaigns.stale_view_note")),
                 html.button({"type": "button", "className": "btn btn-sm btn-outline-dark ms-auto",
                              "data-action": "remove-stale", "disabled": tidy.pending, "onClick": clean},
                             t("campaigns.stale_remove"))) if stale and campaign.status != CampaignStatus.ARCHIVED
        else "",
        html.div({"className": "row g-4"},
                 html.div({"className": "col-12"},
                          DeliveryCheckCard(campaign.id, f"{campaign.status}:{campaign.updated_at}")),
                 html.div({"className": "col-xl-6"},
                          card(_facts([
                              (t("campaigns.field.objective"), t(f"campaigns.objective.{campaign.objective}")),
                              (t("campaigns.field.traffic_type"), traffic_label(console, campaign.traffic_type)),
                              (t("campaigns.field.starts_at"), flight_value(campaign.starts_at, zone, end=False, between=" ")),
                              (t("campaigns.field.ends_at"), flight_value(campaign.ends_at, zone, end=True, between=" ")
                               or t("campaigns.no_end")),
                              (t("campaigns.field.time_zone"), zone),
                              (t("campaigns.col.updated_at"), campaign.updated_at[:16].replace("T", " ") + " UTC"),
                          ]), title=t("campaigns.section_basics"))),
                 html.div({"className": "col-xl-6"},
                          card(_facts([
                              (t("campaigns.field.total_budget"), _money(console, campaign.total_budget)),
                              (t("campaigns.field.daily_budget"), _money(console, campaign.daily_budget)),
                              (t("campaigns.field.pacing"), t(f"campaigns.pacing.{campaign.pacing}")),
                              (t("campaigns.field.bid"), f"{_money(console, campaign.bid)} {strategy}"),
                              (t("campaigns.bid_range"), f"{_money(console, campaign.bid_min)} – "
                                                         f"{_money(console, campaign.bid_max)}"
                               if campaign.bid_min or campaign.bid_max else "—"),
                              (t("campaigns.field.frequency_cap"),
                               t("campaigns.summary_cap", count=campaign.frequency_cap,
                                 period=t(f"campaigns.period.{campaign.frequency_period}"))
                               if campaign.frequency_cap else t("campaigns.no_cap")),
                              (t("campaigns.field.goal_metric"),
                               goal_text(console, campaign.goal_metric, campaign.goal_target)),
                          ]), title=t("campaigns.section_budget"))),
                 html.div({"className": "col-xl-8"},
                          card(_facts([
                              (t("campaigns.field.countries"), _list(names["countries"], t("campaigns.everywhere"))),
                              (t("campaigns.field.regions"), _list(names["regions"], "—")),
                              (t("campaigns.field.cities"), _list(names["cities"], "—")),
                              (t("campaigns.field.geo_fence"), t("campaigns.summary_points", count=len(fence))
                               if fence else "—"),
                              (t("campaigns.field.languages"), _list(names["languages"], everyone)),
                              (t("campaigns.field.device_types"),
                               _list([t(f"campaigns.device.{d}") for d in targeting.device_types], everyone)),
                              *[(t(f"campaigns.field.{key}"), _marked(console, names[key], ids[key],
                                                                      stale.get(key, []), everyone))
                                for key in REFERENCE_KEYS],
                              (t("applists.target_allow"), _list(names["inventory_allow"], "—")),
                              (t("applists.target_block"), _list(names["inventory_block"], "—")),
                              (t("campaigns.field.smart_app_lists"), _list(names["smart_apps"], "—")),
                              (t("campaigns.schedule"), schedule),
                          ]), title=t("campaigns.section_targeting")),
                          CampaignAudiencesCard(campaign.id, key=campaign.updated_at)),
                 html.div({"className": "col-xl-4 d-flex flex-column gap-4"},
                          CampaignCreativesCard(campaign, query.reload), CampaignExchangesCard(campaign_id),
                          DspSyncCard("campaign", campaign_id) if shows_dsps(console.actor) else ""),
                 ),
        ConfirmDialog(t(f"campaigns.confirm_{asking}_title"), t(f"campaigns.confirm_{asking}", name=campaign.name),
                      t("campaigns.archive" if asking == CampaignStatus.ARCHIVED else "campaigns.complete"),
                      t("common.cancel"), lambda: go_to(asking), lambda: set_asking(None))
        if asking else "",
    )
