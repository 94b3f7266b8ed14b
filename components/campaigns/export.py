"""The campaign list's "Export CSV": the list as the user sees it (status filter, the grid's visible columns,
search and sort), through the download helper and its four toasts (spec section 8)."""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html, use_state

from app.campaigns import export as campaign_export
from app.kernel.db import run_off_loop
from app.kernel.errors import ServiceError
from components.shell.context import use_console
from components.ui.download import run_download
from components.ui.hooks import background
from components.widgets.datagrid import GridColumn, GridView
from components.widgets.document_effects import document_effects

ARCHIVED_TOO = "all"


@component
def ExportButton(view: Ref[GridView], *, status: str, advertiser_id: int | None, columns: list[GridColumn]) -> Any:
    """`view` holds what the grid shows (its columns, search and sort); `columns` are the page's grid columns:
    their titles head the file, and those not hidden until chosen stand in until the grid has reported."""
    console = use_console()
    t = console.t
    download, set_download = use_state(None)
    busy, set_busy = use_state(False)

    async def export() -> None:
        shown = view.current
        keys = list(shown.columns) or [c["key"] for c in columns if not c.get("hidden")]
        titles = {c["key"]: c["label"] for c in columns}

        async def request() -> dict[str, Any]:
            try:
                data = await run_off_loop(
                    campaign_export.export_campaigns, actor=console.actor, columns=keys,
                    status="" if status in ("", ARCHIVED_TOO) else status, include_archived=status == ARCHIVED_TOO,
                    search=shown.query, sort=shown.sort, advertiser_id=advertiser_id,
                    headers=[titles.get(key, key) for key in keys], language=console.language)
            except ServiceError as error:
                raise _Failed(t(error.message)) from error
            return {"success": True, "data": data}

        try:
            await run_download(request, filename=t("campaigns.export_file"), toast=console.toast, t=t,
                               start=set_download)
        finally:
            set_busy(False)

    def click(_event: Any) -> None:
        if busy:
            return
        set_busy(True)
        background(export())

    return html.div(
        {"className": "d-inline-flex"},
        html.button({"type": "button", "className": "btn btn-light border", "data-action": "export",
                     "disabled": busy, "onClick": click},
                    html.span({"className": "spinner-border spinner-border-sm me-2"}) if busy else
                    html.i({"className": "bi bi-download me-1"}), t("campaigns.export")),
        document_effects(download=download) if download else "",
    )


class _Failed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
