"""Explain a report row (issue 27): the result grid's "Explain this row" action opens the explain dialog for
that row's figures (reports.explain_run_row: the run narrowed to the row's day, campaign, exchange, ...), with a
chooser of the row's metrics.

The dialog's state lives here, beside the grid and not above it: opening or closing it re-renders this small
component only, never the grid and its thousands of rows (ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reactpy import Ref, component, use_state

from app.kernel.i18n.formatters import day
from app.reports import row_figure
from app.reports import service as reports
from app.reports.results import NAME_COLUMNS
from app.reports.schemas import Cell
from app.warehouse.schema import METRICS
from components.statistics.explain_dialog import ExplainDialog
from components.ui.console import Console, use_console
from components.widgets.datagrid import GridAction

EXPLAIN_ROW = "explain-row"
NO_ROW = -1


def row_actions(console: Console, columns: Sequence[str]) -> list[GridAction]:
    """The grid's row action, when the result has a metric to explain (custom events alone are not metrics)."""
    if not any(column in METRICS for column in columns):
        return []
    return [{"id": EXPLAIN_ROW, "label": console.t("explain.row"), "icon": "bi-info-circle", "variant": "secondary"}]


def _cell_text(console: Console, key: str, row: Mapping[str, Cell]) -> str:
    """A dimension's value as the grid shows it: a name beside its id, a day in the user's language, an hour
    without seconds."""
    name = row.get(NAME_COLUMNS.get(key, ""))
    value = row.get(key)
    if name:
        return str(name)
    if value in (None, ""):
        return "–"
    if key == "date":
        return day(str(value), language=console.language)
    if key == "hour":
        return str(value)[:16].replace("T", " ")
    return str(value)


def row_note(console: Console, dimensions: Sequence[str], row: Mapping[str, Cell]) -> str:
    """What the figure was narrowed to ("This row: Nov 3, 2026 · Spring · Magnite"), and for an hour's row that
    its whole day explains it."""
    note = console.t("explain.row_note", row=" · ".join(_cell_text(console, key, row) for key in dimensions))
    return f"{note}. {console.t('explain.by_day')}" if row_figure.by_day(dimensions) else note


@component
def RowExplainer(run_id: int, columns: list[str], rows: list[dict[str, Cell]], opener: Ref[Any]) -> Any:
    """The dialog for the row whose `_row` was last handed to `opener.current`; nothing while none is."""
    console = use_console()
    shown, set_shown = use_state(NO_ROW)
    opener.current = set_shown
    row = next((r for r in rows if r.get("_row") == shown), None)
    if row is None:
        return ""
    dimensions = row_figure.row_dimensions(columns)
    metrics = [column for column in columns if column in METRICS]
    return ExplainDialog(metrics[0], {"run_id": run_id, "row": {key: row.get(key) for key in dimensions}},
                         lambda: set_shown(NO_ROW), explain_with=reports.explain_run_row,
                         export_with=reports.export_run_row, metrics=metrics,
                         note=row_note(console, dimensions, row), key=f"explain-row-{shown}")
