"""Pieces the audience pages share (components/ui/entity_pages.py, declared here for audiences): status badges,
the tabs between one audience's pages, the back link, the not-found state, and how a size reads."""

from __future__ import annotations

from typing import Any

from app.supply.models import AudienceStatus
from app.supply.schemas import AudienceRead, AudienceRow
from components.ui.console import Console
from components.ui.entity_pages import EntityPages

AUDIENCES = EntityPages(
    prefix="audiences", list_page="audiences", icon="bi-people",
    variants={AudienceStatus.ACTIVE: "success", AudienceStatus.INACTIVE: "secondary"},
    tabs=(("audience.view", "audiences.tab_overview", "bi-eye"),
          ("audience.change_log", "audiences.tab_change_log", "bi-clock-history")))
status_badge, status_cell = AUDIENCES.status_badge, AUDIENCES.status_cell
back_to_list, not_found = AUDIENCES.back_to_list, AUDIENCES.not_found


def audience_tabs(console: Console, audience_id: int, *, current: str) -> Any:
    return AUDIENCES.record_tabs(console, audience_id, current=current)


def size_text(console: Console, audience: AudienceRead | AudienceRow) -> str:
    """"12,408 devices" or "315 events in 30 days": a retargeting audience's size counts events (the
    statistics store counts events, not people), and says so."""
    count = f"{audience.size:,}"
    if audience.size_unit == "events":
        return console.t("audiences.size_events", count=count, days=audience.lookback_days)
    return console.t("audiences.size_devices", count=count)


def definition_text(console: Console, audience: AudienceRead | AudienceRow) -> str:
    """What the audience is made of: "Device-id list" or "purchase · last 30 days"."""
    if audience.kind == "retargeting":
        event = console.t("audiences.event_conversion") if audience.event == "conversion" else audience.event
        return console.t("audiences.retargeting_definition", event=event, days=audience.lookback_days)
    return console.t("audiences.kind.device_ids")
