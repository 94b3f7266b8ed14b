"""Data grid: lists beyond ~100 rows are sorted, searched and scrolled in the browser.

Re-rendering a large table in Python resends it on every event (ARCHITECTURE.md); the
`datagrid` JS widget gets the rows once and virtualizes them. Keep a grid in its own small
component so unrelated state changes do not resend its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

ColumnType = Literal["text", "number", "money", "date", "day", "badge", "bytes"]
Variant = Literal["primary", "secondary", "success", "danger", "warning", "info", "light", "dark"]
DEFAULT_GRID_HEIGHT_PX = 480


class GridColumn(TypedDict):
    """One column. Values: money/number/bytes as numbers or decimal strings, dates as ISO
    strings (shown in the browser's time zone; "day" drops the time), badges as {"text", "variant"} or a string."""

    key: str
    label: str
    type: NotRequired[ColumnType]
    sortable: NotRequired[bool]
    width: NotRequired[int]


class GridAction(TypedDict):
    """A small button in the last column; `icon` is a Bootstrap Icons class ("bi-pencil")."""

    id: str
    label: str
    icon: NotRequired[str]
    variant: NotRequired[Variant]
    when: NotRequired[str]  # show only on rows whose this field is truthy
    menu: NotRequired[bool]  # in the row's "more" menu (icon and label) instead of a button of its own


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
) -> VdomDict:
    """A sortable, virtualized table of `rows` (dicts keyed by column key).

    `on_action(action_id, row_key_value)` and `on_row_click(row_key_value)` receive the
    row's `row_key` field. A search box over all columns appears when `search_placeholder`
    is given. `locale` (BCP 47 or the app's language code) drives number and date formats;
    `row_count_label` is the footer text with "{count}" replaced; `more_label` names the button that opens
    a row's menu of `menu` actions. `loading_text`, while the rows are still being read, shows where the empty
    text would, so an empty grid never claims "no records" before the answer is in.
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
    optional = {
        "searchPlaceholder": search_placeholder,
        "locale": locale,
        "onAction": on_action,
        "onRowClick": on_row_click,
        "key": key,
    }
    props.update({name: value for name, value in optional.items() if value is not None})
    return _DataGrid(props)
