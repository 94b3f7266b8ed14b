"""The page half of the one list lifecycle (app/supply/list_lifecycle.py): the frames an inventory list's and a
smart-app list's pages share (the grid with its row actions, the created panel, the view page, the edit page with
its archived-is-read-only branch). Each list kind declares a ListPages of what differs and fills the frames with
its own columns and fields: inventory's kind and advertiser, smart-app's taxonomy picker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from reactpy import Ref, html, use_ref, use_state

from app.supply.models import ListStatus
from app.supply.schemas import InventoryListRead, ListCreated, SmartAppListRead
from components.supply.app_lists.entries import EntriesEditor, EntriesGrid, result_panel
from components.supply.app_lists.lifecycle import ListLifecycle, ListRow, grid_actions, lifecycle_buttons
from components.ui import styles
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.entity_pages import EntityPages
from components.ui.grid_host import sortable_only, use_row_actions
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.offset_pages import OffsetPages
from components.ui.routes import use_subject_id
from components.widgets.datagrid import GridColumn, data_grid


def list_entity_pages(prefix: str, page: str, icon: str) -> EntityPages:
    """A list kind's record pages: catalog `prefix` (also its list page's name), route names `<page>.view` etc."""
    return EntityPages(
        prefix=prefix, list_page=prefix, icon=icon, variants={ListStatus.ACTIVE: "success", ListStatus.ARCHIVED: "dark"},
        tabs=((f"{page}.view", "applists.tab_overview", "bi-eye"), (f"{page}.edit", "applists.tab_edit", "bi-pencil"),
              (f"{page}.change_log", "applists.tab_change_log", "bi-clock-history")))


Created = ListCreated[InventoryListRead] | ListCreated[SmartAppListRead]


@dataclass(frozen=True)
class ListPages:
    """What one list kind's pages differ in; the rest of their frames is this module's."""
    pages: EntityPages
    service: ModuleType  # list_lists_page, LIST_SORTS, get_list, create_list, update_list, set_status, delete_list, *_entries, entries_page
    page: str  # its route names' prefix: "<page>.view", "<page>.edit", "<page>.create"
    id_kw: str  # the service functions' name for the list's id
    data_page: str  # data-page of its pages: "<data_page>-view", "-edit", "-create", "-created"
    upload: str  # where its entries' CSV goes
    badges: Callable[[Console, Any], list[Any]]  # shown before the status badge (given the kind's Read)
    described: Callable[[Any], str]  # the header's subtitle, before the list's number

    @property
    def text(self) -> str:
        """Its catalog prefix ("applists", "smartapps"); keys both kinds share live under "applists"."""
        return self.pages.prefix

    def header(self, console: Console, row: ListRow, *actions: Any) -> Any:
        return page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"},
                                     row.name, *self.badges(console, row),
                                     self.pages.status_badge(console, row.status)),
                           f"{self.described(row)} · #{row.id}", *actions, self.pages.back_to_list(console))

    def lists_page(self, console: Console, *, data_page: str, new_action: str, pages: OffsetPages, actions: Any,
                   columns: list[GridColumn], rows: list[dict[str, Any]], filters: Any = "") -> Any:
        """The list page: a header with its "new" button, the grid of one page (the service's list_lists_page, its
        search and sort on the server) with the lifecycle's row actions."""
        t = console.t
        create = console.path(f"{self.page}.create")
        return html.div(
            {"data-page": data_page},
            page_header(t(f"{self.text}.title"), t(f"{self.text}.subtitle"),
                        app_link({"to": create, "className": "btn btn-primary", "data-action": new_action},
                                 html.i({"className": "bi bi-plus-lg me-1"}), t(f"{self.text}.new")) if create else ""),
            card(filters,
                 data_grid(columns=sortable_only(columns, self.service.LIST_SORTS), rows=rows, height=520,
                           search_placeholder=t("common.search"), empty_text=t(f"{self.text}.empty"),
                           row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                           actions=grid_actions(console, self.page), on_action=actions.on_action,
                           on_row_click=lambda key: actions.on_action(f"{self.page}.view", key),
                           loading_text=t("common.loading") if pages.query.loading else None, storage_key=data_page,
                           on_view_change=pages.on_view_change, paging=pages.paging)),
            actions.elements,
        )

    def use_row_actions(self, pages: OffsetPages) -> Any:
        """The list grid's row actions: its pages, and archive, restore and delete after asking."""
        return use_row_actions(ListLifecycle, pages.rows, pages.query.reload, self.service.set_status,
                               self.service.delete_list, self.id_kw)

    def use_create_list(self) -> tuple[Created | None, Any]:
        """The create page's action, and what it created (None until then)."""
        console = use_console()
        nothing_yet: Created | None = None
        created, set_created = use_state(nothing_yet)
        action = use_action(self.service.create_list, success=lambda r: console.t("applists.created",
                                                                                  name=r.list.name),
                            on_done=set_created)
        return created, action

    def created_page(self, console: Console, header: Any, created: Created) -> Any:
        """After creating: what the entries gave, and the way on to add more or look at the list."""
        t = console.t
        saved = created.list
        edit, view = f"{self.page}.edit", f"{self.page}.view"
        return html.div({"data-page": f"{self.data_page}-created"}, header, card(
            html.p({"className": "mb-2"}, t("applists.created_text", name=saved.name, count=saved.entries)),
            result_panel(console, created.result),
            html.div({"className": "d-flex gap-2 mt-3"},
                     *[app_link({"to": path, "key": page, "data-action": page,
                                 "className": "btn btn-sm " + ("btn-primary" if page == edit else "btn-outline-secondary")},
                                t(label))
                       for page, label in ((edit, "applists.add_more"), (view, "applists.tab_overview"))
                       if (path := console.path(page, id=saved.id))]),
            title=saved.name))

    def use_list(self) -> tuple[int, Any]:
        """The page's list id and its query."""
        console = use_console()
        list_id = use_subject_id()
        return list_id, use_query(self.service.get_list, actor=console.actor, **{self.id_kw: list_id}, deps=[list_id])

    def waiting(self, console: Console, query: Any, title: str) -> Any:
        """While the list loads, or when it is not there (or not the actor's): that page; None once it is shown."""
        t = console.t
        if query.loading:
            return loading_page(t, t(f"{self.text}.{title}"))
        if query.value is None:
            return html.div(page_header(t(f"{self.text}.{title}")), self.pages.not_found(console))
        return None

    def view_page(self, console: Console, list_id: int, header: Any, summary: list[tuple[str, Any]],
                  *aside: Any) -> Any:
        """The view page: header, tabs, the entries' grid beside the summary (and what else the kind shows)."""
        t = console.t
        return html.div(
            {"data-page": f"{self.data_page}-view"}, header,
            self.pages.record_tabs(console, list_id, current=f"{self.page}.view"),
            html.div({"className": "row g-4"},
                     html.div({"className": "col-xl-8"},
                              card(EntriesGrid(list_id, self.service.entries_page, self.id_kw, 0),
                                   title=t("applists.entries"))),
                     html.div({"className": "col-xl-4"}, card(facts(summary), title=t("applists.summary")), *aside)),
        )

    def use_edit_list(self) -> tuple[int, Any, Ref[Any], Any]:
        """The edit page's list id, query, lifecycle host and save action (which reloads the list once saved)."""
        console = use_console()
        list_id, query = self.use_list()
        host: Ref[Any] = use_ref(None)
        save = use_action(self.service.update_list, success=lambda r: console.t("applists.saved", name=r.name),
                          on_done=lambda _r: query.reload())
        return list_id, query, host, save

    def edit_page(self, console: Console, list_id: int, query: Any, host: Ref[Any],
                  body: Callable[[], list[Any]]) -> Any:
        """The edit page: header with archive/restore and delete, tabs, then the kind's fields and entries (`body`);
        an archived list is read-only, so it shows only that it is."""
        row = query.value
        lifecycle = ListLifecycle(host, [row], query.reload, self.service.set_status, self.service.delete_list,
                                  self.id_kw, after_delete=self.pages.list_page)
        content = ([card(html.p({"className": "mb-0", "data-state": "archived"}, console.t("applists.archived_read_only")))]
                   if row.status == ListStatus.ARCHIVED else body())
        return html.div({"data-page": f"{self.data_page}-edit"},
                        self.header(console, row, *lifecycle_buttons(console, row, host)),
                        self.pages.record_tabs(console, list_id, current=f"{self.page}.edit"),
                        *content, lifecycle)

    def entries_editor(self, list_id: int, query: Any) -> Any:
        return EntriesEditor(list_id, self.service.change_entries, self.id_kw, self.upload, self.id_kw, query.reload)


def entries_field(console: Console, placeholder: str, label_class: str = "") -> list[Any]:
    """The create form's first entries, one a line (its label sits under a row of fields or a picker)."""
    t = console.t
    return [html.label({"className": styles.FORM_LABEL + label_class, "htmlFor": "field-entries"}, t("applists.entries")),
            html.textarea({"id": "field-entries", "name": "entries", "rows": 8, "defaultValue": "",
                           "className": "form-control font-monospace small", "placeholder": placeholder}),
            html.div({"className": "form-text mb-3"}, t("applists.create_entries_help"))]


def submit_button(console: Console, action: Any, data_action: str, label: str, class_name: str) -> Any:
    return html.button({"type": "submit", "className": class_name, "data-action": data_action,
                        "disabled": action.pending}, console.t(label))
