"""Pieces the campaign pages share: status badges, the tabs between one campaign's pages, the back link
and the not-found state."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.models.campaign import CampaignStatus
from components.paths import page_path
from components.shell.context import Console
from components.ui.elements import card, empty_state
from components.ui.links import app_link

STATUS_VARIANTS = {CampaignStatus.DRAFT: "secondary", CampaignStatus.ACTIVE: "success",
                   CampaignStatus.PAUSED: "warning", CampaignStatus.COMPLETED: "info",
                   CampaignStatus.ARCHIVED: "dark"}

# One campaign's pages, in the order their tabs show: (page name, label key, icon). Each role gets the
# tabs its route table has (an agency has no clone page, for instance).
CAMPAIGN_PAGES: tuple[tuple[str, str, str], ...] = (
    ("campaign.view", "campaigns.tab_overview", "bi-eye"),
    ("campaign.edit", "campaigns.tab_edit", "bi-pencil"),
    ("campaign.clone", "campaigns.tab_clone", "bi-copy"),
    ("campaign.change_log", "campaigns.tab_change_log", "bi-clock-history"),
)


def status_badge(console: Console, status: str) -> Any:
    return html.span({"className": f"badge text-bg-{STATUS_VARIANTS.get(CampaignStatus(status), 'secondary')}",
                      "data-status": status}, console.t(f"campaigns.status.{status}"))


def status_cell(console: Console, status: str) -> dict[str, str]:
    """A status as the data grid's badge value."""
    return {"text": console.t(f"campaigns.status.{status}"),
            "variant": STATUS_VARIANTS.get(CampaignStatus(status), "secondary")}


def back_to_list(console: Console) -> Any:
    path = page_path("campaigns", console.role)
    return app_link({"to": path, "className": "btn btn-outline-secondary btn-sm"},
                    html.i({"className": "bi bi-arrow-left me-1"}), console.t("campaigns.back")) if path else ""


def not_found(console: Console) -> Any:
    return card(empty_state("bi-megaphone", console.t("campaigns.not_found"), console.t("campaigns.not_found_hint"),
                            back_to_list(console), marker={"data-state": "not-found"}))


def campaign_tabs(console: Console, campaign: dict[str, Any], *, current: str) -> Any:
    """Tabs to the other pages about the same campaign that the role has; editing and cloning only where the
    campaign allows it (an archived one is read-only)."""
    items = []
    for name, label_key, icon in CAMPAIGN_PAGES:
        if name == "campaign.edit" and campaign["status"] == CampaignStatus.ARCHIVED:
            continue
        path = page_path(name, console.role, id=campaign["id"])
        if path is None:
            continue
        active = name == current
        items.append(html.li({"className": "nav-item", "key": name},
                             app_link({"to": path, "className": "nav-link" + (" active" if active else ""),
                                       "aria-current": "page" if active else "false", "data-tab": name},
                                      html.i({"className": f"bi {icon} me-1"}), console.t(label_key))))
    return html.ul({"className": "nav nav-pills dsp-subnav mb-4"}, *items)
