"""/admin/exchange-approval/change-log/{id}: one campaign's exchange requests and decisions over time."""

from __future__ import annotations

from components.campaigns.exchange_approvals.common import APPROVALS
from components.ui.change_log import ChangeLogFrame, change_log_page

ExchangeApprovalChangeLogPage = change_log_page("exchange_approval", ChangeLogFrame(
    "exchange-approval-change-log", APPROVALS.back_to_list, APPROVALS.not_found, title="exchanges.history_title",
    column=("exchanges.col.exchange", "exchange")))
