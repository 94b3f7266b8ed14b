"""/inventory-list (advertiser), /agency/inventory-list, /admin/inventory-list (and co-admin's): an advertiser's
allow and block lists of apps and domains, with /create, /edit/{applist_id}, /view/{applist_id} and
/changelog/{applist_id}. Entries are typed or uploaded as CSV over HTTP; each batch reports its refused lines."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.campaigns import service as campaigns
from app.supply import app_lists
from app.supply.models import ListKind, ListStatus
from app.supply.schemas import CampaignUse, InventoryListRead
from components.supply.app_lists.entries import ExportEntriesButton, counts_facts, kind_badge
from components.supply.app_lists.lifecycle import lifecycle_flags
from components.supply.app_lists.list_pages import ListPages, entries_field, list_entity_pages, submit_button
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.forms import form, select_field, text_field
from components.ui.grid_host import ColumnSpec, declared_columns
from components.ui.hooks import use_query
from components.ui.links import app_link
from components.ui.offset_pages import use_offset_pages

APP_LISTS = list_entity_pages("applists", "applist", "bi-list-check")
INVENTORY = ListPages(
    pages=APP_LISTS, service=app_lists, page="applist", id_kw="applist_id", data_page="inventory-list",
    upload="/api/uploads/inventory-list", badges=lambda console, row: [kind_badge(console, row.kind)],
    described=lambda row: row.advertiser)
PAGE_SIZE = 50
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 220, False), ("kind", "badge", 90, False), ("advertiser", "text", 160, False),
    ("status", "badge", 95, False), ("apps", "number", 90, False), ("domains", "number", 90, False),
    ("entries", "number", 100, False), ("campaign_count", "number", 110, False),
    ("updated_at", "date", 150, False))


def _advertiser_column(console: Console) -> bool:
    return console.role is not None and console.role.value != "ADVERTISER"


def _grid_rows(console: Console, rows: list[InventoryListRead]) -> list[dict[str, Any]]:
    t = console.t
    return [{**row.model_dump(), "kind": {"text": t(f"applists.kind.{row.kind}"),
                                          "variant": "success" if row.kind == ListKind.ALLOW else "danger"},
             "status": APP_LISTS.status_cell(console, row.status),
             **lifecycle_flags(row)}
            for row in rows]


@component
def InventoryListsPage() -> Any:
    console = use_console()
    t = console.t
    status, set_status = use_state("")
    kind, set_kind = use_state("")
    pages = use_offset_pages(app_lists.list_lists_page, filters=[status, kind], page_size=PAGE_SIZE,
                             actor=console.actor, status=status, kind=kind)
    actions = INVENTORY.use_row_actions(pages)
    return INVENTORY.lists_page(
        console, data_page="inventory-lists", new_action="new-list", pages=pages, actions=actions,
        columns=declared_columns(lambda key: t(f"applists.col.{key}"),
                                 (c for c in COLUMNS if c[0] != "advertiser" or _advertiser_column(console))),
        rows=_grid_rows(console, pages.rows),
        filters=html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                         select_field(name="status_filter", label=t("applists.filter_status"), value=status,
                                      options=[("", t("applists.all_statuses"))]
                                      + [(s.value, t(f"applists.status.{s.value}")) for s in ListStatus],
                                      on_change=set_status, class_name="dsp-filter"),
                         select_field(name="kind_filter", label=t("applists.field.kind"), value=kind,
                                      options=[("", t("applists.all_kinds"))]
                                      + [(k.value, t(f"applists.kind.{k.value}")) for k in ListKind],
                                      on_change=set_kind, class_name="dsp-filter")))


@component
def CreateInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    advertisers = use_query(campaigns.advertiser_choices, actor=console.actor)
    kind, set_kind = use_state(ListKind.ALLOW.value)
    name, set_name = use_state("")
    advertiser, set_advertiser = use_state("")
    created, action = INVENTORY.use_create_list()
    header = page_header(t("applists.new"), t("applists.new_subtitle"), APP_LISTS.back_to_list(console))
    if advertisers.loading:
        return loading_page(t, t("applists.new"))
    if created is not None:
        return INVENTORY.created_page(console, header, created)
    choices = [a.model_dump() for a in advertisers.value or []]
    chosen = advertiser or (str(choices[0]["id"]) if choices else "")
    staff = _advertiser_column(console)

    def submit(values: dict[str, Any]) -> None:
        whose = values.get("advertiser_id") or chosen
        action.submit(actor=console.actor, name=values.get("name", ""), kind=values.get("kind") or kind,
                      entries=values.get("entries", ""), advertiser_id=int(whose) if staff and whose else None)

    errors = action.errors
    return html.div(
        {"data-page": "inventory-list-create"}, header,
        card(form(submit,
                  html.div({"className": "row g-3"},
                           html.div({"className": "col-md-4"},
                                    select_field(name="advertiser_id", label=t("campaigns.field.advertiser"), value=chosen,
                                                 options=[(str(a["id"]), a["name"]) for a in choices],
                                                 on_change=set_advertiser, error=errors.get("advertiser_id")))
                           if staff else "",
                           html.div({"className": "col-md-5"},
                                    text_field(name="name", label=t("applists.field.name"), value=name, on_change=set_name,
                                               error=errors.get("name"), max_length=120, help_text=t("applists.name_help"))),
                           html.div({"className": "col-md-3"},
                                    select_field(name="kind", label=t("applists.field.kind"), value=kind, on_change=set_kind,
                                                 options=[(k.value, t(f"applists.kind.{k.value}")) for k in ListKind],
                                                 error=errors.get("kind"), help_text=t(f"applists.kind_help.{kind}")))),
                  *entries_field(console, "com.example.app\nid389801252\nexample.com"),
                  submit_button(console, action, "create-list", "applists.create", "btn btn-primary"),
                  name="inventory-list")),
    )


def _campaign_links(console: Console, used: list[CampaignUse]) -> Any:
    t = console.t
    if not used:
        return html.p({"className": "small text-body-secondary mb-0", "data-campaigns": "0"}, t("applists.no_campaigns"))
    return html.ul({"className": "list-unstyled mb-0 small", "data-campaigns": str(len(used))},
                   *[html.li({"key": str(c.id), "className": "d-flex justify-content-between gap-2 py-1"},
                             app_link({"to": path}, c.name) if (path := console.path("campaign.view", id=c.id))
                             else c.name,
                             html.span({"className": "text-body-secondary"},
                                       t(f"campaigns.status.{c.status}"), " · ", t(f"applists.side.{c.side}")))
                     for c in used])


@component
def ViewInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    applist_id, query = INVENTORY.use_list()
    if (shown := INVENTORY.waiting(console, query, "view_title")) is not None:
        return shown
    row = query.value
    return INVENTORY.view_page(
        console, applist_id,
        INVENTORY.header(console, row, ExportEntriesButton(applist_id, app_lists.export_entries, "applist_id")),
        [(t("applists.field.kind"), t(f"applists.kind.{row.kind}")),
         (t("applists.col.status"), t(f"applists.status.{row.status}")),
         *counts_facts(console, row),
         (t("applists.col.updated_at"), row.updated_at[:16].replace("T", " ") + " UTC")],
        html.div({"className": "mt-4"}, card(_campaign_links(console, row.campaigns), title=t("applists.used_by"))))


@component
def EditInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    applist_id, query, host, save = INVENTORY.use_edit_list()
    untouched: str | None = None  # nothing chosen or typed yet: the saved values show
    kind, set_kind = use_state(untouched)
    name, set_name = use_state(untouched)
    if (shown := INVENTORY.waiting(console, query, "edit_title")) is not None:
        return shown
    row = query.value
    shown_kind = kind or row.kind

    def submit(values: dict[str, Any]) -> None:
        save.submit(actor=console.actor, applist_id=applist_id, name=values.get("name", row.name),
                    kind=values.get("kind") or shown_kind)

    # Inventory's settings sit in a column beside the entries (with who uses the list); smart-app's taxonomy
    # picker needs the page's width, so there the settings come first and the entries below.
    return INVENTORY.edit_page(console, applist_id, query, host, lambda: [html.div(
        {"className": "row g-4"},
        html.div({"className": "col-xl-8"}, INVENTORY.entries_editor(applist_id, query)),
        html.div({"className": "col-xl-4"},
                 card(form(submit,
                           text_field(name="name", label=t("applists.field.name"),
                                      value=row.name if name is None else name,
                                      on_change=set_name, error=save.errors.get("name"), max_length=120),
                           select_field(name="kind", label=t("applists.field.kind"), value=shown_kind,
                                        on_change=set_kind, error=save.errors.get("kind"),
                                        options=[(k.value, t(f"applists.kind.{k.value}")) for k in ListKind],
                                        help_text=t(f"applists.kind_help.{shown_kind}")),
                           submit_button(console, save, "save-list", "common.save", "btn btn-primary btn-sm"),
                           name="inventory-list-settings"),
                      title=t("applists.settings")),
                 html.div({"className": "mt-4"},
                          card(facts(counts_facts(console, row), cell="col-4 mb-0"), title=t("applists.summary"))),
                 html.div({"className": "mt-4"},
                          card(_campaign_links(console, row.campaigns), title=t("applists.used_by")))))])
