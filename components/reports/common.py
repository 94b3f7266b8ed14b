"""What the report pages share: status badges, labels of types, periods, columns, and the "New report" menu."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.kernel.db import run_off_loop
from app.kernel.errors import Invalid, ServiceError
from app.kernel.i18n.formatters import day_range
from app.reports import results as report_results
from app.reports import service as reports
from app.warehouse.schema import EVENT_PREFIX
from components.paths import page_path
from components.shell.context import Console, use_console
from components.shell.dropdown import Dropdown
from components.ui.download import run_download
from components.ui.hooks import background
from components.ui.links import app_link
from components.widgets.document_effects import document_effects

STATUS_VARIANTS = {"pending": "secondary", "running": "info", "completed": "success", "failed": "danger"}
TYPE_ICONS = {"performance": "bi-graph-up", "campaign": "bi-megaphone", "creative": "bi-images",
              "exchange": "bi-diagram-3", "geo": "bi-globe2", "os": "bi-phone", "app": "bi-grid-3x3-gap",
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


def period_text(console: Console, report: dict[str, Any]) -> str:
    """The report's days as dates; a preset also by its name, with the days a run started now covers (in the
    report's time zone): "Last 30 days · 26 Oct 2026 – 24 Nov 2026"."""
    if report["period"] == "custom":
        return day_range(report["start_date"], report["end_date"], language=console.language)
    first, last = report_results.resolve_period(report["period"], None, None, time_zone=report["time_zone"])
    name = console.t(f"reports.period.{report['period']}")
    return f"{name} · {day_range(first, last, language=console.language)}"


def column_text(console: Console, key: str) -> str:
    if key.startswith(EVENT_PREFIX):
        return console.t("reports.event_column", name=key[len(EVENT_PREFIX):])
    return console.t(f"reports.col.{key}")


def create_path(console: Console, report_type: str) -> str | None:
    if report_type == "multi-dimensional":
        return page_path("report.create_multi", console.role)
    return page_path("report.create", console.role, report_type=report_type)


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


class _Failed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def use_service_download(service: Callable[..., dict[str, str]], on_invalid: Callable[[dict[str, str]], None] | None = None,
                         ) -> tuple[Callable[..., None], bool, Any]:
    """(start, busy, effects): `start(kwargs, filename)` asks `service(db, actor=..., **kwargs)` for a
    {csv_download_url} and downloads it through the download helper and its four toasts (spec section 8);
    `effects` must be rendered. A refusal naming fields (422) also goes to `on_invalid`, translated, so a form
    can show each message under its field."""
    console = use_console()
    t = console.t
    download, set_download = use_state(None)
    busy, set_busy = use_state(False)

    async def fetch(kwargs: dict[str, Any], filename: str) -> None:
        async def request() -> dict[str, Any]:
            try:
                return {"success": True, "data": await run_off_loop(service, actor=console.actor, **kwargs)}
            except Invalid as refused:
                shown = {field: t(message) for field, message in refused.fields.items()}
                if on_invalid:
                    on_invalid(shown)
                raise _Failed(" ".join(shown.values())) from refused
            except ServiceError as error:
                raise _Failed(t(error.message)) from error

        try:
            await run_download(request, filename=filename, toast=console.toast, t=t, start=set_download)
        finally:
            set_busy(False)

    def start(kwargs: dict[str, Any], filename: str) -> None:
        if not busy:
            set_busy(True)
            background(fetch(kwargs, filename))

    return start, busy, document_effects(download=download) if download else ""


def download_icon(busy: bool, icon: str = "bi-download") -> Any:
    """A download button's icon: a spinner while the file is being made."""
    if busy:
        return html.span({"className": "spinner-border spinner-border-sm me-2"})
    return html.i({"className": f"bi {icon} me-1"})


@component
def ServiceDownload(service: Callable[..., dict[str, str]], kwargs: dict[str, Any], filename: str, label: str,
                    action: str, class_name: str = "btn btn-light border", icon: str = "bi-download",
                    title: str = "") -> Any:
    """A button that downloads what `service(db, actor=..., **kwargs)` links to (use_service_download)."""
    start, busy, effects = use_service_download(service)
    return html.div({"className": "d-inline-flex"},
                    html.button({"type": "button", "className": class_name, "disabled": busy, "data-action": action,
                                 "title": title, "onClick": lambda _event: start(kwargs, filename)},
                                download_icon(busy, icon), label),
                    effects)
