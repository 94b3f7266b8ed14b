"""Data grid: lists beyond ~100 rows are sorted, searched and scrolled in the browser.

Re-rendering a large table in Python resends it on every event (ARCHITECTURE.md); the
`datagrid` JS widget gets the rows once and virtualizes them. Keep a grid in its own small
component so unrelated state changes do not resend its rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

ColumnType = Literal["text", "number", "money", "percent", "date", "day", "badge", "bytes", "toggle"]
Variant = Literal["primary", "secondary", "success", "danger", "warning", "info", "light", "dark"]
DEFAULT_GRID_HEIGHT_PX = 480


class GridColumn(TypedDict):
    """One column. Values: money/number/bytes as numbers or decimal strings, dates as ISO
    strings (shown in the browser's time zone; "day" drops the time), badges as {"text", "variant"} or a string,
    toggles as {"on", "enabled", "label"}: flipping one calls on_action(column["action"], row key)."""

    key: str
    label: str
    type: NotRequired[ColumnType]
    sortable: NotRequired[bool]
    width: NotRequired[int]
    hidden: NotRequired[bool]  # hidden until the user picks it in the column chooser
    action: NotRequired[str]  # toggle columns: the action id their switch runs


class GridAction(TypedDict):
    """A small button in the last column; `icon` is a Bootstrap Icons class ("bi-pencil")."""

    id: str
    label: str
    icon: NotRequired[str]
    variant: NotRequired[Variant]
    when: NotRequired[str]  # show only on rows whose this field is truthy
    menu: NotRequired[bool]  # in the row's "more" menu (icon and label) instead of a button of its own
    slot: NotRequired[str]  # buttons of one slot share a place on every row (enable and disable): default the id


@dataclass(frozen=True)
class GridView:
    """What a grid shows: its visible column keys, the search text and the sort ("-key" descending)."""

    columns: tuple[str, ...] = ()
    query: str = ""
    sort: str = ""

    @classmethod
    def parse(cls, text: Any) -> GridView:
        """From the widget's JSON; anything malformed reads as the default view."""
        try:
            data = json.loads(str(text))
            return cls(tuple(str(c) for c in data.get("columns", [])), str(data.get("query", "")),
                       str(data.get("sort", "")))
        except (ValueError, AttributeError, TypeError):
            return cls()


@dataclass(frozen=True)
class GridListing:
    """Which page of a server-paged list a grid shows: the grid's search and sort, and the page (from 1)."""

    search: str = ""
    sort: str = ""
    page: int = 1

    def seen(self, view: GridView) -> GridListing:
        """After the grid reports `view`: a new search or sort starts again from the first page; a column chosen
        or hidden changes nothing."""
        return self if (self.search, self.sort) == (view.query, view.sort) else GridListing(view.query, view.sort)


@dataclass(frozen=True)
class GridPaging:
    """A grid of one page of `total` rows, which Python sorts and searches (from on_view_change's GridView) and
    pages: `on_page_change(page)` when the user asks for another page (counted from 1). `label` reads "{page}"
    and "{pages}"."""

    total: int
    page: int
    page_size: int
    on_page_change: Callable[[int], Any]
    label: str = "{page} / {pages}"
    previous_label: str = "Previous page"
    next_label: str = "Next page"


@dataclass(frozen=True)
class SelectionDrop:
    """Rows Python takes out of a grid's selection: `keys` (row keys as strings), or every chosen row when None (a
    filter changed, a move ended the choice). The grid acts when `revision` changes, so the same keys can be
    dropped again by a later revision; the first one it is given does nothing (the initial selection holds)."""

    revision: int = 0
    keys: tuple[str, ...] | None = ()


_DataGrid = widget_component("datagrid", "DataGrid")


def data_grid(
    *,
    columns: Sequence[GridColumn],
    rows: Sequence[Mapping[str, Any]],
    row_key: str = "id",
    height: int = DEFAULT_GRID_HEIGHT_PX,
    search_placeholder: str | None = None,
    actions: Sequence[GridAction] = (),
    on_action: Callable[[str, Any], Any] | None = None,
    on_row_click: Callable[[Any], Any] | None = None,
    empty_text: str = "No records",
    row_count_label: str = "{count} rows",
    more_label: str = "More actions",
    locale: str | None = None,
    loading_text: str | None = None,
    key: str | None = None,
    on_selection_change: Callable[[list[str]], Any] | None = None,
    initial_selection: Sequence[str] = (),
    selection_across_pages: bool = False,
    select_labels: tuple[str, str, str, str] = ("Select all", "Select", "{count} selected", "Clear selection"),
    drop_selection: SelectionDrop | None = None,
    columns_label: str | None = None,
    storage_key: str | None = None,
    on_view_change: Callable[[GridView], Any] | None = None,
    paging: GridPaging | None = None,
) -> VdomDict:
    """A sortable, virtualized table of `rows` (dicts keyed by column key).

    `on_action(action_id, row_key_value)` and `on_row_click(row_key_value)` receive the
    row's `row_key` field. A search box over all columns appears when `search_placeholder`
    is given. `locale` (BCP 47 or the app's language code) drives number and date formats;
    `row_count_label` is the footer text with "{count}" replaced; `more_label` names the button that opens
    a row's menu of `menu` actions. `loading_text`, while the rows are still being read, shows where the empty
    text would, so an empty grid never claims "no records" before the answer is in.

    `on_selection_change(row keys as strings)` adds a checkbox column (select one, or all rows the search
    shows), starting with `initial_selection` checked (reported once the grid is up); `select_labels` are the
    select-all and row checkboxes' labels, the footer's "{count} selected" and its button that clears the selection.
    With `paging` and `selection_across_pages`, rows chosen on one page stay chosen on the others (and initial ones
    the page does not show stay chosen): the report names every chosen row, as a bulk page needs; otherwise only the
    shown page's. `drop_selection` takes rows out of the selection from Python (rows that left the list after a bulk
    change, or all of them when a filter changes); the change is reported like the user's own.
    `columns_label` adds a column chooser; the choice is kept in the browser under `storage_key`.
    `on_view_change(GridView)` reports what the user sees (visible columns, search, sort) whenever it
    changes, so an export can match it. Keep selection and view in a ref or a sibling component's state:
    setting the grid's own component state would resend every row. With `paging`, `rows` are one page
    (lists too long to send whole): sorting and searching are Python's, from `on_view_change`.
    """
    props: dict[str, Any] = {
        "columns": [dict(column) for column in columns],
        "rows": list(rows),
        "rowKey": row_key,
        "height": height,
        "actions": [dict(action) for action in actions],
        "emptyText": loading_text or empty_text,
        "rowCountLabel": row_count_label,
        "moreLabel": more_label,
    }
    if on_selection_change is not None:
        props.update(selectable=True, selectAllLabel=select_labels[0], selectRowLabel=select_labels[1],
                     selectedLabel=select_labels[2], clearSelectionLabel=select_labels[3],
                     initialSelection=[str(key) for key in initial_selection])
        if drop_selection is not None:
            keys = None if drop_selection.keys is None else list(drop_selection.keys)
            props["dropSelection"] = {"revision": drop_selection.revision, "keys": keys}

        def selection_changed(text: str) -> Any:
            return on_selection_change([part for part in str(text or "").split(",") if part])

    def view_changed(text: str) -> Any:
        assert on_view_change is not None
        return on_view_change(GridView.parse(text))

    optional = {
        "searchPlaceholder": search_placeholder,
        "columnsLabel": columns_label,
        "storageKey": storage_key,
        "onSelectionChange": selection_changed if on_selection_change is not None else None,
        "onViewChange": view_changed if on_view_change is not None else None,
        "locale": locale,
        "onAction": on_action,
        "onRowClick": on_row_click,
        "key": key,
    }
    props.update({name: value for name, value in optional.items() if value is not None})
    if paging is not None:
        def page_changed(text: str) -> Any:
            try:
                return paging.on_page_change(int(str(text)))
            except ValueError:
                return None

        props.update(keepSelection=selection_across_pages, total=paging.total, page=paging.page, pageSize=paging.page_size, onPageChange=page_changed,
                     pageLabel=paging.label, previousLabel=paging.previous_label, nextLabel=paging.next_label)
    return _DataGrid(props)
