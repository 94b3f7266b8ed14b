"""/report/view/{id} (and the agency's, admin's and co-admin's): the report's settings, its current run with
live progress, the result with totals in the grid, the CSV download, and previous runs (each file deletable)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from reactpy import Ref, component, html, use_effect, use_ref, use_state
from reactpy_router import use_params

from app.kernel.i18n.formatters import day_range, grouped, money
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.schemas import ReportRead, ReportRunRead, RunResult
from app.warehouse.schema import METRICS
from components.reports.common import TYPE_ICONS, column_text, period_text, status_badge
from components.reports.row_explain import RowExplainer, row_actions
from components.statistics.explain_dialog import ExplainDialog
from components.statistics.widgets import explain_button
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.download import ServiceDownload
from components.ui.elements import card, empty_state, facts, loading_page, page_header
from components.ui.hooks import background, use_action, use_query
from components.ui.links import app_link, back_link
from components.widgets.datagrid import ColumnType, GridColumn, data_grid

POLL_SECONDS = 1.0
ACTIVE = ("pending", "running")
GRID_TYPES: dict[str, ColumnType] = {"number": "number", "money": "money", "percent": "percent", "text": "text"}
# Result columns holding a calendar day: written as days are elsewhere (the dashboard's day table), not as ISO text.
DAY_COLUMNS = ("date",)


def _total_text(console: Console, key: str, value: Any) -> str:
    if value is None:
        return "–"
    kind = report_results.column_kind(key)
    if kind == "money":
        return money(value, language=console.language)
    if kind == "percent":
        return f"{grouped(value, language=console.language, decimals=2)}%"
    return grouped(int(value), language=console.language)


@component
def ResultPanel(run: ReportRunRead, report: ReportRead) -> Any:
    console = use_console()
    t = console.t
    result = use_query(reports.run_result, actor=console.actor, run_id=run.id, deps=[run.id, run.has_file])
    explaining, set_explaining = use_state("")  # the metric whose total is being explained (a hook: before any return)
    row_opener: Ref[Any] = use_ref(None)  # RowExplainer's setter: a row's dialog opens without re-rendering the grid

    def explain_row(_action: str, key: Any) -> None:
        if row_opener.current is not None:
            row_opener.current(int(key))
    if result.loading:
        return card(html.p({"className": "mb-0"}, t("common.loading")))
    data: RunResult | None = result.value
    if data is None or not data.available:
        return card(empty_state("bi-file-earmark-x", t("reports.file_deleted"), t("reports.file_deleted_hint"),
                                marker={"data-state": "no-file"}))
    columns: list[GridColumn] = [{"key": key, "label": column_text(console, key),
                                  "type": "day" if key in DAY_COLUMNS else "number" if key.endswith("_id")
                                  else GRID_TYPES[report_results.column_kind(key)],
                                  "width": 120 if report_results.column_kind(key) != "text" else 170}
                                 for key in data.columns]
    totals = data.totals
    metric_keys = [k for k in data.columns if report_results.column_kind(k) != "text" and not k.endswith("_id")]
    filename = f"{report.name}.csv"
    return html.div(
        html.div({"className": "row g-3 mb-4", "data-totals": "run"},
                 *[html.div({"className": "col-6 col-md-3", "key": key},
                            html.div({"className": "card dsp-card shadow-sm border-0 h-100 position-relative"},
                                     # A metric's total can be explained; a custom event's is not a metric.
                                     explain_button(console, key, set_explaining) if key in METRICS else "",
                                     html.div({"className": "card-body py-3"},
                                              html.div({"className": "small text-body-secondary text-truncate"},
                                                       column_text(console, key)),
                                              html.div({"className": "fs-5 fw-semibold text-nowrap", "data-total": key},
                                                       _total_text(console, key, totals.get(key))))))
                   for key in metric_keys]),
        card(
            html.p({"className": "small text-body-secondary"}, t("reports.truncated", shown=len(data.rows),
                                                                 total=data.row_count)) if data.truncated else "",
            data_grid(columns=columns, rows=data.rows, row_key="_row", height=460,
                      actions=row_actions(console, data.columns), on_action=explain_row,
                      search_placeholder=t("common.search"), empty_text=t("reports.no_rows"),
                      row_count_label=t("grid.rows"), more_label=t("grid.more"), locale=console.language,
                      key=f"result-{run.id}"),
            title=t("reports.result_title", days=day_range(run.period_start or "", run.period_end or "",
                                                           language=console.language)),
            extra=ServiceDownload(reports.download_run, {"run_id": run.id}, filename, t("reports.download_csv"),
                                  "download-csv", class_name="btn btn-outline-primary btn-sm", icon="bi-filetype-csv")),
        RowExplainer(run.id, data.columns, data.rows, row_opener),
        ExplainDialog(explaining, {"run_id": run.id}, lambda: set_explaining(""), explain_with=reports.explain_run_total,
                      export_with=reports.export_run_total, key=f"explain-{explaining}") if explaining else "",
    )


@component
def RunPanel(run_id: int, report: ReportRead, on_finished: Callable[[], None]) -> Any:
    """One run: its progress polled every second while it is pending or running, then its result."""
    console = use_console()
    t = console.t
    tick, set_tick = use_state(0)
    run = use_query(reports.get_run, actor=console.actor, run_id=run_id, deps=[run_id])
    status = run.value.status if run.value else None

    def poll() -> Callable[[], None] | None:
        if status not in ACTIVE:
            return None

        async def later() -> None:
            await asyncio.sleep(POLL_SECONDS)
            run.reload()
            set_tick(tick + 1)

        task = background(later())

        def stop() -> None:
            task.cancel()
        return stop

    use_effect(poll, dependencies=[run_id, status, tick])
    previous = use_ref(status)

    def finished() -> None:
        # The runs list beside this panel shows the new status and row count once the run ends.
        if previous.current in ACTIVE and status not in ACTIVE:
            on_finished()
        previous.current = status

    use_effect(finished, dependencies=[status])
    if run.loading or run.value is None:
        return card(html.p({"className": "mb-0"}, t("common.loading")))
    value: ReportRunRead = run.value
    if status in ACTIVE:
        return card(html.div({"data-run-state": status},
                             html.div({"className": "d-flex justify-content-between small mb-2"},
                                      html.span(html.span({"className": "spinner-border spinner-border-sm me-2"}),
                                                t(f"reports.progress.{status}")),
                                      html.span({"data-progress": str(value.progress)}, f"{value.progress} %")),
                             html.div({"className": "progress", "role": "progressbar", "aria-valuemin": 0,
                                       "aria-valuemax": 100, "aria-valuenow": value.progress,
                                       "style": {"height": "0.6rem"}},
                                      html.div({"className": "progress-bar progress-bar-striped progress-bar-animated",
                                                "style": {"width": f"{max(value.progress, 3)}%"}}))),
                    title=t("reports.generating"))
    if status == "failed":
        return card(html.div({"className": "alert alert-danger mb-0", "data-run-state": "failed"},
                             html.i({"className": "bi bi-exclamation-triangle me-2"}),
                             t("reports.run_failed", error=t(value.error) if value.error else "")))
    return ResultPanel(value, report)


@component
def RunsCard(runs: list[ReportRunRead], selected: int | None, on_select: Callable[[int], None],
             reload: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    asking, set_asking = use_state(None)
    def removed(_result: object) -> None:
        set_asking(None)
        reload()

    remove = use_action(reports.delete_run_file, success="reports.file_removed", on_done=removed)
    if not runs:
        return card(html.p({"className": "small text-body-secondary mb-0"}, t("reports.no_runs")),
                    title=t("reports.previous_runs"))
    rows = []
    for run in runs:
        current = run.id == selected
        rows.append(html.tr(
            {"key": str(run.id), "className": "table-active" if current else "", "data-run": str(run.id)},
            html.td(html.button({"type": "button", "className": "btn btn-link btn-sm p-0 text-decoration-none",
                                 "onClick": lambda _e, i=run.id: on_select(i)},
                                f"#{run.id}"),
                    html.i({"className": "bi bi-clock ms-1 text-body-tertiary", "title": t("reports.scheduled_run")})
                    if run.scheduled else ""),
            html.td({"className": "small text-nowrap"},
                    day_range(run.period_start or "", run.period_end or "", language=console.language)),
            html.td(status_badge(console, run.status)),
            html.td({"className": "small text-end"}, f"{run.row_count:,}" if run.row_count is not None else "–"),
            html.td({"className": "small text-body-secondary text-nowrap"}, (run.created_at or "")[:16].replace("T", " ")),
            html.td({"className": "text-end"},
                    html.button({"type": "button", "className": "btn btn-sm btn-outline-danger",
                                 "title": t("reports.delete_file"), "aria-label": t("reports.delete_file"),
                                 "data-action": "delete-file", "onClick": lambda _e, i=run.id: set_asking(i)},
                                html.i({"className": "bi bi-trash"})) if run.has_file else ""),
        ))
    return card(
        html.div({"className": "table-responsive"},
                 html.table({"className": "table table-sm align-middle mb-0", "data-table": "runs"},
                            html.thead(html.tr(*[html.th({"className": "small fw-medium text-body-secondary"
                                                          + (" text-end" if i == 3 else ""), "key": str(i)}, label)
                                                 for i, label in enumerate((t("reports.run"), t("reports.field.period"),
                                                                            t("reports.status_col"), t("reports.rows"),
                                                                            t("reports.started"), ""))])),
                            html.tbody(*rows))),
        ConfirmDialog(t("reports.delete_file"), t("reports.confirm_delete_file"), t("reports.delete"),
                      t("common.cancel"), lambda: remove.submit(actor=console.actor, run_id=asking),
                      lambda: set_asking(None)) if asking else "",
        title=t("reports.previous_runs"))


@component
def ReportViewPage() -> Any:
    console = use_console()
    t = console.t
    report_id = int(use_params().get("id", 0))
    report = use_query(reports.get_report, actor=console.actor, report_id=report_id, deps=[report_id])
    runs = use_query(reports.list_runs, actor=console.actor, report_id=report_id, deps=[report_id])
    no_run: int | None = None  # the newest run is shown until one is chosen
    chosen, set_chosen = use_state(no_run)

    def started(run: ReportRunRead) -> None:
        set_chosen(run.id)
        runs.reload()

    start = use_action(reports.start_run, on_done=started)
    if report.loading:
        return loading_page(t, t("reports.view_title"))
    if report.value is None:
        return html.div(page_header(t("reports.view_title"), "", back_link(console, "reports", "reports.back")),
                        card(html.p({"className": "mb-0", "data-state": "not-found"}, t("reports.not_found"))))
    value: ReportRead = report.value
    run_list: list[ReportRunRead] = runs.value or []
    selected = chosen if chosen is not None else (run_list[0].id if run_list else None)
    edit = console.path("report.edit", id=report_id)
    filters = ", ".join(f"{column_text(console, k)}: {len(v)}" for k, v in value.filters.items()) or t("reports.none")
    return html.div(
        {"data-page": "report-view"},
        page_header(value.name,
                    html.span(html.i({"className": f"bi {TYPE_ICONS.get(value.report_type, 'bi-table')} me-1"}),
                              t(f"reports.type.{value.report_type}"), " · ", period_text(console, value)),
                    back_link(console, "reports", "reports.back"),
                    app_link({"to": edit, "className": "btn btn-outline-secondary btn-sm"},
                             html.i({"className": "bi bi-pencil me-1"}), t("reports.edit")) if edit else "",
                    html.button({"type": "button", "className": "btn btn-primary btn-sm", "data-action": "run-report",
                                 "disabled": start.pending,
                                 "onClick": lambda _e: start.submit(actor=console.actor, report_id=report_id)},
                                html.i({"className": "bi bi-play-fill me-1"}), t("reports.run_now"))),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xxl-9"},
                          RunPanel(selected, value, runs.reload, key=str(selected)) if selected else
                          card(empty_state("bi-play-circle", t("reports.not_run_yet"), t("reports.not_run_yet_hint"),
                                           marker={"data-state": "not-run"})),
                          # Below the result, full width: the runs table needs room for its six columns.
                          html.div({"className": "mt-4"}, RunsCard(run_list, selected, set_chosen, runs.reload))),
                 html.div({"className": "col-xxl-3"},
                          card(facts([(t("reports.field.dimensions"), ", ".join(column_text(console, d)
                                                                                for d in value.dimensions)),
                                      (t("reports.field.metrics"), ", ".join(column_text(console, m)
                                                                             for m in value.metrics)),
                                      (t("reports.field.events"), ", ".join(value.events) or t("reports.none")),
                                      (t("reports.section.filters"), filters),
                                      (t("reports.field.advertiser"), value.advertiser or t("reports.all_advertisers")),
                                      (t("reports.field.time_zone"), value.time_zone),
                                      (t("reports.field.schedule"), t(f"reports.schedule.{value.schedule}")
                                       + (f" → {', '.join(value.recipients)}" if value.recipients else ""))],
                                     cell="col-12 mb-2"),
                               title=t("reports.settings")))),
    )
