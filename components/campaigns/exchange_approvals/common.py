"""What the exchange-approval pages share: the status badges and the back link."""

from __future__ import annotations

from typing import Any

from app.campaigns.schemas import ExchangeRequestRead
from components.ui.console import Console
from components.ui.entity_pages import EntityPages
from components.widgets.datagrid import GridColumn

APPROVALS = EntityPages(prefix="exchanges", list_page="exchange.approvals", icon="bi-diagram-3",
                        variants={"pending": "warning", "approved": "success", "rejected": "danger"}, tabs=())


def request_rows(console: Console, rows: list[ExchangeRequestRead]) -> list[dict[str, Any]]:
    """Service rows as grid rows (JSON): the status as a badge, the reason or a dash."""
    return [{**row.model_dump(), "status": APPROVALS.status_cell(console, row.status), "reason": row.reason or "—"}
            for row in rows]


def request_columns(console: Console, *, sortable: bool = True) -> list[GridColumn]:
    """The request grid's columns; a grid of one server page at a time (newest first) is not sortable."""
    t = console.t
    columns: list[GridColumn] = [{"key": "campaign", "label": t("exchanges.col.campaign"), "type": "text", "width": 220},
            {"key": "advertiser", "label": t("exchanges.col.advertiser"), "type": "text", "width": 170},
            {"key": "exchange", "label": t("exchanges.col.exchange"), "type": "text", "width": 150},
            {"key": "status", "label": t("exchanges.col.status"), "type": "badge", "width": 110},
            {"key": "reason", "label": t("exchanges.col.reason"), "type": "text", "width": 220},
            {"key": "requested_at", "label": t("exchanges.col.requested"), "type": "date", "width": 170}]
    return columns if sortable else [{**column, "sortable": False} for column in columns]
