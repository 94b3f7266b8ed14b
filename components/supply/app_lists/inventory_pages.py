"""/inventory-list (advertiser), /agency/inventory-list, /admin/inventory-list (and co-admin's): an advertiser's
allow and block lists of apps and domains, with /create, /edit/{applist_id}, /view/{applist_id} and
/changelog/{applist_id}. Entries are typed or uploaded as CSV over HTTP; each batch reports its refused lines."""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.campaigns import service as campaigns
from app.supply import app_lists
from app.supply.models import ListKind, ListStatus
from components.supply.app_lists.entries import (
    EntriesEditor,
    EntriesGrid,
    ExportEntriesButton,
    counts_facts,
    kind_badge,
    result_panel,
)
from components.supply.app_lists.lifecycle import (
    ListLifecycle,
    grid_actions,
    lifecycle_buttons,
    lifecycle_flags,
)
from components.ui import styles
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.entity_pages import EntityPages
from components.ui.forms import form, select_field, text_field
from components.ui.grid_host import use_row_actions
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.routes import use_subject_id
from components.widgets.datagrid import data_grid

APP_LISTS = EntityPages(
    prefix="applists", list_page="applists", icon="bi-list-check",
    variants={ListStatus.ACTIVE: "success", ListStatus.ARCHIVED: "dark"},
    tabs=(("applist.view", "applists.tab_overview", "bi-eye"), ("applist.edit", "applists.tab_edit", "bi-pencil"),
          ("applist.change_log", "applists.tab_change_log", "bi-clock-history")))
COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("name", "text", 220), ("kind", "badge", 90), ("advertiser", "text", 160), ("status", "badge", 95),
    ("apps", "number", 90), ("domains", "number", 90), ("entries", "number", 100), ("campaign_count", "number", 110),
    ("updated_at", "date", 150))


def _advertiser_column(console: Console) -> bool:
    return console.role is not None and console.role.value != "ADVERTISER"


def _grid_rows(console: Console, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    t = console.t
    return [{**row, "kind": {"text": t(f"applists.kind.{row['kind']}"),
                             "variant": "success" if row["kind"] == ListKind.ALLOW else "danger"},
             "status": APP_LISTS.status_cell(console, row["status"]),
             **lifecycle_flags(row)}
            for row in rows]


@component
def InventoryListsPage() -> Any:
    console = use_console()
    t = console.t
    status, set_status = use_state("")
    kind, set_kind = use_state("")
    rows = use_query(app_lists.list_lists, actor=console.actor, status=status, kind=kind, deps=[status, kind])
    actions = use_row_actions(ListLifecycle, rows.value or [], rows.reload, app_lists.set_status,
                              app_lists.delete_list, "applist_id")
    create = console.path("applist.create")
    columns = [{"key": key, "label": t(f"applists.col.{key}"), "type": kind_, "width": width}
               for key, kind_, width in COLUMNS if key != "advertiser" or _advertiser_column(console)]
    return html.div(
        {"data-page": "inventory-lists"},
        page_header(t("applists.title"), t("applists.subtitle"),
                    app_link({"to": create, "className": "btn btn-primary", "data-action": "new-list"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("applists.new")) if create else ""),
        card(
            html.div({"className": "d-flex flex-wrap gap-3 align-items-end mb-1 dsp-filters"},
                     select_field(name="status_filter", label=t("applists.filter_status"), value=status,
                                  options=[("", t("applists.all_statuses"))]
                                  + [(s.value, t(f"applists.status.{s.value}")) for s in ListStatus],
                                  on_change=set_status, class_name="dsp-filter"),
                     select_field(name="kind_filter", label=t("applists.field.kind"), value=kind,
                                  options=[("", t("applists.all_kinds"))]
                                  + [(k.value, t(f"applists.kind.{k.value}")) for k in ListKind],
                                  on_change=set_kind, class_name="dsp-filter")),
            data_grid(columns=columns, rows=_grid_rows(console, rows.value or []), height=520,  # type: ignore[arg-type]
                      search_placeholder=t("common.search"), empty_text=t("applists.empty"),
                      row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                      actions=grid_actions(console, "applist"), on_action=actions.on_action,
                      on_row_click=lambda key: actions.on_action("applist.view", key),
                      loading_text=t("common.loading") if rows.loading else None, storage_key="inventory-lists")),
        actions.elements,
    )


@component
def CreateInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    advertisers = use_query(campaigns.advertiser_choices, actor=console.actor)
    kind, set_kind = use_state(ListKind.ALLOW.value)
    name, set_name = use_state("")
    advertiser, set_advertiser = use_state("")
    created, set_created = use_state(None)
    action = use_action(app_lists.create_list, on_done=lambda r: (
        set_created(r), console.toast("success", t("applists.created", name=r["list"]["name"]))))
    header = page_header(t("applists.new"), t("applists.new_subtitle"), APP_LISTS.back_to_list(console))
    if advertisers.loading:
        return loading_page(t, t("applists.new"))
    if created is not None:
        saved = created["list"]
        return html.div({"data-page": "inventory-list-created"}, header, card(
            html.p({"className": "mb-2"}, t("applists.created_text", name=saved["name"], count=saved["entries"])),
            result_panel(console, created["result"]),
            html.div({"className": "d-flex gap-2 mt-3"},
                     *[app_link({"to": path, "key": name, "data-action": name,
                                 "className": "btn btn-sm " + ("btn-primary" if name == "applist.edit" else "btn-outline-secondary")},
                                t(label))
                       for name, label in (("applist.edit", "applists.add_more"), ("applist.view", "applists.tab_overview"))
                       if (path := console.path(name, id=saved["id"]))]),
            title=saved["name"]))
    choices = advertisers.value or []
    chosen = advertiser or (str(choices[0]["id"]) if choices else "")
    staff = _advertiser_column(console)

    def submit(values: dict[str, Any]) -> None:
        whose = values.get("advertiser_id") or chosen
        action.submit(actor=console.actor, data={"name": values.get("name", ""), "kind": values.get("kind") or kind,
                                                 "entries": values.get("entries", "")},
                      advertiser_id=int(whose) if staff and whose else None)

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
                  html.label({"className": styles.FORM_LABEL, "htmlFor": "field-entries"}, t("applists.entries")),
                  html.textarea({"id": "field-entries", "name": "entries", "rows": 8, "defaultValue": "",
                                 "className": "form-control font-monospace small",
                                 "placeholder": "com.example.app\nid389801252\nexample.com"}),
                  html.div({"className": "form-text mb-3"}, t("applists.create_entries_help")),
                  html.button({"type": "submit", "className": "btn btn-primary", "data-action": "create-list",
                               "disabled": action.pending}, t("applists.create")),
                  name="inventory-list")),
    )


def use_list(applist_id: int) -> Any:
    console = use_console()
    return use_query(app_lists.get_list, actor=console.actor, applist_id=applist_id, deps=[applist_id])


def _header(console: Console, row: dict[str, Any], *actions: Any) -> Any:
    subtitle = f"{row['advertiser']} · #{row['id']}"
    return page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"}, row["name"],
                                 kind_badge(console, row["kind"]), APP_LISTS.status_badge(console, row["status"])),
                       subtitle, *actions, APP_LISTS.back_to_list(console))


def _campaign_links(console: Console, used: list[dict[str, Any]]) -> Any:
    t = console.t
    if not used:
        return html.p({"className": "small text-body-secondary mb-0", "data-campaigns": "0"}, t("applists.no_campaigns"))
    return html.ul({"className": "list-unstyled mb-0 small", "data-campaigns": str(len(used))},
                   *[html.li({"key": str(c["id"]), "className": "d-flex justify-content-between gap-2 py-1"},
                             app_link({"to": path}, c["name"]) if (path := console.path("campaign.view", id=c["id"]))
                             else c["name"],
                             html.span({"className": "text-body-secondary"},
                                       t(f"campaigns.status.{c['status']}"), " · ", t(f"applists.side.{c['side']}")))
                     for c in used])


@component
def ViewInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    applist_id = use_subject_id()
    query = use_list(applist_id)
    if query.loading:
        return loading_page(t, t("applists.view_title"))
    row = query.value
    if row is None:
        return html.div(page_header(t("applists.view_title")), APP_LISTS.not_found(console))
    return html.div(
        {"data-page": "inventory-list-view"},
        _header(console, row, ExportEntriesButton(applist_id, app_lists.export_entries, "applist_id")),
        APP_LISTS.record_tabs(console, applist_id, current="applist.view"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(EntriesGrid(applist_id, app_lists.list_entries, "applist_id", 0),
                               title=t("applists.entries"))),
                 html.div({"className": "col-xl-4"},
                          card(facts([(t("applists.field.kind"), t(f"applists.kind.{row['kind']}")),
                                      (t("applists.col.status"), t(f"applists.status.{row['status']}")),
                                      *counts_facts(console, row),
                                      (t("applists.col.updated_at"), row["updated_at"][:16].replace("T", " ") + " UTC")]),
                               title=t("applists.summary")),
                          html.div({"className": "mt-4"},
                                   card(_campaign_links(console, row["campaigns"]), title=t("applists.used_by"))))),
    )


@component
def EditInventoryListPage() -> Any:
    console = use_console()
    t = console.t
    applist_id = use_subject_id()
    query = use_list(applist_id)
    host: Ref[Any] = use_ref(None)
    untouched: str | None = None  # nothing chosen or typed yet: the saved values show
    kind, set_kind = use_state(untouched)
    name, set_name = use_state(untouched)
    save = use_action(app_lists.update_list, on_done=lambda r: (
        console.toast("success", t("applists.saved", name=r["name"])), query.reload()))
    if query.loading:
        return loading_page(t, t("applists.edit_title"))
    row = query.value
    if row is None:
        return html.div(page_header(t("applists.edit_title")), APP_LISTS.not_found(console))
    lifecycle = ListLifecycle(host, [row], query.reload, app_lists.set_status, app_lists.delete_list, "applist_id",
                              after_delete="applists")
    header = _header(console, row, *lifecycle_buttons(console, row, host))
    if row["status"] == ListStatus.ARCHIVED:
        return html.div({"data-page": "inventory-list-edit"}, header,
                        APP_LISTS.record_tabs(console, applist_id, current="applist.edit"),
                        card(html.p({"className": "mb-0", "data-state": "archived"}, t("applists.archived_read_only"))),
                        lifecycle)
    shown_kind = kind or row["kind"]

    def submit(values: dict[str, Any]) -> None:
        save.submit(actor=console.actor, applist_id=applist_id,
                    data={"name": values.get("name", row["name"]), "kind": values.get("kind") or shown_kind})

    return html.div(
        {"data-page": "inventory-list-edit"}, header,
        APP_LISTS.record_tabs(console, applist_id, current="applist.edit"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          EntriesEditor(applist_id, app_lists.change_entries, "applist_id", "/api/uploads/inventory-list",
                                        "applist_id", query.reload)),
                 html.div({"className": "col-xl-4"},
                          card(form(submit,
                                    text_field(name="name", label=t("applists.field.name"),
                                               value=row["name"] if name is None else name,
                                               on_change=set_name, error=save.errors.get("name"), max_length=120),
                                    select_field(name="kind", label=t("applists.field.kind"), value=shown_kind,
                                                 on_change=set_kind, error=save.errors.get("kind"),
                                                 options=[(k.value, t(f"applists.kind.{k.value}")) for k in ListKind],
                                                 help_text=t(f"applists.kind_help.{shown_kind}")),
                                    html.button({"type": "submit", "className": "btn btn-primary btn-sm",
                                                 "data-action": "save-list", "disabled": save.pending}, t("common.save")),
                                    name="inventory-list-settings"),
                               title=t("applists.settings")),
                          html.div({"className": "mt-4"},
                                   card(facts(counts_facts(console, row), cell="col-4 mb-0"), title=t("applists.summary"))),
                          html.div({"className": "mt-4"},
                                   card(_campaign_links(console, row["campaigns"]), title=t("applists.used_by"))))),
        lifecycle,
    )
