"""The dashboards of all four roles: headline figures, delivery by day, and performance by campaign,
creative, exchange and OS (and by advertiser, for agencies and staff), for a period and a campaign.
Insight360 (the "new" view) adds trends against the previous period, pacing and the campaigns that need
attention."""

from __future__ import annotations

from datetime import date
from typing import Any

from reactpy import component, html, use_state

from app.access import preferences
from app.kernel.i18n.formatters import day_range
from app.statistics import dashboards
from app.statistics import service as statistics
from app.statistics.schemas import CampaignChoice, Dashboard
from app.warehouse.schema import DIMENSIONS
from components.statistics.explain_dialog import ExplainDialog
from components.statistics.insight import InsightPanels
from components.statistics.widgets import breakdown_card, chart_slot, day_table, delivery_chart, kpi_tiles
from components.ui.console import use_console
from components.ui.elements import card, page_header, skeleton
from components.ui.forms import selected_value
from components.ui.hooks import use_query

PRESET_DAYS = (7, 30, 90)


def _dates(period: dict[str, Any]) -> tuple[str, str]:
    """The period's first and last day as ISO text: a preset is the last N days, today included, as a report's
    "last N days" (statistics.last_days)."""
    if period["days"]:
        first, last = statistics.last_days(period["days"])
        return first.isoformat(), last.isoformat()
    return period["start"], period["end"]


def _filters(console: Any, period: dict[str, Any], set_period: Any, campaign: str, set_campaign: Any,
             campaigns: list[CampaignChoice]) -> Any:
    t = console.t
    start, end = _dates(period)

    def preset(days: int) -> Any:
        return html.button({"type": "button", "key": f"preset-{days}", "data-preset": days,
                            "className": "btn btn-sm " + ("btn-primary" if period["days"] == days else "btn-light border"),
                            "aria-pressed": "true" if period["days"] == days else "false",
                            "onClick": lambda _e: set_period({"days": days, "start": "", "end": ""})},
                           t("dashboard.last_days", days=days))

    def set_day(field: str) -> Any:
        def on_change(event: dict[str, Any]) -> None:
            value = str(event["target"].get("value") or "")
            # Built on the period as it is when the change is handled, never on this render's copy.
            set_period(lambda now: {"days": 0, **dict(zip(("start", "end"), _dates(now), strict=True)), field: value})
        return on_change

    return html.div(
        {"className": "d-flex flex-wrap align-items-end gap-2 mb-4 dsp-dashboard-filters"},
        html.div({"className": "btn-group", "role": "group", "aria-label": t("dashboard.period")},
                 *[preset(days) for days in PRESET_DAYS]),
        html.div(html.label({"className": "form-label small mb-1", "htmlFor": "dashboard-start"}, t("dashboard.from")),
                 html.input({"id": "dashboard-start", "type": "date", "className": "form-control form-control-sm",
                             "value": start, "max": end, "onChange": set_day("start")})),
        html.div(html.label({"className": "form-label small mb-1", "htmlFor": "dashboard-end"}, t("dashboard.to")),
                 html.input({"id": "dashboard-end", "type": "date", "className": "form-control form-control-sm",
                             "value": end, "min": start, "onChange": set_day("end")})),
        html.div({"className": "ms-md-auto"},
                 html.label({"className": "form-label small mb-1", "htmlFor": "dashboard-campaign"}, t("dashboard.campaign")),
                 html.select({"id": "dashboard-campaign", "className": "form-select form-select-sm", "value": campaign,
                              "onChange": lambda event: set_campaign(selected_value(event))},
                             html.option({"value": "", "key": "all"}, t("dashboard.all_campaigns")),
                             *[html.option({"value": str(c.id), "key": f"campaign-{c.id}"}, c.name)
                               for c in campaigns])),
    )


@component
def DashboardPage() -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None
    # The stored choice counts only while the user may switch (re-read when an admin changes the config).
    insight = preferences.dashboard_view(console.role, console.state.settings,
                                         console.preferences.get("dashboard_view")) == "new"
    period, set_period = use_state({"days": 30, "start": "", "end": ""})
    campaign, set_campaign = use_state("")
    # The figure being explained: (dimension, value, metric, the row's label); dimension "" for a headline figure.
    explaining, set_explaining = use_state(_NOTHING_EXPLAINED)
    start, end = _dates(period)
    campaign_ids = [int(campaign)] if campaign else []
    board = use_query(dashboards.dashboard, actor=actor, start=start, end=end, campaign_ids=campaign_ids,
                      deps=[start, end, campaign])
    choices = use_query(dashboards.campaign_choices, actor=actor)
    data: Dashboard | None = board.value
    title = t("topbar.view_new") if insight else t("topbar.view_old")
    subtitle = t("dashboard.welcome", name=actor.user.display_name)
    # The period asked for until the figures say which days they cover: the line is there from the first paint.
    first, last = (data.period.start, data.period.end) if data else (start, end)
    period_text = t("dashboard.period_text", days=day_range(first, last, language=console.language)) if first and last else ""
    header = page_header(title, subtitle, html.span({"className": "small text-body-secondary", "data-period": "shown"},
                                                    period_text))
    filters = _filters(console, period, set_period, campaign, set_campaign, choices.value or [])

    def explain_cell(dimension: str, value: str, metric: str, label: str) -> None:
        set_explaining((dimension, value, metric, label))

    dimension, value, metric, label = explaining
    # The same frame before and after the figures arrive: skeletons at each widget's final size, so the first
    # paint does not jump when they draw (bench/lighthouse.py, tests/e2e/test_first_paint.py).
    names = list(data.breakdowns) if data else dashboards.breakdowns_for(actor, None)
    tables = html.div({"className": "row g-4 mb-4"}, *[
        html.div({"className": "col-xl-6", "key": f"by-{name}"},
                 breakdown_card(console, name, data.breakdowns[name] if data else None,
                                data.labels[name] if data else "", on_explain=explain_cell))
        for name in names])
    chart_body = chart_slot(delivery_chart(console, data.by_day) if data else skeleton("chart"))
    loading = data is None or board.loading
    return html.div(
        {"data-dashboard": "insight360" if insight else "classic", "data-loading": "true" if loading else "false"},
        header,
        filters,
        kpi_tiles(console, data.totals if data else None, data.trend if data else None, trends=insight,
                  on_explain=lambda key: set_explaining(("", "", key, ""))),
        ExplainDialog(metric, _narrowed(start, end, campaign_ids, dimension, value),
                      lambda: set_explaining(_NOTHING_EXPLAINED),
                      note=t("explain.row_note", row=label) if dimension else "",
                      key=f"explain-{dimension}-{value}-{metric}") if metric else "",
        html.div({"className": "mb-4"}, card(chart_body, title=t("dashboard.performance_by_day"))),
        InsightPanels(campaign_ids, key=f"insight-{campaign}") if insight else "",
        tables,
        day_table(console, data.by_day if data else None, _day_count(start, end), on_explain=explain_cell),
    )


_NOTHING_EXPLAINED = ("", "", "", "")


def _narrowed(start: str, end: str, campaign_ids: list[int], dimension: str, value: str) -> dict[str, Any]:
    """What the explanation asks for: the dashboard's period and campaign choice, narrowed to a table row's day or
    breakdown value (a campaign row of a dashboard filtered to campaigns is that campaign alone)."""
    filters: dict[str, list[Any]] = dict(dashboards.filters_of(campaign_ids))
    if dimension == "date":
        return {"start": value, "end": value, "filters": filters}
    if dimension:
        filters[dimension] = [int(value) if DIMENSIONS[dimension].kind == "int" else value]
    return {"start": start, "end": end, "filters": filters}


def _day_count(start: str, end: str) -> int:
    """Days in the period, both ends included (the day table has a row for each); 0 for a period not yet valid."""
    try:
        return max(0, (date.fromisoformat(end) - date.fromisoformat(start)).days + 1)
    except ValueError:
        return 0


__all__ = ["DashboardPage", "kpi_tiles"]
