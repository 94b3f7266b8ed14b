"""/campaign/changelog/{id} (every role that has it): one campaign's history; /admin/CampaignList/changeLog/{id}:
every campaign of one advertiser, each entry naming its campaign. Field by field (old → new; targeting as
added/removed), who did it and "signed in as" when someone acted for them, filtered by date range and by person."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.campaigns.common import back_to_list, campaign_tabs, not_found
from components.ui.change_log import ChangeLogFrame, change_log_page

CampaignChangeLogPage = change_log_page("campaign", ChangeLogFrame(
    "campaign-change-log", back_to_list, not_found,
    tabs=lambda console, campaign_id, campaign: campaign_tabs(console, campaign_id, str(campaign.get("status", "")),
                                                              current=CHANGE_LOGS["campaign"].page)))
AdvertiserCampaignsChangeLogPage = change_log_page("advertiser_campaigns", ChangeLogFrame(
    "advertiser-campaigns-change-log", back_to_list, not_found, title="campaigns.advertiser_log_title",
    column=("campaigns.col.name", "campaign")))
