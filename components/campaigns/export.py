"""The campaign list's "Export CSV": the list as the user sees it (status filter, the grid's visible columns,
search and sort), through the download helper and its four toasts (spec section 8)."""

from __future__ import annotations

from typing import Any

from reactpy import Ref, component, html

from app.campaigns import export as campaign_export
from components.ui.console import use_console
from components.ui.download import download_icon, use_service_download
from components.widgets.datagrid import GridColumn, GridView

ARCHIVED_TOO = "all"


def _export(db: Any, **kwargs: Any) -> dict[str, str]:
    """The export for the download helper (components/ui/download.py), which reads the link as JSON."""
    return campaign_export.export_campaigns(db, **kwargs).model_dump()


@component
def ExportButton(view: Ref[GridView], *, status: str, advertiser_id: int | None, columns: list[GridColumn]) -> Any:
    """`view` holds what the grid shows (its columns, search and sort); `columns` are the page's grid columns:
    their titles head the file, and those not hidden until chosen stand in until the grid has reported."""
    console = use_console()
    t = console.t
    start, busy, effects = use_service_download(_export)

    def click(_event: Any) -> None:
        # What the grid shows at the moment of the click, not at the last render.
        shown = view.current
        keys = list(shown.columns) or [c["key"] for c in columns if not c.get("hidden")]
        titles = {c["key"]: c["label"] for c in columns}
        start({"columns": keys, "status": "" if status in ("", ARCHIVED_TOO) else status,
               "include_archived": status == ARCHIVED_TOO, "search": shown.query, "sort": shown.sort,
               "advertiser_id": advertiser_id, "headers": [titles.get(key, key) for key in keys],
               "language": console.language}, t("campaigns.export_file"))

    return html.div(
        {"className": "d-inline-flex"},
        html.button({"type": "button", "className": "btn btn-light border", "data-action": "export",
                     "disabled": busy, "onClick": click}, download_icon(busy), t("campaigns.export")),
        effects,
    )
