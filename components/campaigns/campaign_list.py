"""/campaign, /agency/campaign, /admin/campaign (and co-admin's): every campaign the actor may see; and one
advertiser's campaigns at /agency/campaignList/{id} and /admin/CampaignList/{id}.

The JS grid shows one page of the list (campaigns.list_campaigns_page: at 10,000 campaigns only the page's rows
are read and sent); sorting, the search and the status filter (archived campaigns only when asked for) are SQL,
and the total is a COUNT. Choosing columns and selecting stay in the browser. The switch in the Active column pauses and resumes; row actions
open the campaign's pages; archiving asks first. Selected campaigns go to the bulk pages the role has.
"""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html, use_ref, use_state
from reactpy_router import use_params

from app.access.roles import Role
from app.accounts import users
from app.campaigns import service as campaigns
from app.campaigns.models import ENDED, CampaignStatus
from app.campaigns.schemas import CampaignListRow
from components.campaigns.campaign_form import traffic_label
from components.campaigns.common import status_cell
from components.campaigns.export import ExportButton
from components.ui.bulk import SelectionBar
from components.ui.console import Console, use_console
from components.ui.elements import card, page_header, slot
from components.ui.forms import select_field
from components.ui.grid_host import (
    ARCHIVE,
    ColumnSpec,
    StatusRowActions,
    declared_columns,
    selection_labels,
    use_row_actions,
)
from components.ui.hooks import use_query
from components.ui.links import app_link
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, GridView, data_grid

ALL = ""
ARCHIVED_TOO = "all"
S = CampaignStatus
# The status filter's choices, as the list shows statuses: an ended flight is "ended" (campaigns.list_campaigns).
SHOWN_STATUSES = (S.DRAFT.value, S.ACTIVE.value, S.PAUSED.value, ENDED, S.COMPLETED.value, S.ARCHIVED.value)
GRID_HEIGHT_PX = 560
PAGE_SIZE = 50
# (key, grid type, width, hidden until chosen); "advertiser" is left out for an advertiser's own list.
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 180, False), ("advertiser", "text", 150, False), ("status", "badge", 110, False),
    ("active", "toggle", 64, False), ("objective", "text", 120, True), ("starts_at", "day", 125, False),
    ("ends_at", "day", 125, False), ("total_budget", "money", 115, False), ("daily_budget", "money", 115, True),
    ("bid", "money", 85, False), ("bid_strategy", "text", 80, True), ("traffic_type", "text", 90, True),
    ("updated_at", "date", 150, True), ("id", "number", 80, True),
)
# Each role's bulk pages, as offered for a selection: (page name, label key, icon).
BULK_PAGES = (("campaign.bulk_edit", "campaigns.bulk_edit", "bi-pencil-square"),
              ("campaign.bulk_exchanges", "campaigns.bulk_exchanges", "bi-diagram-3"),
              ("campaign.bulk_status", "campaigns.bulk_status", "bi-toggles"))


def grid_columns(console: Console) -> list[GridColumn]:
    t = console.t
    shown = [c for c in COLUMNS if not (c[0] == "advertiser" and console.role == Role.ADVERTISER)]
    return declared_columns(lambda key: t(f"campaigns.col.{key}"), shown)


def grid_rows(console: Console, rows: list[CampaignListRow]) -> list[dict[str, Any]]:
    """List rows as the JS grid takes them (JSON), with the shown labels, switch and row-action flags."""
    t = console.t
    editable = console.path("campaign.edit", id=0) is not None
    # An ended flight shows as ended; it can still be paused, not activated (campaigns.next_statuses). Its days are
    # the campaign's own (date-only text, which the grid shows as is, not in the browser's zone).
    return [{**row.model_dump(), "starts_at": row.starts_on, "ends_at": row.ends_on,
             "status": status_cell(console, row.shown_status),
             "active": {"on": row.status == CampaignStatus.ACTIVE,
                        "enabled": row.status == CampaignStatus.ACTIVE or (
                            row.status in (CampaignStatus.DRAFT, CampaignStatus.PAUSED) and row.shown_status != ENDED),
                        "label": t("campaigns.pause" if row.status == CampaignStatus.ACTIVE else "campaigns.activate")},
             "objective": t(f"campaigns.objective.{row.objective}"),
             "bid_strategy": t(f"campaigns.strategy.{row.bid_strategy}"),
             "traffic_type": traffic_label(console, row.traffic_type),
             "can_edit": editable and row.status != CampaignStatus.ARCHIVED,
             "can_archive": row.status != CampaignStatus.ARCHIVED}
            for row in rows]


def set_status_row(db: Any, *, actor: Any, campaign_id: int, status: str) -> dict[str, Any]:
    """campaigns.set_status for the grid's row actions (components/ui/grid_host.py), which read rows as JSON."""
    return campaigns.set_status(db, actor=actor, campaign_id=campaign_id, status=status).model_dump()


def grid_actions(console: Console) -> list[GridAction]:
    t = console.t
    actions: list[GridAction] = [{"id": "campaign.view", "label": t("campaigns.tab_overview"), "icon": "bi-eye"},
                                 {"id": "campaign.edit", "label": t("campaigns.tab_edit"), "icon": "bi-pencil",
                                  "when": "can_edit"},
                                 {"id": "campaign.clone", "label": t("campaigns.tab_clone"), "icon": "bi-copy",
                                  "menu": True},
                                 {"id": "campaign.change_log", "label": t("campaigns.tab_change_log"),
                                  "icon": "bi-clock-history", "menu": True},
                                 {"id": ARCHIVE, "label": t("campaigns.archive"), "icon": "bi-archive",
                                  "variant": "danger", "when": "can_archive", "menu": True}]
    return [a for a in actions if a["id"] == ARCHIVE or console.path(a["id"], id=0)]


@component
def CampaignListPage() -> Any:
    console = use_console()
    t = console.t
    advertiser_id = int(use_params().get("id", 0)) or None
    status, set_status = use_state(ALL)
    pages = use_offset_pages(campaigns.list_campaigns_page, filters=[status, advertiser_id], page_size=PAGE_SIZE,
                             actor=console.actor, advertiser_id=advertiser_id,
                             status="" if status in (ALL, ARCHIVED_TOO) else status,
                             include_archived=status == ARCHIVED_TOO)
    shown = pages.query
    rows = pages.rows
    advertiser = use_query(users.get_user, actor=console.actor, user_id=advertiser_id or 0,
                           deps=[advertiser_id]) if advertiser_id else None
    view: Ref[GridView] = use_ref(GridView())
    selection_host: Ref[Any] = use_ref(None)
    actions = use_row_actions(StatusRowActions, [row.model_dump() for row in rows], shown.reload,
                              set_status_row, "campaign_id", "campaigns")

    def selection_changed(ids: list[str]) -> None:
        if selection_host.current:
            selection_host.current(ids)

    def view_changed(new: GridView) -> None:
        view.current = new
        pages.on_view_change(new)

    columns = grid_columns(console)
    create_path = console.path("campaign.create")
    subtitle = (t("campaigns.subtitle_advertiser", name=advertiser.value.name)
                if advertiser is not None and advertiser.value else t("campaigns.subtitle"))
    status_options = [(ALL, t("campaigns.all_but_archived"))] + \
        [(s, t(f"campaigns.status.{s}")) for s in SHOWN_STATUSES] + [(ARCHIVED_TOO, t("campaigns.all_statuses"))]
    bulk = any(console.path(name) for name, _l, _i in BULK_PAGES)
    return html.div(
        {"data-page": "campaigns"},
        page_header(t("campaigns.title"), subtitle,
                    ExportButton(view, status=status, advertiser_id=advertiser_id, columns=columns),
                    app_link({"to": create_path, "className": "btn btn-primary", "data-action": "new-campaign"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("campaigns.new")) if create_path else ""),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="status_filter", label=t("campaigns.filter_status"), value=status,
                                  options=status_options, on_change=set_status,
                                  class_name="dsp-filter")),
            SelectionBar(selection_host, BULK_PAGES, "campaigns.select_hint") if bulk else "",
            # The grid's final height (its toolbar, 560 px of rows, its footer) is held before its bundle has drawn
            # it, so the footer does not jump down the first screen when it does.
            slot(
                data_grid(columns=columns, rows=grid_rows(console, rows), height=GRID_HEIGHT_PX,
                          search_placeholder=t("common.search"), empty_text=t("campaigns.empty"),
                          row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                          actions=grid_actions(console), on_action=actions.on_action,
                          on_row_click=lambda key: actions.on_action("campaign.view", key),
                          loading_text=t("common.loading") if shown.loading else None,
                          on_selection_change=selection_changed if bulk else None,
                          select_labels=selection_labels(t),
                          columns_label=t("grid.columns"), storage_key="campaigns", on_view_change=view_changed,
                          paging=pages.paging),
                f"calc({GRID_HEIGHT_PX}px + 5rem)"),
        ),
        actions.elements,
    )
