"""Pieces the campaign pages share: status badges, the tabs between one campaign's pages, the back link
and the not-found state (components/ui/entity_pages.py, declared here for campaigns)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from app.campaigns.models import ENDED, CampaignStatus
from app.campaigns.schemas import BulkResult
from app.kernel.i18n.formatters import grouped, money
from components.ui.console import Console
from components.ui.entity_pages import EntityPages

S = CampaignStatus
# Goal targets in dollars; the others (CTR, VCR) are percentages (the form's goal help says the same).
MONEY_GOALS = ("cpa", "cpi")
# One campaign's pages, in the order their tabs show. Each role gets the tabs its route table has (an
# agency has no clone page, an advertiser no per-campaign creative list).
CAMPAIGNS = EntityPages(
    prefix="campaigns", list_page="campaigns", icon="bi-megaphone",
    variants={S.DRAFT: "secondary", S.ACTIVE: "success", S.PAUSED: "warning", S.COMPLETED: "info", S.ARCHIVED: "dark",
              ENDED: "light"},
    tabs=(("campaign.view", "campaigns.tab_overview", "bi-eye"), ("campaign.edit", "campaigns.tab_edit", "bi-pencil"),
          ("campaign.clone", "campaigns.tab_clone", "bi-copy"),
          ("campaign.creatives", "campaigns.tab_creatives", "bi-images"),
          ("campaign.change_log", "campaigns.tab_change_log", "bi-clock-history")))
status_badge, status_cell = CAMPAIGNS.status_badge, CAMPAIGNS.status_cell
back_to_list, not_found = CAMPAIGNS.back_to_list, CAMPAIGNS.not_found


def campaign_tabs(console: Console, campaign_id: int, status: str, *, current: str) -> Any:
    """One campaign's tabs; an archived campaign is read-only: no edit tab."""
    return CAMPAIGNS.record_tabs(console, campaign_id, current=current,
                                 hidden={"campaign.edit"} if status == S.ARCHIVED else ())


def bare_label(label: str) -> str:
    """A form label without the unit it carries for typing ("Bid ($)" -> "Bid"): a shown value has its unit."""
    return label.replace(" ($)", "")


def goal_text(console: Console, metric: str, target: str | None) -> str:
    """The optimisation goal with its target in its unit: "Cost per action (CPA) · $18.00", "... (CTR) · 1.5%"."""
    name = console.t(f"campaigns.goal.{metric}")
    try:
        value = Decimal(str(target or "").strip())
    except InvalidOperation:  # still being typed in the form: shown as typed
        return f"{name} · {target}" if metric != "none" and target else name
    if metric == "none" or not target:
        return name
    if metric in MONEY_GOALS:
        return f"{name} · {money(value, language=console.language)}"
    decimals = max(0, -int(value.normalize().as_tuple().exponent))
    return f"{name} · {grouped(float(value), language=console.language, decimals=decimals)}%"


def results_of(action_fn: Callable[..., list[BulkResult]]) -> Callable[..., list[dict[str, Any]]]:
    """A bulk service for the bulk page's results table (components/ui/bulk.py), which reads rows as JSON."""
    def run(db: Any, **kwargs: Any) -> list[dict[str, Any]]:
        return [row.model_dump() for row in action_fn(db, **kwargs)]
    return run
