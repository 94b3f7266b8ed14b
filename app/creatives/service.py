"""Creatives: the one door pages and the API use. The records (create, read, list, edit, status, archive,
uploads, preview, change log), campaign assignment and bulk edits live in their own modules; every function
checks permission and row scope itself and audits its writes."""

from __future__ import annotations

from app.creatives.bulk import bulk_status, bulk_update
from app.creatives.links import (
    assign_to_campaigns,
    campaign_creatives,
    campaign_creatives_page,
    save_campaign,
    set_campaign_creatives,
)
from app.creatives.records import (
    LIST_SORTS,
    archive_creative,
    create_creative,
    creatives_page,
    get_creative,
    list_creatives,
    list_creatives_page,
    preview,
    set_status,
    update_creative,
    upload_asset,
)

__all__ = [
    "LIST_SORTS",
    "archive_creative",
    "assign_to_campaigns",
    "bulk_status",
    "bulk_update",
    "campaign_creatives",
    "campaign_creatives_page",
    "create_creative",
    "get_creative",
    "creatives_page",
    "list_creatives",
    "list_creatives_page",
    "preview",
    "save_campaign",
    "set_campaign_creatives",
    "set_status",
    "update_creative",
    "upload_asset",
]
