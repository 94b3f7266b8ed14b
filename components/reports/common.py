"""What the report pages share: status badges, labels of types, periods, columns, and the "New report" menu."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.kernel.i18n.formatters import day_range
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.schemas import ReportRead
from app.warehouse.schema import EVENT_PREFIX
from components.ui.console import Console, use_console
from components.ui.dropdown import Dropdown
from components.ui.links import app_link

STATUS_VARIANTS = {"pending": "secondary", "running": "info", "completed": "success", "failed": "danger"}
TYPE_ICONS = {"performance": "bi-graph-up", "campaign": "bi-megaphone", "creative": "bi-images",
              "exchange": "bi-diagram-3", "geo": "bi-globe2", "os": "bi-phone", "app": "bi-app",
              "device": "bi-display", "multi-dimensional": "bi-boxes"}


def status_badge(console: Console, status: str) -> Any:
    if not status:
        return html.span({"className": "text-body-secondary small"}, console.t("reports.never_run"))
    return html.span({"className": f"badge text-bg-{STATUS_VARIANTS.get(status, 'secondary')}", "data-status": status},
                     console.t(f"reports.status.{status}"))


def status_cell(console: Console, status: str) -> Any:
    if not status:
        return {"text": console.t("reports.never_run"), "variant": "light"}
    return {"text": console.t(f"reports.status.{status}"), "variant": STATUS_VARIANTS.get(status, "secondary")}


def period_text(console: Console, report: ReportRead) -> str:
    """The report's days as dates; a preset also by its name, with the days a run started now covers (in the
    report's time zone): "Last 30 days · Oct 26, 2026 – Nov 24, 2026"."""
    if report.period == "custom":
        return day_range(report.start_date or "", report.end_date or "", language=console.language)
    first, last = report_results.resolve_period(report.period, None, None, time_zone=report.time_zone)
    name = console.t(f"reports.period.{report.period}")
    return f"{name} · {day_range(first, last, language=console.language)}"


def column_text(console: Console, key: str) -> str:
    if key.startswith(EVENT_PREFIX):
        return console.t("reports.event_column", name=key[len(EVENT_PREFIX):])
    return console.t(f"reports.col.{key}")


def create_path(console: Console, report_type: str) -> str | None:
    if report_type == "multi-dimensional":
        return console.path("report.create_multi")
    return console.path("report.create", report_type=report_type)


@component
def NewReportMenu() -> Any:
    """The report types the role may create, each opening the builder with its preset."""
    console = use_console()
    t = console.t
    types = reports.types_for(console.actor) if console.actor else []

    def menu(close: Any) -> Any:
        return html.div({"data-menu": "report-types"},
                        *[app_link({"to": create_path(console, kind) or "#", "className": "dropdown-item py-2",
                                    "key": kind, "data-report-type": kind},
                                   html.i({"className": f"bi {TYPE_ICONS.get(kind, 'bi-table')} me-2"}),
                                   t(f"reports.type.{kind}"))
                          for kind in types])

    toggle = html.span({"className": "btn btn-primary", "data-action": "new-report"},
                       html.i({"className": "bi bi-plus-lg me-1"}), t("reports.new"),
                       html.i({"className": "bi bi-chevron-down ms-2 small"}))
    return Dropdown(toggle, menu, t("reports.new"), "new-report", "dsp-report-types")
