"""/report, /agency/report, /admin/report (and co-admin's): the reports the user may see, with a "New report"
menu of types and the running-apps CSV export.

The grid shows one page (reports.list_reports_page, as the creative list): its search and sort are SQL, the total a
COUNT, and only the page's reports get their last runs read."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from reactpy import Ref, component, html, use_state

from app.kernel.validation import FILE_NAME_MAX_LENGTH
from app.reports import service as reports
from app.reports.schemas import ReportListItem
from components.reports.common import NewReportMenu, period_text, status_cell
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.download import download_icon, use_service_download
from components.ui.elements import card, page_header
from components.ui.forms import form
from components.ui.grid_host import sortable_only, use_row_actions
from components.ui.hooks import use_action
from components.ui.navigation import use_navigation
from components.ui.offset_pages import use_offset_pages
from components.widgets.datagrid import GridAction, GridColumn, data_grid

DELETE = "delete"
PAGE_SIZE = 50
RUNNING_APPS_DAYS = 30


@component
def RunningAppsExport() -> Any:
    """The spec's running-apps CSV (the last 30 days, every advertiser in scope), saved under the name the user
    types (default RunningApps.csv, spec section 9); the service checks the name, and its message shows under
    the field."""
    t = use_console().t
    error, set_error = use_state("")
    start, busy, effects = use_service_download(reports.running_apps_export,
                                                on_invalid=lambda fields: set_error(fields.get("file_name", "")))

    def export(values: dict[str, Any]) -> None:
        set_error("")
        filename = str(values.get("file_name") or "").strip() or reports.RUNNING_APPS_FILE
        end = date.today()
        start({"start": end - timedelta(days=RUNNING_APPS_DAYS - 1), "end": end, "file_name": filename}, filename)

    return form(export, html.div(
        {"className": "d-flex flex-column"},
        html.div({"className": "input-group flex-nowrap" + (" has-validation" if error else "")},
                 html.input({"name": "file_name", "type": "text", "defaultValue": reports.RUNNING_APPS_FILE,
                             "maxLength": FILE_NAME_MAX_LENGTH, "aria-label": t("reports.running_apps_file"),
                             "title": t("reports.running_apps_file_hint"), "style": {"width": "13rem"},
                             "aria-invalid": "true" if error else "false",
                             "className": "form-control" + (" is-invalid" if error else "")}),
                 html.button({"type": "submit", "className": "btn btn-light border text-nowrap", "disabled": busy,
                              "data-action": "running-apps", "title": t("reports.running_apps_hint")},
                             download_icon(busy), t("reports.running_apps"))),
        html.div({"className": "invalid-feedback d-block", "data-field-error": "file_name",
                  "style": {"maxWidth": "24rem"}}, error) if error else "",
        effects), name="running-apps")


@component
def _ReportRowActions(host: Ref[Any], rows: list[ReportListItem], reload: Any) -> Any:
    console = use_console()
    t = console.t
    not_asking: tuple[int, str] | None = None  # (id, name) to delete
    asking, set_asking = use_state(not_asking)
    navigation, go = use_navigation()
    def removed(_result: object) -> None:
        set_asking(None)
        reload()

    remove = use_action(reports.delete_report, success=lambda _r: t("reports.deleted", name=asking[1] if asking else ""),
                        on_done=removed)

    def act(action_id: str, report_id: int) -> None:
        row = next((r for r in rows if r.id == report_id), None)
        if row is None:
            return
        if action_id == DELETE:
            set_asking((report_id, row.name))
        elif path := console.path(action_id, id=report_id):
            go(path)

    host.current = act
    return html.div(navigation,
                    ConfirmDialog(t("reports.confirm_delete_title"), t("reports.confirm_delete", name=asking[1]),
                                  t("reports.delete"), t("common.cancel"),
                                  lambda: remove.submit(actor=console.actor, report_id=asking[0]),
                                  lambda: set_asking(None)) if asking else "")


@component
def ReportListPage() -> Any:
    console = use_console()
    t = console.t
    pages = use_offset_pages(reports.list_reports_page, filters=[], page_size=PAGE_SIZE, actor=console.actor)
    rows = pages.query
    actions = use_row_actions(_ReportRowActions, pages.rows, rows.reload)
    cross = console.role is not None and console.role.value != "ADVERTISER"
    columns: list[GridColumn] = [
        {"key": "name", "label": t("reports.field.name"), "width": 160},
        {"key": "type", "label": t("reports.field.type"), "width": 130},
        *([{"key": "advertiser", "label": t("reports.field.advertiser"), "width": 160}] if cross else []),  # type: ignore[list-item]
        {"key": "period_text", "label": t("reports.field.period"), "width": 320},
        {"key": "schedule_text", "label": t("reports.field.schedule"), "width": 100},
        {"key": "last_status", "label": t("reports.last_run"), "type": "badge", "width": 120},
        {"key": "last_run_at", "label": t("reports.last_run_at"), "type": "date", "width": 160},
    ]
    grid_rows = [{**r.model_dump(), "type": t(f"reports.type.{r.report_type}"), "period_text": period_text(console, r),
                  "advertiser": r.advertiser or t("reports.all_advertisers"),
                  "schedule_text": t(f"reports.schedule.{r.schedule}"),
                  "last_status": status_cell(console, r.last_status)} for r in pages.rows]
    grid_actions: list[GridAction] = [
        {"id": "report.view", "label": t("reports.view"), "icon": "bi-eye"},
        {"id": "report.edit", "label": t("reports.edit"), "icon": "bi-pencil"},
        {"id": DELETE, "label": t("reports.delete"), "icon": "bi-trash", "variant": "danger", "menu": True}]
    return html.div(
        {"data-page": "reports"},
        page_header(t("reports.title"), t("reports.subtitle"), RunningAppsExport(), NewReportMenu()),
        card(data_grid(columns=sortable_only(columns, reports.LIST_SORTS), rows=grid_rows, height=520, search_placeholder=t("common.search"),
                       empty_text=t("reports.empty"), row_count_label=t("grid.rows"), more_label=t("grid.more"),
                       locale=console.language, actions=grid_actions, on_action=actions.on_action,
                       on_row_click=lambda key: actions.on_action("report.view", key),
                       loading_text=t("common.loading") if rows.loading else None,
                       on_view_change=pages.on_view_change, paging=pages.paging)),
        actions.elements,
    )
