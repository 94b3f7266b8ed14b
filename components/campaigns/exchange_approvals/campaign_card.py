"""The campaign view's exchange card: each exchange the campaign asked for, approved, pending or rejected with
the reason, so an advertiser knows where it can run and why not."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns import exchange_approvals
from app.campaigns.schemas import CampaignExchangeRead
from components.campaigns.exchange_approvals.common import APPROVALS
from components.ui.console import use_console
from components.ui.elements import card, spinner
from components.ui.hooks import use_query


@component
def CampaignExchangesCard(campaign_id: int) -> Any:
    console = use_console()
    t = console.t
    query = use_query(exchange_approvals.campaign_exchanges, actor=console.actor, campaign_id=campaign_id,
                      deps=[campaign_id])
    rows: list[CampaignExchangeRead] | None = query.value
    if rows is None:
        body: Any = spinner(t("common.loading")) if query.loading else ""
    elif not rows:
        body = html.p({"className": "small text-body-secondary mb-0"}, t("exchanges.none_requested"))
    else:
        body = html.ul({"className": "list-group list-group-flush", "data-exchanges": "campaign"}, *[
            html.li({"className": "list-group-item px-0 d-flex justify-content-between align-items-start gap-2",
                     "key": f"exchange-{row.id}", "data-exchange": row.exchange},
                    html.div({"className": "min-w-0"}, html.div({"className": "fw-medium"}, row.exchange),
                             html.div({"className": "small text-body-secondary", "data-reason": row.exchange},
                                      row.reason) if row.reason else ""),
                    APPROVALS.status_badge(console, row.status))
            for row in rows])
    approved = sum(1 for r in rows or [] if r.status == "approved")
    extra = html.span({"className": "small text-body-secondary"},
                      t("exchanges.approved_count", approved=approved, total=len(rows or [])))
    return card(body, title=t("exchanges.card_title"), extra=extra)
