"""A change log as a timeline table: when, what, who (and who was really behind it), field changes; and THE
change-log page, one component for every kind declared in app.history.change_log.CHANGE_LOGS, filterable by date
range and by person. Each area gives its kind's page its frame (ChangeLogFrame: back link, tabs, not found)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from reactpy import component, html, use_state
from reactpy_router import use_params

from app.history import change_log, restore, schemas
from app.history.schemas import ChangeLogEntry, ChangeLogPerson
from components.ui.change_values import change_item, label, when
from components.ui.console import Console, use_console
from components.ui.elements import card, empty_state, loading_page, page_header
from components.ui.forms import select_field, text_field
from components.ui.hooks import use_query
from components.ui.restore_dialog import RestoreDialog


def _restored_from(console: Console, entry: ChangeLogEntry, dates: dict[int, str]) -> Any:
    """Under a restore's badge: which change it set back (its time, when that entry is among those shown)."""
    if entry.restores is None:
        return ""
    shown = when(dates[entry.restores]) if entry.restores in dates else f"#{entry.restores}"
    return html.div({"className": "small text-body-secondary mt-1"},
                    console.t(f"changelog.restores_{entry.action}", when=shown))


def change_log_table(console: Console, entries: Sequence[ChangeLogEntry], *, entity: str = "",
                     subject_label: str = "", subject_key: str = "",
                     restore_button: Callable[[ChangeLogEntry], Any] | None = None) -> Any:
    """`entity` looks labels up under changelog.<entity>. first; `subject_key` adds a column naming what each
    entry is about (an advertiser's log covers many campaigns): the entry model's field of that name;
    `restore_button` adds a last column with each entry's restore button (or nothing)."""
    t = console.t
    if not entries:
        return card(empty_state("bi-clock-history", t("changelog.empty"), "", marker={"data-state": "empty"}))
    dates = {entry.id: entry.date for entry in entries}
    rows = []
    for entry in entries:
        changes = entry.changes
        rows.append(html.tr(
            {"key": str(entry.id), "data-action": entry.action, "data-entry": entry.id},
            html.td({"className": "text-nowrap small text-body-secondary"}, when(entry.date)),
            html.td({"className": "small fw-medium"}, getattr(entry, subject_key, "")) if subject_key else "",
            html.td(html.span({"className": "badge text-bg-light border"},
                              label(console, f"changelog.{entity}.action.{entry.action}", entry.action,
                                    f"changelog.action.{entry.action}")),
                    _restored_from(console, entry, dates)),
            html.td({"className": "small"}, entry.actor,
                    html.div({"className": "text-body-secondary"}, t("changelog.on_behalf", name=entry.on_behalf))
                    if entry.on_behalf else ""),
            html.td({"className": "small"},
                    html.ul({"className": "list-unstyled mb-0"}, *[change_item(console, entity, c) for c in changes])
                    if changes else html.span({"className": "text-body-secondary"}, "—")),
            html.td({"className": "text-end"}, restore_button(entry)) if restore_button else "",
        ))
    return card(html.div({"className": "table-responsive"},
                         html.table({"className": "table table-hover align-middle mb-0 dsp-change-log"},
                                    html.thead(html.tr(html.th(t("changelog.when")),
                                                       html.th(subject_label) if subject_key else "",
                                                       html.th(t("changelog.what")),
                                                       html.th(t("changelog.who")), html.th(t("changelog.changes")),
                                                       html.th(html.span({"className": "visually-hidden"},
                                                                         t("restore.button")))
                                                       if restore_button else "")),
                                    html.tbody(*rows))))


def filters(console: Console, people: list[ChangeLogPerson], values: dict[str, str], set_values: Any) -> Any:
    """The date range and person filters above a change log."""
    t = console.t

    def change(name: str, value: str) -> None:
        set_values(lambda v: {**v, name: value})

    return html.div(
        {"className": "d-flex flex-wrap gap-3 align-items-end mb-3 dsp-filters", "data-filters": "change-log"},
        html.div({"className": "dsp-filter"},
                 text_field(name="since", label=t("changelog.since"), kind="date", value=values["since"],
                            on_change=lambda v: change("since", v))),
        html.div({"className": "dsp-filter"},
                 text_field(name="until", label=t("changelog.until"), kind="date", value=values["until"],
                            on_change=lambda v: change("until", v))),
        select_field(name="user", label=t("changelog.person"), value=values["user"], class_name="dsp-filter mb-3",
                     options=[("", t("changelog.anyone"))] + [(str(p.id), p.name) for p in people],
                     on_change=lambda v: change("user", v)),
        html.button({"type": "button", "className": "btn btn-link btn-sm mb-3", "data-action": "clear-filters",
                     "onClick": lambda _e: set_values({"since": "", "until": "", "user": ""})},
                    t("changelog.clear")) if any(values.values()) else "",
    )


PAGE_SIZE = 50  # entries a change-log page shows: a long history is read (and rendered) a page at a time


@dataclass(frozen=True)
class FilteredLog:
    """A change log as its page reads it: the query, the filter values and their setter, and the cursors of the
    pages walked so far (the first page's is None; the last is the page shown) and their setter."""

    query: Any
    values: dict[str, str]
    set_values: Callable[[Any], Any]
    cursors: tuple[str | None, ...]
    set_cursors: Callable[[Any], Any]


def use_filtered_log(fn: Any, **kwargs: Any) -> FilteredLog:
    """The query of `fn(since=, until=, user_id=, limit=PAGE_SIZE, cursor=, **kwargs)`, a page at a time. A new
    filter starts again from the first page (in the same event), so a cursor is never sent with another filter's
    list (the service would refuse it)."""
    values, set_values = use_state({"since": "", "until": "", "user": ""})
    cursors, set_cursors = use_state((None,))
    # A date being typed is not a date yet: only whole ISO dates filter.
    since = values["since"] if len(values["since"]) == 10 else ""
    until = values["until"] if len(values["until"]) == 10 else ""
    query = use_query(fn, since=since, until=until, user_id=int(values["user"]) if values["user"] else None,
                      limit=PAGE_SIZE, cursor=cursors[-1], deps=[*kwargs.values(), since, until, values["user"],
                                                                   cursors[-1]], **kwargs)

    def set_filters(update: Any) -> None:
        set_cursors((None,))
        set_values(update)

    return FilteredLog(query, values, set_filters, cursors, set_cursors)


def pager(console: Console, *, page: int, total: int, size: int, newer: Callable[[], Any] | None,
          older: Callable[[], Any] | None) -> Any:
    """Previous / "Page n of m" / next under a list read a page at a time; nothing when it fits on one."""
    t = console.t
    if total <= size and page == 1:
        return ""

    def button(direction: str, label: str, arrow: str, go: Callable[[], Any] | None) -> Any:
        # An arrow as text, as the grid's pager has it: no icon font glyph to add for it.
        return html.button({"type": "button", "className": "btn btn-outline-secondary btn-sm py-0", "aria-label": label,
                            "title": label, "data-action": f"{direction}-page", "disabled": go is None,
                            "onClick": lambda _e: go() if go else None}, arrow)

    return html.nav({"className": "d-flex align-items-center justify-content-end gap-2 mt-2", "data-pager": str(page)},
                    button("previous", t("grid.previous_page"), "‹", newer),
                    html.span({"className": "small text-body-secondary"},
                              t("grid.page", page=page, pages=max(1, -(-total // size)))),
                    button("next", t("grid.next_page"), "›", older))


@dataclass(frozen=True)
class ChangeLogFrame:
    """What one kind's change-log page shows around the log, from its area: `marker` (data-page), the link back to
    its list, what a missing record shows, and the tabs of the record's other pages (given the record's id and
    the log's subject, as its kind's `shown` dumps it). `column`: (label key, entry field) of a column naming
    what each entry is about."""

    marker: str
    back: Callable[[Console], Any]
    not_found: Callable[[Console], Any]
    tabs: Callable[[Console, int, dict[str, Any]], Any] | None = None
    title: str = "changelog.title"
    column: tuple[str, str] | None = None


def change_log_page(kind: str, frame: ChangeLogFrame) -> Callable[[], Any]:
    """The page component of the change log `kind` (its routes' {id} is the record's): PAGE_SIZE entries at a
    time, newest first, by the log's cursor (change_log.page); a new filter starts again from the newest."""
    entity = change_log.CHANGE_LOGS[kind].entity

    @component
    def ChangeLogPage() -> Any:
        console = use_console()
        t = console.t
        restores_as = restore.record_kind(kind)  # whose restorer its entries' restore buttons use, if any
        record_id = int(use_params().get("id", 0))
        found = use_filtered_log(change_log.page, actor=console.actor, kind=kind, record_id=record_id)
        query, cursors, set_cursors = found.query, found.cursors, found.set_cursors
        restoring, set_restoring = use_state(cast(ChangeLogEntry | None, None))  # the entry being restored
        if query.value is None:
            return loading_page(t, t(frame.title)) if query.loading or not query.failed else \
                html.div(page_header(t(frame.title)), frame.not_found(console))
        log: schemas.ChangeLogPage = query.value
        column_label, key = frame.column or ("", "")
        shown_cursor, next_cursor = cursors[-1], log.next_cursor

        def older() -> None:  # a second click before the page came is not a page further
            set_cursors(lambda walked: (*walked, next_cursor) if walked[-1] == shown_cursor else walked)

        def restore_button(entry: ChangeLogEntry) -> Any:
            if not restore.offered(kind, [c.field for c in entry.changes]):
                return ""
            return html.button({"type": "button", "className": "btn btn-outline-secondary btn-sm text-nowrap",
                                "data-action": "restore-entry", "title": t("restore.button_title"),
                                "onClick": lambda _e: set_restoring(entry)},
                               html.i({"className": "bi bi-arrow-counterclockwise me-1"}), t("restore.button"))

        def restored() -> None:  # the restore is the newest entry: show the first page, read anew
            set_restoring(None)
            if len(cursors) > 1:
                set_cursors((None,))  # a new cursor is a new read
            else:
                query.reload()

        return html.div(
            {"data-page": frame.marker},
            page_header(t(frame.title), log.subject.name, frame.back(console)),
            frame.tabs(console, record_id, log.subject.model_dump()) if frame.tabs else "",
            filters(console, log.people, found.values, found.set_values),
            change_log_table(console, log.entries, entity=entity,
                             subject_label=t(column_label) if column_label else "", subject_key=key,
                             restore_button=restore_button if restore.can_restore(console.actor, kind) else None),
            pager(console, page=len(cursors), total=log.total or 0, size=PAGE_SIZE,
                  newer=(lambda: set_cursors(lambda walked: walked[:-1] or (None,))) if len(cursors) > 1 else None,
                  older=older if next_cursor and not query.loading else None),
            # A log of many records (every campaign of an advertiser) restores each entry as its record's own.
            RestoreDialog(restores_as, record_id if restores_as == kind else int(restoring.entity_id), restoring,
                          on_done=restored, on_close=lambda: set_restoring(None),
                          key=f"restore-{restoring.id}") if restoring and restores_as else "",
        )

    ChangeLogPage.__name__ = ChangeLogPage.__qualname__ = f"ChangeLogPage_{kind}"
    return ChangeLogPage
