"""/creatives, /agency/creative, /admin/creative (and co-admin's): every creative the actor may see, with a
"New creative" dialog (the spec gives creatives no page of their own for creating); and the creatives of one
campaign at /agency/CampaignList/creativeList/{id} and /admin/CampaignList/creative-list/{id}, where the
campaign's creatives are also chosen.

The list's grid shows one page (creatives.list_creatives_page, as the campaign list: at 10,000 creatives only the
page's rows are read and sent); its sort, search and the type and status filters are SQL, the total a COUNT. The
selection is the shown page's, as on the campaign list; the bulk pages open with it. One campaign's creatives are
few, so that grid gets them whole."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state
from reactpy_router import use_params

from app.campaigns import service as campaigns
from app.creatives import service as creatives
from app.creatives.models import CreativeStatus, CreativeType
from app.creatives.schemas import CreativeRead
from components.campaigns.common import back_to_list as back_to_campaigns
from components.campaigns.common import not_found as campaign_not_found
from components.campaigns.creatives_card import CampaignCreativesCard
from components.creatives.common import as_json, size_text, status_cell
from components.creatives.creative_form import CreativeForm
from components.ui.bulk import SelectionBar
from components.ui.console import Console, use_console
from components.ui.elements import card, loading_page, page_header, slot
from components.ui.forms import select_field
from components.ui.grid_host import (
    ARCHIVE,
    ColumnSpec,
    StatusRowActions,
    declared_columns,
    selection_labels,
    sortable_only,
    use_row_actions,
)
from components.ui.hooks import use_query
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, data_grid

ALL = ""
GRID_HEIGHT_PX = 560
PAGE_SIZE = 50
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 220, False), ("type", "text", 95, False), ("advertiser", "text", 150, False),
    ("status", "badge", 95, False), ("active", "toggle", 64, False), ("size", "text", 120, False),
    ("click_url", "text", 220, True), ("updated_at", "date", 150, False), ("id", "number", 70, True))
BULK_PAGES = (("creative.bulk_edit", "creatives.bulk_edit", "bi-pencil-square"),
              ("creative.bulk_status", "creatives.bulk_status", "bi-toggles"))


def grid_columns(console: Console, *, advertiser_column: bool) -> list[GridColumn]:
    return declared_columns(lambda key: console.t(f"creatives.col.{key}"),
                            (c for c in COLUMNS if advertiser_column or c[0] != "advertiser"))


# The row switch and archiving (shared with campaigns) read the rows and the moved creative as JSON, like the grid.
SET_STATUS = as_json(creatives.set_status)


def grid_rows(console: Console, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The grid's rows from the creatives as JSON (CreativeRow.model_dump())."""
    t = console.t
    return [{**row, "type": t(f"creatives.type.{row['type']}"), "status": status_cell(console, row["status"]),
             "size": size_text(row["width"], row["height"], row["duration_ms"]),
             "active": {"on": row["status"] == CreativeStatus.ACTIVE,
                        "enabled": row["status"] != CreativeStatus.ARCHIVED,
                        "label": t("campaigns.pause" if row["status"] == CreativeStatus.ACTIVE else "campaigns.activate")},
             "can_archive": row["status"] != CreativeStatus.ARCHIVED}
            for row in rows]


def grid_actions(console: Console) -> list[GridAction]:
    t = console.t
    actions: list[GridAction] = [
        {"id": "creative.view", "label": t("creatives.tab_overview"), "icon": "bi-eye"},
        {"id": "creative.change_log", "label": t("creatives.tab_change_log"), "icon": "bi-clock-history", "menu": True},
        {"id": ARCHIVE, "label": t("campaigns.archive"), "icon": "bi-archive", "variant": "danger",
         "when": "can_archive", "menu": True}]
    return [a for a in actions if a["id"] == ARCHIVE or console.path(a["id"], id=0)]


@component
def _NewCreativeDialog(on_close: Callable[[], None], on_created: Callable[[CreativeRead], None]) -> Any:
    console = use_console()
    t = console.t
    advertisers = use_query(campaigns.advertiser_choices, actor=console.actor)
    return html.div(
        html.div({"className": "modal-backdrop fade show"}),
        html.div({"className": "modal fade show d-block", "role": "dialog", "aria-modal": "true",
                  "aria-label": t("creatives.new"), "tabIndex": -1, "data-dialog": "new-creative"},
                 html.div({"className": "modal-dialog modal-xl modal-dialog-scrollable"},
                          html.div({"className": "modal-content border-0 shadow"},
                                   html.div({"className": "modal-header"},
                                            html.h2({"className": "modal-title h5"}, t("creatives.new")),
                                            html.button({"type": "button", "className": "btn-close",
                                                         "aria-label": t("common.close"),
                                                         "onClick": lambda _e: on_close()})),
                                   html.div({"className": "modal-body"},
                                            CreativeForm(creative=None, advertisers=[a.model_dump() for a in advertisers.value],
                                                         on_saved=on_created, on_cancel=on_close)
                                            if advertisers.value else
                                            html.p({"className": "mb-0"}, t("common.loading")
                                                   if advertisers.loading else t("campaigns.no_advertisers")))))),
    )


def _advertiser_column(console: Console) -> bool:
    return console.role is not None and console.role.value != "ADVERTISER"


@component
def CreativeListPage() -> Any:
    console = use_console()
    t = console.t
    type_filter, set_type_filter = use_state(ALL)
    status, set_status = use_state(ALL)
    adding, set_adding = use_state(False)
    pages = use_offset_pages(creatives.list_creatives_page, filters=[type_filter, status], page_size=PAGE_SIZE,
                             actor=console.actor, type=type_filter, status=status)
    listed = pages.query
    shown = [row.model_dump() for row in pages.rows]
    selection: Ref[Any] = use_ref(None)
    actions = use_row_actions(StatusRowActions, shown, listed.reload, SET_STATUS, "creative_id", "creatives")
    bulk = any(console.path(name) for name, _l, _i in BULK_PAGES)

    def created(creative: CreativeRead) -> None:
        set_adding(False)
        console.toast("success", t("creatives.created", name=creative.name))
        listed.reload()

    return html.div(
        {"data-page": "creatives"},
        page_header(t("creatives.title"), t("creatives.subtitle"),
                    html.button({"type": "button", "className": "btn btn-primary", "data-action": "new-creative",
                                 "onClick": lambda _e: set_adding(True)},
                                html.i({"className": "bi bi-plus-lg me-1"}), t("creatives.new"))),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="type_filter", label=t("creatives.field.type"), value=type_filter,
                                  options=[(ALL, t("creatives.all_types"))]
                                  + [(k.value, t(f"creatives.type.{k.value}")) for k in CreativeType],
                                  on_change=set_type_filter, class_name="dsp-filter"),
                     select_field(name="status_filter", label=t("campaigns.filter_status"), value=status,
                                  options=[(ALL, t("campaigns.all_but_archived"))]
                                  + [(s.value, t(f"creatives.status.{s.value}")) for s in CreativeStatus],
                                  on_change=set_status, class_name="dsp-filter")),
            SelectionBar(selection, BULK_PAGES, "creatives.select_hint") if bulk else "",
            # The grid's final height is held before its bundle has drawn it (as on the campaign list).
            slot(
                data_grid(columns=sortable_only(grid_columns(console, advertiser_column=_advertiser_column(console)),
                                                creatives.LIST_SORTS),
                          rows=grid_rows(console, shown), height=GRID_HEIGHT_PX, search_placeholder=t("common.search"),
                          empty_text=t("creatives.empty"), row_count_label=t("grid.rows"), more_label=t("grid.more"),
                          locale=console.language, actions=grid_actions(console), on_action=actions.on_action,
                          on_row_click=lambda key: actions.on_action("creative.view", key),
                          loading_text=t("common.loading") if listed.loading else None,
                          on_selection_change=(lambda ids: selection.current and selection.current(ids)) if bulk else None,
                          select_labels=selection_labels(t),
                          columns_label=t("grid.columns"), storage_key="creatives",
                          on_view_change=pages.on_view_change, paging=pages.paging),
                f"calc({GRID_HEIGHT_PX}px + 5rem)"),
        ),
        actions.elements,
        _NewCreativeDialog(lambda: set_adding(False), created) if adding else "",
    )


# --- one campaign's creatives ---------------------------------------------------------------------------

@component
def CampaignCreativesPage() -> Any:
    console = use_console()
    t = console.t
    campaign_id = int(use_params().get("id", 0))
    campaign = use_query(campaigns.get_campaign, actor=console.actor, campaign_id=campaign_id, deps=[campaign_id])
    rows = use_query(creatives.list_creatives, actor=console.actor, campaign_id=campaign_id, deps=[campaign_id])
    shown = [row.model_dump() for row in rows.value or []]
    actions = use_row_actions(StatusRowActions, shown, rows.reload, SET_STATUS, "creative_id", "creatives")
    if campaign.loading:
        return loading_page(t, t("creatives.campaign_title"))

    def reload() -> None:  # the campaign too: its new version is what the card's next save names
        rows.reload()
        campaign.reload()

    if campaign.value is None:
        return html.div(page_header(t("creatives.campaign_title")), campaign_not_found(console))
    return html.div(
        {"data-page": "campaign-creatives"},
        page_header(t("creatives.campaign_title"), campaign.value.name, back_to_campaigns(console)),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(data_grid(columns=grid_columns(console, advertiser_column=False),
                                         rows=grid_rows(console, shown), height=420,
                                         empty_text=t("creatives.campaign_empty"), row_count_label=t("grid.rows"),
                                         more_label=t("grid.more"), locale=console.language,
                                         actions=grid_actions(console), on_action=actions.on_action,
                                         on_row_click=lambda key: actions.on_action("creative.view", key),
                                         loading_text=t("common.loading") if rows.loading else None))),
                 html.div({"className": "col-xl-4"}, CampaignCreativesCard(campaign.value, reload))),
        actions.elements,
    )
