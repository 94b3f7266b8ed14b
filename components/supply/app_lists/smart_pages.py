"""/admin/smart-apps (and co-admin's) with /create, /edit/{list_id}, /view/{list_id}, /changelog/{list_id}: app
lists curated by staff under the app-store taxonomy, chosen category → genre → subgenre (cascading pickers: each
offers only what the choice above it holds). Campaigns of every advertiser may allow the active ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from app.supply import smart_apps
from app.supply.models import ListStatus
from components.supply.app_lists.entries import EntriesEditor, EntriesGrid, counts_facts, result_panel
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

SMART_APPS = EntityPages(
    prefix="smartapps", list_page="smartapps", icon="bi-stars",
    variants={ListStatus.ACTIVE: "success", ListStatus.ARCHIVED: "dark"},
    tabs=(("smartapp.view", "applists.tab_overview", "bi-eye"), ("smartapp.edit", "applists.tab_edit", "bi-pencil"),
          ("smartapp.change_log", "applists.tab_change_log", "bi-clock-history")))
COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("name", "text", 220), ("category", "text", 150), ("genre", "text", 150), ("subgenre", "text", 130),
    ("status", "badge", 95), ("entries", "number", 100), ("campaign_count", "number", 110), ("updated_at", "date", 150))
Taxonomy = dict[str, str]


@component
def TaxonomyPicker(chosen: Taxonomy, on_change: Callable[[Taxonomy], None], errors: dict[str, str]) -> Any:
    """Category, then a genre of it, then (optionally) a subgenre of that genre."""
    console = use_console()
    t = console.t
    category, genre = chosen.get("category_id", ""), chosen.get("genre_id", "")
    categories = use_query(smart_apps.categories, actor=console.actor)
    genres = use_query(smart_apps.genres, actor=console.actor, category_id=category, deps=[category])
    subgenres = use_query(smart_apps.subgenres, actor=console.actor, category_id=category, genre_id=genre,
                          deps=[category, genre])

    def pick(level: str, value: str) -> None:
        below = {"category_id": ("genre_id", "subgenre_id"), "genre_id": ("subgenre_id",), "subgenre_id": ()}[level]
        on_change({**chosen, level: value, **{key: "" for key in below}})

    genre_options = [(g["genre_id"], g["genre"]) for g in genres.value or []]
    sub_options = [(s["subgenre_id"], s["subgenre"]) for s in subgenres.value or []]
    return html.div(
        {"className": "row g-3", "data-picker": "taxonomy"},
        html.div({"className": "col-md-4"},
                 select_field(name="category_id", label=t("smartapps.field.category"), value=category,
                              options=[("", t("smartapps.choose"))]
                              + [(c["category_id"], c["category"]) for c in categories.value or []],
                              on_change=lambda v: pick("category_id", v), error=errors.get("category_id"))),
        html.div({"className": "col-md-4"},
                 select_field(name="genre_id", label=t("smartapps.field.genre"), value=genre,
                              options=[("", t("smartapps.choose") if category else t("smartapps.choose_category_first"))]
                              + genre_options, on_change=lambda v: pick("genre_id", v), error=errors.get("genre_id"))),
        html.div({"className": "col-md-4"},
                 select_field(name="subgenre_id", label=t("smartapps.field.subgenre"), value=chosen.get("subgenre_id", ""),
                              options=[("", t("smartapps.whole_genre") if sub_options else t("smartapps.no_subgenres"))]
                              + sub_options, on_change=lambda v: pick("subgenre_id", v),
                              error=errors.get("subgenre_id"))),
    )


def _grid_rows(console: Console, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**row, "subgenre": row["subgenre"] or "—", "status": SMART_APPS.status_cell(console, row["status"]),
             **lifecycle_flags(row)}
            for row in rows]


@component
def SmartAppListsPage() -> Any:
    console = use_console()
    t = console.t
    rows = use_query(smart_apps.list_lists, actor=console.actor)
    actions = use_row_actions(ListLifecycle, rows.value or [], rows.reload, smart_apps.set_status,
                              smart_apps.delete_list, "list_id")
    create = console.path("smartapp.create")
    return html.div(
        {"data-page": "smart-apps"},
        page_header(t("smartapps.title"), t("smartapps.subtitle"),
                    app_link({"to": create, "className": "btn btn-primary", "data-action": "new-smart-list"},
                             html.i({"className": "bi bi-plus-lg me-1"}), t("smartapps.new")) if create else ""),
        card(data_grid(columns=[{"key": key, "label": t(f"smartapps.col.{key}"), "type": kind, "width": width}  # type: ignore[misc]
                                for key, kind, width in COLUMNS],
                       rows=_grid_rows(console, rows.value or []), height=520, search_placeholder=t("common.search"),
                       empty_text=t("smartapps.empty"), row_count_label=t("grid.rows"), more_label=t("grid.more"),
                       locale=console.language, actions=grid_actions(console, "smartapp"), on_action=actions.on_action,
                       on_row_click=lambda key: actions.on_action("smartapp.view", key),
                       loading_text=t("common.loading") if rows.loading else None, storage_key="smart-apps")),
        actions.elements,
    )


@component
def CreateSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    name, set_name = use_state("")
    chosen, set_chosen = use_state({"category_id": "", "genre_id": "", "subgenre_id": ""})
    created, set_created = use_state(None)
    action = use_action(smart_apps.create_list, on_done=lambda r: (
        set_created(r), console.toast("success", t("applists.created", name=r["list"]["name"]))))
    header = page_header(t("smartapps.new"), t("smartapps.new_subtitle"), SMART_APPS.back_to_list(console))
    if created is not None:
        saved = created["list"]
        return html.div({"data-page": "smart-app-created"}, header, card(
            html.p({"className": "mb-2"}, t("applists.created_text", name=saved["name"], count=saved["entries"])),
            result_panel(console, created["result"]),
            html.div({"className": "d-flex gap-2 mt-3"},
                     *[app_link({"to": path, "key": page, "data-action": page,
                                 "className": "btn btn-sm " + ("btn-primary" if page == "smartapp.edit" else "btn-outline-secondary")},
                                t(label))
                       for page, label in (("smartapp.edit", "applists.add_more"), ("smartapp.view", "applists.tab_overview"))
                       if (path := console.path(page, id=saved["id"]))]),
            title=saved["name"]))

    def submit(values: dict[str, Any]) -> None:
        action.submit(actor=console.actor, data={**chosen, "name": values.get("name", name),
                                                 "entries": values.get("entries", "")})

    return html.div(
        {"data-page": "smart-app-create"}, header,
        card(form(submit,
                  text_field(name="name", label=t("applists.field.name"), value=name, on_change=set_name,
                             error=action.errors.get("name"), max_length=120, help_text=t("applists.name_help")),
                  TaxonomyPicker(chosen, set_chosen, action.errors),
                  html.label({"className": styles.FORM_LABEL + " mt-2", "htmlFor": "field-entries"}, t("applists.entries")),
                  html.textarea({"id": "field-entries", "name": "entries", "rows": 8, "defaultValue": "",
                                 "className": "form-control font-monospace small",
                                 "placeholder": "com.example.game\nid389801252\nexample.com"}),
                  html.div({"className": "form-text mb-3"}, t("applists.create_entries_help")),
                  html.button({"type": "submit", "className": "btn btn-primary", "data-action": "create-smart-list",
                               "disabled": action.pending}, t("applists.create")),
                  name="smart-app-list")),
    )


def _taxonomy_text(row: dict[str, Any]) -> str:
    return " › ".join(part for part in (row["category"], row["genre"], row["subgenre"]) if part)


def _header(console: Console, row: dict[str, Any], *actions: Any) -> Any:
    return page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"}, row["name"],
                                 SMART_APPS.status_badge(console, row["status"])),
                       f"{_taxonomy_text(row)} · #{row['id']}", *actions, SMART_APPS.back_to_list(console))


@component
def ViewSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    list_id = use_subject_id()
    query = use_query(smart_apps.get_list, actor=console.actor, list_id=list_id, deps=[list_id])
    if query.loading:
        return loading_page(t, t("smartapps.view_title"))
    row = query.value
    if row is None:
        return html.div(page_header(t("smartapps.view_title")), SMART_APPS.not_found(console))
    return html.div(
        {"data-page": "smart-app-view"}, _header(console, row),
        SMART_APPS.record_tabs(console, list_id, current="smartapp.view"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(EntriesGrid(list_id, smart_apps.list_entries, "list_id", 0), title=t("applists.entries"))),
                 html.div({"className": "col-xl-4"},
                          card(facts([(t("smartapps.field.category"), row["category"]),
                                      (t("smartapps.field.genre"), row["genre"]),
                                      (t("smartapps.field.subgenre"), row["subgenre"] or t("smartapps.whole_genre")),
                                      *counts_facts(console, row),
                                      (t("smartapps.col.campaign_count"), str(row["campaign_count"]))]),
                               title=t("applists.summary")))),
    )


@component
def EditSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    list_id = use_subject_id()
    query = use_query(smart_apps.get_list, actor=console.actor, list_id=list_id, deps=[list_id])
    host: Ref[Any] = use_ref(None)
    untouched: str | None = None  # nothing typed yet: the saved name shows
    name, set_name = use_state(untouched)
    no_choice: dict[str, str] | None = None
    chosen, set_chosen = use_state(no_choice)
    save = use_action(smart_apps.update_list, on_done=lambda r: (
        console.toast("success", t("applists.saved", name=r["name"])), query.reload()))
    if query.loading:
        return loading_page(t, t("smartapps.edit_title"))
    row = query.value
    if row is None:
        return html.div(page_header(t("smartapps.edit_title")), SMART_APPS.not_found(console))
    lifecycle = ListLifecycle(host, [row], query.reload, smart_apps.set_status, smart_apps.delete_list, "list_id",
                              after_delete="smartapps")
    header = _header(console, row, *lifecycle_buttons(console, row, host))
    if row["status"] == ListStatus.ARCHIVED:
        return html.div({"data-page": "smart-app-edit"}, header,
                        SMART_APPS.record_tabs(console, list_id, current="smartapp.edit"),
                        card(html.p({"className": "mb-0", "data-state": "archived"}, t("applists.archived_read_only"))),
                        lifecycle)
    taxonomy = chosen or {key: row[key] for key in ("category_id", "genre_id", "subgenre_id")}

    def submit(values: dict[str, Any]) -> None:
        save.submit(actor=console.actor, list_id=list_id, data={**taxonomy, "name": values.get("name", row["name"])})

    return html.div(
        {"data-page": "smart-app-edit"}, header,
        SMART_APPS.record_tabs(console, list_id, current="smartapp.edit"),
        card(form(submit,
                  text_field(name="name", label=t("applists.field.name"), value=row["name"] if name is None else name,
                             on_change=set_name, error=save.errors.get("name"), max_length=120),
                  TaxonomyPicker(taxonomy, set_chosen, save.errors),
                  html.button({"type": "submit", "className": "btn btn-primary btn-sm mt-2", "data-action": "save-list",
                               "disabled": save.pending}, t("common.save")),
                  name="smart-app-settings"),
             title=t("applists.settings"), class_name="mb-4"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          EntriesEditor(list_id, smart_apps.change_entries, "list_id", "/api/uploads/smart-app-list",
                                        "list_id", query.reload)),
                 html.div({"className": "col-xl-4"},
                          card(facts(counts_facts(console, row), cell="col-4 mb-0"), title=t("applists.summary")))),
        lifecycle,
    )
