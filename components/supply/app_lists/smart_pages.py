"""/admin/smart-apps (and co-admin's) with /create, /edit/{list_id}, /view/{list_id}, /changelog/{list_id}: app
lists curated by staff under the app-store taxonomy, chosen category → genre → subgenre (cascading pickers: each
offers only what the choice above it holds). Campaigns of every advertiser may allow the active ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.supply import smart_apps
from app.supply.schemas import SmartAppListRead
from components.supply.app_lists.entries import counts_facts
from components.supply.app_lists.lifecycle import lifecycle_flags
from components.supply.app_lists.list_pages import ListPages, entries_field, list_entity_pages, submit_button
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, page_header
from components.ui.forms import form, select_field, text_field
from components.ui.grid_host import ColumnSpec, declared_columns
from components.ui.hooks import use_query
from components.ui.offset_pages import use_offset_pages

SMART_APPS = list_entity_pages("smartapps", "smartapp", "bi-stars")


def _taxonomy_text(row: SmartAppListRead) -> str:
    return " › ".join(part for part in (row.category, row.genre, row.subgenre) if part)


SMART = ListPages(
    pages=SMART_APPS, service=smart_apps, page="smartapp", id_kw="list_id", data_page="smart-app",
    upload="/api/uploads/smart-app-list", badges=lambda console, row: [], described=_taxonomy_text)
PAGE_SIZE = 50
COLUMNS: tuple[ColumnSpec, ...] = (
    ("name", "text", 220, False), ("category", "text", 150, False), ("genre", "text", 150, False),
    ("subgenre", "text", 130, False), ("status", "badge", 95, False), ("entries", "number", 100, False),
    ("campaign_count", "number", 110, False), ("updated_at", "date", 150, False))
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

    genre_options = [(g.genre_id, g.genre) for g in genres.value or []]
    sub_options = [(s.subgenre_id, s.subgenre) for s in subgenres.value or []]
    return html.div(
        {"className": "row g-3", "data-picker": "taxonomy"},
        html.div({"className": "col-md-4"},
                 select_field(name="category_id", label=t("smartapps.field.category"), value=category,
                              options=[("", t("smartapps.choose"))]
                              + [(c.category_id, c.category) for c in categories.value or []],
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


def _grid_rows(console: Console, rows: list[SmartAppListRead]) -> list[dict[str, Any]]:
    return [{**row.model_dump(), "subgenre": row.subgenre or "—", "status": SMART_APPS.status_cell(console, row.status),
             **lifecycle_flags(row)}
            for row in rows]


@component
def SmartAppListsPage() -> Any:
    console = use_console()
    t = console.t
    pages = use_offset_pages(smart_apps.list_lists_page, filters=[], page_size=PAGE_SIZE, actor=console.actor)
    actions = SMART.use_row_actions(pages)
    return SMART.lists_page(console, data_page="smart-apps", new_action="new-smart-list", pages=pages, actions=actions,
                            columns=declared_columns(lambda key: t(f"smartapps.col.{key}"), COLUMNS),
                            rows=_grid_rows(console, pages.rows))


@component
def CreateSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    name, set_name = use_state("")
    chosen, set_chosen = use_state({"category_id": "", "genre_id": "", "subgenre_id": ""})
    created, action = SMART.use_create_list()
    header = page_header(t("smartapps.new"), t("smartapps.new_subtitle"), SMART_APPS.back_to_list(console))
    if created is not None:
        return SMART.created_page(console, header, created)

    def submit(values: dict[str, Any]) -> None:
        action.submit(actor=console.actor, **chosen, name=values.get("name", name), entries=values.get("entries", ""))

    return html.div(
        {"data-page": "smart-app-create"}, header,
        card(form(submit,
                  text_field(name="name", label=t("applists.field.name"), value=name, on_change=set_name,
                             error=action.errors.get("name"), max_length=120, help_text=t("applists.name_help")),
                  TaxonomyPicker(chosen, set_chosen, action.errors),
                  *entries_field(console, "com.example.game\nid389801252\nexample.com", " mt-2"),
                  submit_button(console, action, "create-smart-list", "applists.create", "btn btn-primary"),
                  name="smart-app-list")),
    )


@component
def ViewSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    list_id, query = SMART.use_list()
    if (shown := SMART.waiting(console, query, "view_title")) is not None:
        return shown
    row = query.value
    return SMART.view_page(console, list_id, SMART.header(console, row),
                           [(t("smartapps.field.category"), row.category),
                            (t("smartapps.field.genre"), row.genre),
                            (t("smartapps.field.subgenre"), row.subgenre or t("smartapps.whole_genre")),
                            *counts_facts(console, row),
                            (t("smartapps.col.campaign_count"), str(row.campaign_count))])


@component
def EditSmartAppListPage() -> Any:
    console = use_console()
    t = console.t
    list_id, query, host, save = SMART.use_edit_list()
    untouched: str | None = None  # nothing typed yet: the saved name shows
    name, set_name = use_state(untouched)
    no_choice: dict[str, str] | None = None
    chosen, set_chosen = use_state(no_choice)
    if (shown := SMART.waiting(console, query, "edit_title")) is not None:
        return shown
    row = query.value
    taxonomy = chosen or {"category_id": row.category_id, "genre_id": row.genre_id, "subgenre_id": row.subgenre_id}

    def submit(values: dict[str, Any]) -> None:
        save.submit(actor=console.actor, list_id=list_id, **taxonomy, name=values.get("name", row.name))

    # The taxonomy picker needs the page's width: settings first, the entries below (inventory's sit beside them).
    return SMART.edit_page(console, list_id, query, host, lambda: [
        card(form(submit,
                  text_field(name="name", label=t("applists.field.name"), value=row.name if name is None else name,
                             on_change=set_name, error=save.errors.get("name"), max_length=120),
                  TaxonomyPicker(taxonomy, set_chosen, save.errors),
                  submit_button(console, save, "save-list", "common.save", "btn btn-primary btn-sm mt-2"),
                  name="smart-app-settings"),
             title=t("applists.settings"), class_name="mb-4"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"}, SMART.entries_editor(list_id, query)),
                 html.div({"className": "col-xl-4"},
                          card(facts(counts_facts(console, row), cell="col-4 mb-0"), title=t("applists.summary"))))])
