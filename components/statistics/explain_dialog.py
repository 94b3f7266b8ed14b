"""Explain a figure (issue 27): a dialog that shows what one dashboard figure is made of — the campaign x day x
exchange rows it sums (in the data grid) and the ingestion batches they came from — with a CSV of the rows.

The rows come from app/statistics/explain.py with the dashboard's own period, campaign filter and the user's
scope, so they add up to the figure on the card."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from reactpy import component, html, use_state

from app.access.roles import Role
from app.statistics import explain
from app.statistics.schemas import Explanation
from app.warehouse.schema import METRICS
from components.statistics.figures import figure
from components.ui.console import Console, use_console
from components.ui.download import LinkService, download_icon, use_service_download
from components.ui.elements import skeleton
from components.ui.forms import selected_value
from components.ui.hooks import use_query
from components.widgets.datagrid import ColumnType, GridColumn, data_grid
from components.widgets.document_effects import document_effects
from components.widgets.figure_table import figure_table

ROWS_HEIGHT_PX = 320
BATCHES_HEIGHT_PX = 220


def _row_columns(console: Console, metric: str, with_advertiser: bool) -> list[GridColumn]:
    t = console.t
    columns: list[GridColumn] = [{"key": "date", "label": t("dashboard.col.date"), "type": "date"}]
    if with_advertiser:
        columns.append({"key": "advertiser_name", "label": t("dashboard.by.advertiser")})
    columns += [{"key": "campaign_name", "label": t("dashboard.by.campaign")},
                {"key": "exchange", "label": t("dashboard.by.exchange")}]
    shown = [*explain.ROW_METRICS, *([metric] if metric not in explain.ROW_METRICS else [])]
    columns += [{"key": key, "label": t(f"dashboard.kpi.{key}"), "type": cast(ColumnType, METRICS[key].kind)}
                for key in shown]
    return columns


def _batch_table(console: Console, data: Explanation) -> Any:
    t = console.t
    rows = [{"batch_id": b.batch_id, "source": b.source, "received_at": b.received_at, "rows": b.rows,
             "impressions": b.impressions, "spend": b.spend} for b in data.batches]
    columns: list[GridColumn] = [{"key": "batch_id", "label": t("explain.batch")},
                                 {"key": "source", "label": t("explain.source")},
                                 {"key": "received_at", "label": t("explain.received"), "type": "date"},
                                 {"key": "rows", "label": t("explain.rows"), "type": "number"},
                                 {"key": "impressions", "label": t("dashboard.kpi.impressions"), "type": "number"},
                                 {"key": "spend", "label": t("dashboard.kpi.spend"), "type": "money"}]
    return figure_table(columns=columns, rows=rows, row_key="batch_id", sort="received_at",
                        max_height=BATCHES_HEIGHT_PX, label=t("explain.batches"), locale=console.language,
                        sort_label=t("grid.sort_by", column="{column}"), empty_text=t("dashboard.no_rows"),
                        table_data={"explain": "batches"})


def _summary(console: Console, data: Explanation) -> Any:
    t = console.t
    text = t("explain.summary", figure=figure(data.metric, data.totals.get(data.metric), console.language),
             rows=t("explain.rows_n", count=data.total_rows), batches=t("explain.batches_n", count=data.total_batches))
    notes = [html.p({"className": "mb-1", "data-explain": "summary"}, text)]
    if data.metric not in explain.ROW_METRICS:  # a ratio: no column adds up to it
        notes.append(html.p({"className": "small text-body-secondary mb-1"}, t("explain.ratio")))
    if data.total_rows > len(data.rows):
        notes.append(html.p({"className": "small text-body-secondary mb-1", "data-explain": "capped"},
                            t("explain.capped", shown=len(data.rows), total=data.total_rows)))
    return html.div({"className": "mb-3"}, *notes)


# What the dialog asks a service: the dashboard's figure (explain.explain, with start, end, filters), a report
# run's total (reports.explain_run_total, with run_id) or one row of it (reports.explain_run_row, with run_id and
# row); its export service takes the same arguments.
ExplainService = Callable[..., Explanation]


@component
def ExplainDialog(metric: str, ask: Mapping[str, Any], on_close: Callable[[], Any],
                  explain_with: ExplainService = explain.explain, export_with: LinkService = explain.export,
                  metrics: Sequence[str] = (), note: str = "") -> Any:
    """The explanation of `metric` (with `ask`: the figure's period and filters, or a report run or row), in a
    modal dialog. `metrics` (a row's figures) adds a chooser of which one to explain, starting at `metric`;
    `note` is a line above the summary (what the figure was narrowed to)."""
    console = use_console()
    t = console.t
    chosen, choose = use_state(metric)  # the figure shown: `metric` until another is chosen
    answer = use_query(explain_with, actor=console.actor, metric=chosen, **ask, deps=[chosen, repr(sorted(ask.items()))])
    download, busy, effects = use_service_download(export_with)
    data: Explanation | None = answer.value
    title = t("explain.title", metric=t(f"dashboard.kpi.{chosen}"))
    if data is None:
        body: Any = skeleton("table")
    else:
        rows = [{**row, "key": f"{row.get('date')}|{row.get('campaign_id')}|{row.get('exchange')}"} for row in data.rows]
        body = html.div(
            _summary(console, data),
            html.h3({"className": "h6"}, t("explain.rows_title")),
            html.div({"className": "mb-3", "data-explain": "rows"},
                     data_grid(columns=_row_columns(console, chosen, console.role != Role.ADVERTISER), rows=rows,
                               row_key="key", height=ROWS_HEIGHT_PX, locale=console.language,
                               empty_text=t("dashboard.no_rows"),
                               row_count_label=t("grid.rows"))),  # "Rows: 1": a label reads right at any count
            html.h3({"className": "h6"}, t("explain.batches")),
            html.div(_batch_table(console, data)),
        )
    export = html.button(
        {"type": "button", "className": "btn btn-light border", "disabled": busy or data is None,
         "data-action": "explain-export",
         "onClick": lambda _e: download({"metric": chosen, **ask}, explain.EXPORT_FILE)},
        download_icon(busy), t("explain.export"))
    chooser = html.label(
        {"className": "d-flex align-items-center gap-2 small mb-0"}, t("explain.metric"),
        html.select({"className": "form-select form-select-sm w-auto", "value": chosen, "data-explain": "metric",
                     "onChange": lambda event: choose(selected_value(event) or chosen)},
                    *[html.option({"value": key, "key": key}, t(f"dashboard.kpi.{key}")) for key in metrics]))
    return html.div(
        document_effects(on_escape=on_close),  # Escape closes it, wherever the focus is
        html.div({"className": "modal-backdrop fade show"}),
        html.div(
            {"className": "modal fade show d-block", "role": "dialog", "aria-modal": "true", "aria-label": title,
             "tabIndex": -1, "data-explain": chosen},
            html.div({"className": "modal-dialog modal-xl modal-dialog-centered modal-dialog-scrollable"},
                     html.div({"className": "modal-content border-0 shadow"},
                              html.div({"className": "modal-header"},
                                       html.h2({"className": "modal-title h5"}, title),
                                       html.button({"type": "button", "className": "btn-close",
                                                    "aria-label": t("explain.close"),
                                                    "onClick": lambda _e: on_close()})),
                              html.div({"className": "modal-body"},
                                       html.div({"className": "d-flex flex-wrap align-items-center gap-3 mb-3"},
                                                chooser if len(metrics) > 1 else "",
                                                html.span({"className": "small text-body-secondary",
                                                           "data-explain": "narrowed"}, note) if note else "")
                                       if note or len(metrics) > 1 else "",
                                       body),
                              html.div({"className": "modal-footer"}, export, effects,
                                       html.button({"type": "button", "className": "btn btn-primary",
                                                    "data-action": "explain-close",
                                                    "onClick": lambda _e: on_close()}, t("explain.close"))))),
        ),
    )
