"""/bulk-campaign-edit (bids, budgets, status, optimisation goal), /bulk-edit-exchanges and the admin's
/admin/bulk-campaign-status: pick campaigns in the grid (the list's selection arrives in ?ids=), say what
changes, apply, and read one result per campaign: applied, or refused with the reason naming the field.
Refused campaigns keep everything as it was; applied ones are in their change logs. Apply names each campaign's
version as the grid showed it (components/ui/bulk.py): one saved since is refused with who changed what."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.access.roles import Role
from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.models import GOAL_METRICS, CampaignStatus
from app.campaigns.schemas import BulkResult
from app.reference import metadata
from components.campaigns.campaign_list import grid_rows
from components.campaigns.common import back_to_list, results_of
from components.ui.bulk import bulk_page
from components.ui.console import Console, use_console
from components.ui.field_store import FieldStore, StoreSelect, StoreText
from components.ui.forms import checkbox_list, switch_field
from components.ui.grid_host import ColumnSpec, declared_columns
from components.ui.hooks import use_query
from components.widgets.datagrid import GridColumn

# Their sum fits the grid's card beside the changes panel at 1366 px (an advertiser's page): no sideways scrolling.
GRID_COLUMNS: tuple[ColumnSpec, ...] = (("name", "text", 160, False), ("advertiser", "text", 130, False),
                                        ("status", "badge", 104, False), ("total_budget", "money", 105, False),
                                        ("daily_budget", "money", 105, False), ("bid", "money", 70, False))
# The groups of settings the bulk edit can change: (group, its fields).
GROUPS = (("bids", ("bid", "bid_min", "bid_max")), ("budget", ("total_budget", "daily_budget")),
          ("status", ("status",)), ("goal", ("goal_metric", "goal_target")))
# Groups whose empty fields keep each campaign's own value (an empty daily budget, by contrast, removes it).
KEEP_WHEN_EMPTY = ("bids",)


def _columns(console: Console) -> list[GridColumn]:
    return declared_columns(lambda key: console.t(f"campaigns.col.{key}"),
                            (c for c in GRID_COLUMNS if not (c[0] == "advertiser" and console.role == Role.ADVERTISER)))


def _campaign_bulk_page(title_key: str, subtitle_key: str, panel_title_key: str, fields: Any, apply: Any,
                        action_fn: Callable[..., list[BulkResult]], initial: dict[str, Any]) -> Any:
    console = use_console()
    return bulk_page(title_key, subtitle_key, panel_title_key, fields, apply, results_of(action_fn), initial,
                     read=campaigns.list_campaigns_page, sorts=campaigns.LIST_COLUMNS, columns=_columns(console),
                     to_rows=grid_rows,
                     back=back_to_list(console), versioned=True)


# --- /bulk-campaign-edit --------------------------------------------------------------------------------

@component
def _Group(store: FieldStore, group: str, body: Any) -> Any:
    """A switch that says whether this group changes; its fields show only when it does."""
    t = use_console().t
    on, set_on = use_state(bool(store.get(f"change.{group}")))

    def switch(value: bool) -> None:
        store.set(f"change.{group}", value)
        set_on(value)

    return html.div({"className": "border-bottom pb-2 mb-3", "data-group": group},
                    switch_field(name=f"change-{group}", label=t(f"campaigns.bulk_group.{group}"), checked=on,
                                 on_change=switch),
                    body if on else "")


def _row(store: FieldStore, errors: dict[str, str], *fields: tuple[str, str], hint: str = "") -> Any:
    t = use_console().t
    return html.div(html.div({"className": "row gx-2"},
                             *[html.div({"className": f"col-{12 // len(fields)}", "key": name},
                                        StoreText(store, name, t(label), error=errors.get(name), key=name))
                               for name, label in fields]),
                    html.div({"className": "form-text mt-0 mb-2"}, hint) if hint else "")


def _edit_fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    statuses = [(s.value, t(f"campaigns.status.{s.value}")) for s in CampaignStatus if s != CampaignStatus.DRAFT]
    goals = [(g, t(f"campaigns.goal.{g}")) for g in GOAL_METRICS]
    return html.div(
        _Group(store, "bids", _row(store, errors, ("bid", "campaigns.field.bid"), ("bid_min", "campaigns.field.bid_min"),
                                   ("bid_max", "campaigns.field.bid_max"), hint=t("campaigns.bulk_bids_hint")),
               key="bids"),
        _Group(store, "budget", _row(store, errors, ("total_budget", "campaigns.field.total_budget"),
                                     ("daily_budget", "campaigns.field.daily_budget")), key="budget"),
        _Group(store, "status", StoreSelect(store, "status", t("campaigns.filter_status"), statuses,
                                            error=errors.get("status")), key="status"),
        _Group(store, "goal", html.div({"className": "row gx-2"},
                                       html.div({"className": "col-7"},
                                                StoreSelect(store, "goal_metric", t("campaigns.field.goal_metric"),
                                                            goals, error=errors.get("goal_metric"))),
                                       html.div({"className": "col-5"},
                                                StoreText(store, "goal_target", t("campaigns.field.goal_target"),
                                                          error=errors.get("goal_target")))), key="goal"),
        html.div({"className": "invalid-feedback d-block mb-2", "data-field-error": "changes"}, errors["changes"])
        if errors.get("changes") else "",
    )


def _apply_edit(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    values = store.snapshot()
    changes = {field: values.get(field, "") for group, fields in GROUPS if values.get(f"change.{group}")
               for field in fields if group not in KEEP_WHEN_EMPTY or str(values.get(field) or "").strip()}
    submit(actor=console.actor, campaign_ids=ids, changes=changes, language=console.language)


@component
def BulkCampaignEditPage() -> Any:
    return _campaign_bulk_page("campaigns.bulk_edit_title", "campaigns.bulk_edit_subtitle", "campaigns.bulk_changes",
                               _edit_fields, _apply_edit, campaign_bulk.bulk_update,
                               {"status": CampaignStatus.PAUSED.value, "goal_metric": "ctr"})


# --- /bulk-edit-exchanges -------------------------------------------------------------------------------

@component
def _ExchangeChoice(store: FieldStore, name: str, label: str, error: str | None) -> Any:
    console = use_console()
    exchanges = use_query(metadata.active_values, actor=console.actor, kind="exchange")
    chosen, set_chosen = use_state(list(store.get(name) or []))

    def change(values: list[int]) -> None:
        store.set(name, values)
        set_chosen(values)

    return checkbox_list(name=name, label=label, options=[(e.id, e.name) for e in exchanges.value or []],
                         selected=chosen, on_change=change, error=error)


def _exchange_fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    return html.div(_ExchangeChoice(store, "add", t("campaigns.bulk_add_exchanges"), errors.get("add"), key="add"),
                    _ExchangeChoice(store, "remove", t("campaigns.bulk_remove_exchanges"), errors.get("remove"),
                                    key="remove"))


def _apply_exchanges(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    submit(actor=console.actor, campaign_ids=ids, add=list(store.get("add") or []),
           remove=list(store.get("remove") or []), language=console.language)


@component
def BulkExchangesPage() -> Any:
    return _campaign_bulk_page("campaigns.bulk_exchanges_title", "campaigns.bulk_exchanges_subtitle",
                               "campaigns.bulk_changes", _exchange_fields, _apply_exchanges, campaign_bulk.bulk_exchanges,
                               {"add": [], "remove": []})


# --- /admin/bulk-campaign-status ------------------------------------------------------------------------

def _status_fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    return StoreSelect(store, "status", t("campaigns.filter_status"),
                       [(s.value, t(f"campaigns.status.{s.value}")) for s in CampaignStatus if s != CampaignStatus.DRAFT],
                       error=errors.get("status"), key="status")


def _apply_status(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    submit(actor=console.actor, campaign_ids=ids, status=str(store.get("status") or ""), language=console.language)


@component
def BulkStatusPage() -> Any:
    return _campaign_bulk_page("campaigns.bulk_status_title", "campaigns.bulk_status_subtitle", "campaigns.bulk_status",
                               _status_fields, _apply_status, campaign_bulk.bulk_status,
                               {"status": CampaignStatus.PAUSED.value})
