"""/admin/bulk-exchange-approval (and the co-admin copy): approve or reject many pending requests at once,
with a reason, and one result per request."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns import exchange_approvals
from components.campaigns.common import results_of
from components.campaigns.exchange_approvals.common import APPROVALS, request_columns, request_rows
from components.ui.bulk import bulk_page
from components.ui.console import Console, use_console
from components.ui.field_store import FieldStore, StoreSelect, StoreTextArea


def _fields(store: FieldStore, errors: dict[str, str]) -> Any:
    t = use_console().t
    return html.div(
        StoreSelect(store, "decision", t("exchanges.decision"),
                    [("approved", t("exchanges.approve")), ("rejected", t("exchanges.reject"))],
                    error=errors.get("decision"), key="decision"),
        StoreTextArea(store, "reason", t("exchanges.reason"), error=errors.get("reason") or errors.get("approval_ids"),
                      help_text=t("exchanges.reason_help"), key="reason"),
    )


def _apply(console: Console, store: FieldStore, ids: list[int], submit: Any) -> None:
    submit(actor=console.actor, approval_ids=ids, decision=str(store.get("decision") or ""),
           reason=str(store.get("reason") or ""))


@component
def BulkExchangeApprovalPage() -> Any:
    console = use_console()
    return bulk_page("exchanges.bulk_title", "exchanges.bulk_subtitle", "exchanges.decision_title", _fields, _apply,
                     results_of(exchange_approvals.decide_many), {"decision": "approved", "reason": ""}, read=exchange_approvals.list_requests_page,
                     sorts=exchange_approvals.LIST_SORTS,
                     columns=request_columns(console), to_rows=request_rows, back=APPROVALS.back_to_list(console))
