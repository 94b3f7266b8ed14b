"""The card on a campaign's pages (its view, its creatives page) that chooses which of the advertiser's
creatives the campaign shows. A save names the campaign's version as the page showed it: a campaign saved since is
refused, said on the card with a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.campaigns.schemas import CampaignRead
from app.creatives import service as creatives
from app.kernel.errors import Conflict
from components.ui.console import use_console
from components.ui.elements import card
from components.ui.forms import checkbox_list
from components.ui.hooks import use_action, use_query
from components.ui.saved_since import saved_since


@component
def CampaignCreativesCard(campaign: CampaignRead, on_saved: Callable[[], None]) -> Any:
    """Which of the advertiser's creatives the campaign shows. A save names the campaign's version as the page showed it: a campaign saved since is
refused, said on the card with a reload."""
    console = use_console()
    t = console.t
    offered = use_query(creatives.list_creatives, actor=console.actor, advertiser_id=campaign.advertiser_id)
    current = use_query(creatives.campaign_creatives, actor=console.actor, campaign_id=campaign.id)
    unchanged: list[int] | None = None  # nothing chosen yet: the saved choice shows
    chosen, set_chosen = use_state(unchanged)

    def saved(_result: Any) -> None:
        console.toast("success", t("creatives.assignment_saved"))
        current.reload()
        on_saved()

    save = use_action(creatives.set_campaign_creatives, on_done=saved, in_place=(Conflict,))

    def reload() -> None:
        set_chosen(None)
        current.reload()
        on_saved()

    if offered.loading or current.loading:
        return card(html.p({"className": "mb-0"}, t("common.loading")), title=t("creatives.choose_for_campaign"))
    selected = chosen if chosen is not None else [c.id for c in current.value or []]
    options = [(c.id, f"{c.name} · {t('creatives.type.' + c.type)}") for c in offered.value or []]
    return card(
        checkbox_list(name="campaign_creatives", label=t("creatives.choose_for_campaign"), options=options,
                      selected=selected, on_change=set_chosen, error=save.errors.get("creative_ids"),
                      hide_label=True) if options else html.p({"className": "small text-body-secondary"},
                                                              t("creatives.advertiser_has_none")),
        # Nothing to choose, nothing to save: no button then.
        html.button({"type": "button", "className": "btn btn-primary btn-sm", "data-action": "save-assignment",
                     "disabled": save.pending,
                     "onClick": lambda _e: save.submit(actor=console.actor, campaign_id=campaign.id,
                                                       creative_ids=list(selected), version=campaign.version)},
                    t("common.save")) if options else "",
        saved_since(console, save.message, reload),
        title=t("creatives.choose_for_campaign"))
