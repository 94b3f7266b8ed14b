"""Insight360's own panels: each active campaign's pacing, and the campaigns that need attention, each
linking to the campaign."""

from __future__ import annotations

from typing import Any, cast

from reactpy import component, html, use_state

from app.kernel.i18n.formatters import day
from app.statistics import dashboards
from app.statistics import service as statistics
from app.statistics.schemas import AttentionRead, Insight, LowBalanceRead, PacingRead
from components.statistics.explain_dialog import ExplainDialog
from components.statistics.figures import figure
from components.ui.console import use_console
from components.ui.elements import card, skeleton, slot
from components.ui.hooks import use_query
from components.ui.links import app_link

INSIGHT_SKELETON_HEIGHT = "9rem"  # about two campaigns' pacing rows
REASON_STYLE = {"low_balance": "danger", "no_spend": "warning", "under_delivery": "info"}


def _campaign_link(console: Any, item: PacingRead) -> Any:
    path = console.path("campaign.view", id=item.campaign_id)
    name = item.campaign_name
    # One element, so the link sits where its row puts it (app_link is a script beside an anchor).
    return html.span({"className": "min-w-0 text-truncate"},
                     app_link({"to": path, "className": "fw-medium link-body-emphasis text-decoration-none"}, name)
                     if path else name)


_SPENT = "\u0000"  # where a translated sentence puts the spend


def _around(sentence: str, spent: Any) -> list[Any]:
    before, _, after = sentence.partition(_SPENT)
    return [part for part in (before, spent, after) if part != ""]


def _pacing_row(console: Any, item: PacingRead, on_explain: Any) -> Any:
    t, language = console.t, console.language
    used = min(100.0, item.budget_used or 0)
    pace = item.pacing
    tone = "success" if pace is None or 90 <= pace <= 115 else ("warning" if pace < 90 else "danger")
    return html.div(
        {"className": "py-2 border-bottom dsp-pacing", "key": f"pacing-{item.campaign_id}",
         "data-pacing": item.campaign_id},
        html.div({"className": "d-flex justify-content-between gap-2 small"},
                 _campaign_link(console, item),
                 html.span({"className": f"text-{tone}-emphasis fw-semibold text-nowrap"},
                           t("insight.pace", value=figure("ctr", pace, language)) if pace is not None else t("insight.no_pace"))),
        html.div({"className": "progress my-1", "role": "progressbar", "aria-label": t("insight.budget_used"),
                  "aria-valuenow": round(used), "aria-valuemin": 0, "aria-valuemax": 100, "style": {"height": "6px"}},
                 html.div({"className": f"progress-bar bg-{tone}", "style": {"width": f"{used:.0f}%"}})),
        html.div({"className": "d-flex justify-content-between small text-body-secondary"},
                 # "{spent} of {budget}" in the reader's language, the spend a button that opens what it is made
                 # of (explain a figure, issue 27): the sentence is cut where the spend goes.
                 html.span(*_around(t("insight.spent_of", spent=_SPENT, budget=figure("spend", item.budget, language)),
                                    html.button({"type": "button", "className": "dsp-cell-explain",
                                                 "data-explain-pacing": item.campaign_id,
                                                 "title": t("explain.open", metric=t("dashboard.kpi.spend")),
                                                 "onClick": lambda _e: on_explain(item)},
                                                figure("spend", item.spent, language)))),
                 html.span(t("insight.ends", date=day(item.ends_on, language=language)) if item.ends_on
                           else t("insight.open_ended"))))


def _attention_row(console: Any, item: AttentionRead) -> Any:
    t, language = console.t, console.language
    reason = item.reason
    balance = item.balance if isinstance(item, LowBalanceRead) else None
    detail = {"low_balance": t("insight.detail.low_balance", balance=figure("spend", balance, language)),
              "no_spend": t("insight.detail.no_spend", days=dashboards.NO_SPEND_DAYS),
              "under_delivery": t("insight.detail.under_delivery", pace=figure("ctr", item.pacing, language))}[reason]
    return html.li(
        {"className": "list-group-item d-flex gap-3 align-items-start px-0", "key": f"attention-{reason}-{item.campaign_id}",
         "data-attention": reason},
        html.span({"className": f"badge text-bg-{REASON_STYLE[reason]} mt-1"}, t(f"insight.reason.{reason}")),
        html.div({"className": "min-w-0"}, _campaign_link(console, item),
                 html.div({"className": "small text-body-secondary"}, detail)))


def pacing_ask(item: PacingRead) -> dict[str, Any]:
    """The explanation's period and filters for a campaign's pacing spend: from the day the figure sums from to
    today, days of the campaign's time zone as the figure counts them."""
    return {"start": item.spent_since, "end": statistics.today_in(item.time_zone).isoformat(),
            "time_zone": item.time_zone, "filters": {"campaign_id": [item.campaign_id]}}


def _pacing_explanation(console: Any, item: PacingRead | None, on_close: Any) -> Any:
    """What a campaign's pacing spend is made of (pacing_ask)."""
    if item is None:
        return ""
    return ExplainDialog("spend", pacing_ask(item),
                         on_close, note=console.t("explain.row_note", row=item.campaign_name),
                         key=f"explain-pacing-{item.campaign_id}")


@component
def InsightPanels(campaign_ids: list[int]) -> Any:
    console = use_console()
    t = console.t
    query = use_query(dashboards.insight, actor=console.actor, campaign_ids=campaign_ids, deps=[tuple(campaign_ids)])
    explaining, set_explaining = use_state(cast(PacingRead | None, None))  # the campaign whose spend is explained
    found: Insight | None = query.value
    if found is None:  # both cards with their titles, their bodies held open until the figures arrive
        return html.div({"className": "row g-4 mb-4"},
                        html.div({"className": "col-xl-7"}, card(slot(skeleton("table"), INSIGHT_SKELETON_HEIGHT),
                                                                  title=t("insight.pacing"), class_name="h-100")),
                        html.div({"className": "col-xl-5"}, card(slot(skeleton("table"), INSIGHT_SKELETON_HEIGHT),
                                                                  title=t("insight.attention"), class_name="h-100")))
    pacing, attention = found.pacing, found.attention
    pacing_body = (html.div(*[_pacing_row(console, item, set_explaining) for item in pacing]) if pacing else
                   html.p({"className": "text-body-secondary small mb-0"}, t("insight.no_active")))
    attention_body = (html.ul({"className": "list-group list-group-flush"}, *[_attention_row(console, a) for a in attention])
                      if attention else
                      html.p({"className": "text-success small mb-0", "data-attention": "none"},
                             html.i({"className": "bi bi-check-circle me-1", "aria-hidden": "true"}), t("insight.all_well")))
    return html.div({"className": "row g-4 mb-4"},
                    _pacing_explanation(console, explaining, lambda: set_explaining(None)),
                    html.div({"className": "col-xl-7"}, card(pacing_body, title=t("insight.pacing"), class_name="h-100")),
                    html.div({"className": "col-xl-5"}, card(attention_body, title=t("insight.attention"), class_name="h-100")))
