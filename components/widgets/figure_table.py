"""Figure table: a small read-only table of figures (a dashboard's breakdowns, its day-by-day table) drawn
in the browser from rows sent as data.

A table built of Python elements is rebuilt and resent whole with every update of its component; the
dashboard's 90-day table alone was 720 cells per date-preset click, most of the server's event loop under
load (bench/README.md). Here a table is one element whose rows are JSON. Lists a user searches, selects
or pages through belong in `data_grid` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component
from components.widgets.datagrid import GridColumn

_FigureTable = widget_component("figuretable", "FigureTable")


def figure_table(
    *,
    columns: Sequence[GridColumn],
    rows: Sequence[Mapping[str, Any]],
    row_key: str,
    locale: str,
    empty_text: str,
    sort_label: str,
    link_key: str | None = None,
    share_key: str | None = None,
    max_height: int | None = None,
    label: str = "",
    sort: str = "",
    table_data: Mapping[str, str] | None = None,
    key: str | None = None,
    on_explain: Callable[[str, str], Any] | None = None,
    explain_key: str | None = None,
    explain_columns: Sequence[str] | None = None,
    explain_label: str | None = None,
) -> VdomDict:
    """A table of `rows` (dicts keyed by column key; the first column is each row's label), sortable by its
    headers from `sort` ("-key" descending). Figures are formatted in the browser by column type, as the
    grid does, in `locale`; a missing figure (None) shows as "–".

    `link_key`: a row field with the in-app path its label links to. `share_key`: a row field drawn as a bar
    under the label, relative to the largest. `max_height` (px): the body scrolls under a sticky header, in a
    keyboard-focusable region named `label`. `table_data`: data attributes of the <table> ({"breakdown":
    "campaign"} gives data-breakdown="campaign"). `sort_label` titles a header's button ("{column}" replaced).
    `on_explain(row's explain_key value, column key)`: the figures of `explain_columns` (default: every figure) are
    buttons that call it, titled `explain_label` ("{column}" replaced): explain a figure (issue 27).
    """
    props: dict[str, Any] = {
        "columns": [dict(column) for column in columns],
        "rows": [dict(row) for row in rows],
        "rowKey": row_key,
        "locale": locale,
        "emptyText": empty_text,
        "sortLabel": sort_label,
        "label": label,
        "sort": sort,
    }
    optional = {"linkKey": link_key, "shareKey": share_key, "maxHeight": max_height,
                "tableData": dict(table_data) if table_data else None, "key": key, "onExplain": on_explain,
                "explainKey": explain_key, "explainColumns": list(explain_columns) if explain_columns else None,
                "explainLabel": explain_label}
    props.update({name: value for name, value in optional.items() if value is not None})
    return _FigureTable(props)
