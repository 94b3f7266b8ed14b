"""The layout every bulk page shares (campaigns and creatives): the selectable grid of rows beside a panel
saying what changes, and after Apply one result per row: applied, or refused with the reason naming the
field. The list page's selection arrives in ?ids=. After Apply, rows the change took out of the list (archived,
decided) leave the selection too: the next Apply acts only on rows the user can still find in the grid.

Apply names the version of each chosen row as the grid last showed it (the service's `read`): a row someone saved
since is refused with who changed what and when (app/history/versions.py), the others apply."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from reactpy import Ref, component, html, use_ref, use_state
from reactpy_router import use_search_params

from app.kernel.numbered_pages import MAX_PAGE_SIZE
from components.ui.console import Console, use_console
from components.ui.elements import card, page_header
from components.ui.field_store import FieldStore, use_field_store
from components.ui.forms import switch_field
from components.ui.grid_host import selection_labels, sortable_only
from components.ui.hooks import use_action
from components.ui.links import app_link
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridColumn, SelectionDrop, data_grid


def _initial_ids() -> list[str]:
    params = use_search_params()
    return [part for value in params.get("ids", []) for part in value.split(",") if part.isdigit()]


def results_table(console: Console, results: list[dict[str, Any]], unselected: int = 0) -> Any:
    """One line per row Apply acted on; `unselected`: how many of them left the list, and so the selection."""
    t = console.t
    applied = sum(1 for r in results if r["ok"])
    return card(
        html.p({"className": "small mb-2", "data-results": f"{applied}/{len(results)}"},
               t("bulk.applied", applied=applied, total=len(results))),
        html.p({"className": "small mb-2 text-body-secondary", "data-unselected": unselected},
               html.i({"className": "bi bi-info-circle me-1"}), t("bulk.unselected", count=unselected))
        if unselected else "",
        html.div({"className": "table-responsive"},
                 html.table({"className": "table table-sm align-middle mb-0"},
                            html.tbody(*[html.tr({"key": str(r["id"]), "data-result": "ok" if r["ok"] else "refused"},
                                                 html.td({"style": {"width": "2rem"}},
                                                         html.i({"className": "bi bi-check-circle-fill text-success"
                                                                 if r["ok"] else "bi bi-x-circle-fill text-danger"})),
                                                 html.td({"className": "fw-medium"}, r["name"] or f"#{r['id']}"),
                                                 html.td({"className": "small text-body-secondary"},
                                                         t("bulk.ok") if r["ok"] else t(r["message"])))
                                         for r in results]))),
        title=t("bulk.results"))


def left_the_list(db: Any, *, read: Callable[..., Any], actor: Any, ids: tuple[int, ...],
              revision: int) -> SelectionDrop:
    """Which of `ids` the list (`read`, without the grid's search) no longer shows, as the grid's drop: the list's
    own reader decides, so what "still listed" means (not archived, still pending) is declared once, there."""
    listed: set[int] = set()
    for start in range(0, len(ids), MAX_PAGE_SIZE):
        chunk = ids[start:start + MAX_PAGE_SIZE]
        listed.update(row.id for row in read(db, actor=actor, ids=chunk, page=1, page_size=MAX_PAGE_SIZE).rows)
    return SelectionDrop(revision, tuple(str(i) for i in ids if i not in listed))


@component
def ApplyPanel(selection: Ref[Any], title: str, fields: Callable[[FieldStore, dict[str, str]], Any],
               apply: Callable[[Console, FieldStore, list[int], Any], None], action_fn: Any,
               on_applied: Callable[[], None], initial: dict[str, Any], read: Callable[..., Any],
               on_unlisted: Callable[[SelectionDrop], None], seen: Ref[dict[int, int]] | None) -> Any:
    """What changes and the Apply button; re-renders alone as the selection changes. After Apply, it asks the list
    which applied rows it no longer shows and hands them to `on_unlisted` (for the grid to drop). `seen`: the
    version of each row as the grid last showed it, by id (None: the rows are not versioned records)."""
    console = use_console()
    t = console.t
    chosen, set_chosen = use_state(list[int]())
    selection.current = set_chosen
    store = use_field_store(initial)
    no_results: list[dict[str, Any]] | None = None
    results, set_results = use_state(no_results)
    dropped, set_dropped = use_state(SelectionDrop())
    applies = use_ref(0)

    def unlisted(drop: SelectionDrop) -> None:
        set_dropped(drop)
        if drop.keys:  # nothing left the list: the grid (and its rows) need not hear of it
            on_unlisted(drop)

    # use_action, not use_query, for this read: it runs after an Apply (off the event loop), never on a render.
    check = use_action(left_the_list, on_done=unlisted)

    def done(rows: list[dict[str, Any]]) -> None:
        applies.current += 1
        set_results(rows)
        on_applied()
        check.submit(read=read, actor=console.actor, ids=tuple(int(r["id"]) for r in rows), revision=applies.current)

    action = use_action(action_fn, on_done=done)
    ids = [int(i) for i in chosen]

    def submit(**arguments: Any) -> None:
        if seen is None:
            action.submit(**arguments)
            return
        shown = seen.current  # read at the click: the versions of the rows the person is looking at
        action.submit(**arguments, read={i: shown[i] for i in ids if i in shown})
    return html.div(
        {"className": "d-flex flex-column gap-4"},
        card(fields(store, action.errors),
             *[html.div({"className": "invalid-feedback d-block mb-2", "data-field-error": name, "key": name},
                        action.errors[name]) for name in ("campaign_ids", "creative_ids") if action.errors.get(name)],
             html.button({"type": "button", "className": "btn btn-primary w-100", "data-action": "apply-bulk",
                          "disabled": action.pending or not ids,
                          "onClick": lambda _e: apply(console, store, ids, submit)},
                         html.span({"className": "spinner-border spinner-border-sm me-2"}) if action.pending else "",
                         t("bulk.apply", count=len(ids)) if ids else t("bulk.pick")),
             title=title),
        results_table(console, results, len(dropped.keys or ()) if dropped.revision == applies.current else 0)
        if results is not None else "",
    )


Row = TypeVar("Row")  # what the page reader's rows are (a service's schema) that to_rows makes grid rows
PAGE_SIZE = 50


def bulk_page(title_key: str, subtitle_key: str, panel_title_key: str, fields: Any, apply: Any, action_fn: Any,
              initial: dict[str, Any], *, read: Callable[..., Any], sorts: Iterable[str],
              columns: Sequence[GridColumn], to_rows: Callable[[Console, list[Row]], list[dict[str, Any]]],
              back: Any, versioned: bool = False) -> Any:
    """A bulk page: `read(actor=, search=, sort=, page=, page_size=, ids=)` answers one numbered page
    (app/kernel/numbered_pages.NumberedPage; `ids`: only those rows, or None), `to_rows` makes its rows grid rows,
    `fields(store, errors)` draws what changes and `apply(console, store, ids, submit)` calls `action_fn` through
    use_action. `versioned`: the rows are versioned records (each has `id` and `version`): `submit` then adds
    `read`, the version of each chosen row as the grid showed it, which `action_fn` takes (app/campaigns/bulk.py).

    At 10,000 campaigns the grid shows one page. The selection is kept across pages (the JS grid keeps every chosen
    row, data_grid's selection_across_pages), and Apply acts on all of it. Opened with ?ids= (the list page's
    selection), the grid starts on those rows alone ("selected only", as an ads manager's "view selected"), so the
    user sees what Apply will change whatever page or sort they sit on; switching it off browses every row to add
    more. After Apply the rows that left the list (the change archived or decided them) leave the selection, and the
    results say how many; the grid's "Clear selection" drops the rest."""
    console = use_console()
    t = console.t
    first_ids = use_ref(_initial_ids()).current
    chosen: Ref[list[str]] = use_ref(first_ids)  # the latest selection, for "selected only"
    only, set_only = use_state(_ids_of(first_ids) if first_ids else None)
    pages = use_offset_pages(read, filters=[only], page_size=PAGE_SIZE, actor=console.actor, ids=only)
    selection: Ref[Any] = use_ref(None)
    drop, set_drop = use_state(SelectionDrop())
    seen: Ref[dict[int, int]] = use_ref({})  # each row's version as last shown, kept across pages (for Apply)
    if versioned:
        seen.current.update((row.id, row.version) for row in pages.rows)

    def selected(ids: list[str]) -> None:
        chosen.current = ids
        if selection.current:
            selection.current(ids)

    def show_only_selected(on: bool) -> None:
        set_only(_ids_of(chosen.current) if on else None)

    return html.div(
        {"data-page": "bulk"},
        page_header(t(title_key), t(subtitle_key), back),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(switch_field(name="selected-only", label=t("bulk.selected_only"),
                                            checked=only is not None, on_change=show_only_selected),
                               data_grid(columns=sortable_only(list(columns), sorts),
                                         rows=to_rows(console, pages.rows), height=520,
                                         search_placeholder=t("common.search"), empty_text=t("bulk.empty"),
                                         row_count_label=t("grid.rows"), locale=console.language,
                                         loading_text=t("common.loading") if pages.query.loading else None,
                                         on_selection_change=selected, initial_selection=first_ids,
                                         selection_across_pages=True, drop_selection=drop,
                                         select_labels=selection_labels(t),
                                         on_view_change=pages.on_view_change, paging=pages.paging))),
                 html.div({"className": "col-xl-4"},
                          html.div({"className": "dsp-sticky"},
                                   ApplyPanel(selection, t(panel_title_key), fields, apply, action_fn,
                                              pages.query.reload, initial, read, set_drop,
                                              seen if versioned else None)))),
    )


def _ids_of(keys: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted({int(key) for key in keys if key.isdigit()}))


@component
def SelectionBar(host: Ref[Any], pages: Sequence[tuple[str, str, str]], hint_key: str) -> Any:
    """On a list page: what is selected and the bulk `pages` ((page name, label key, icon)) the role has, each
    opened with the selection in ?ids=. Re-renders alone as the selection changes (the grid calls
    `host.current(ids)`)."""
    console = use_console()
    t = console.t
    selected, set_selected = use_state(list[str]())  # the grid's row keys
    host.current = set_selected
    links = [(name, label, icon, path) for name, label, icon in pages if (path := console.path(name))]
    if not links:
        return html.div()
    query = urlencode({"ids": ",".join(selected)})
    return html.div(
        {"className": "d-flex flex-wrap align-items-center gap-2 mb-2 dsp-selection-bar", "data-selection": str(len(selected))},
        html.span({"className": "small text-body-secondary me-1"},
                  t("campaigns.selected", count=len(selected)) if selected else t(hint_key)),
        *[app_link({"to": f"{path}?{query}", "key": name, "data-bulk": name,
                    "className": "btn btn-sm btn-outline-primary" + ("" if selected else " disabled"),
                    "aria-disabled": "false" if selected else "true"},
                   html.i({"className": f"bi {icon} me-1"}), t(label))
          for name, label, icon, path in links],
    )
