"""Pieces the campaign pages share: status badges, the tabs between one campaign's pages, the back link
and the not-found state (components/ui/entity_pages.py, declared here for campaigns)."""

from __future__ import annotations

from typing import Any

from app.models.campaign import ENDED, CampaignStatus
from components.shell.context import Console
from components.ui.entity_pages import EntityPages

S = CampaignStatus
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


def campaign_tabs(console: Console, campaign: dict[str, Any], *, current: str) -> Any:
    """An archived campaign is read-only: no edit tab."""
    return CAMPAIGNS.record_tabs(console, campaign["id"], current=current,
                                 hidden={"campaign.edit"} if campaign["status"] == S.ARCHIVED else ())
