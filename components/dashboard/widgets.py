"""The dashboards' building blocks: headline tiles, the delivery chart, the "performance by" tables and the
day-by-day table. Each takes plain rows from services/dashboards and draws them; none reads the database."""

from __future__ import annotations

from typing import Any

from reactpy import html

from components.dashboard.figures import figure, trend_badge
from components.paths import page_path
from components.shell.context import Console
from components.ui.elements import card
from components.ui.links import app_link
from components.widgets.chart import chart

KPI_KEYS: tuple[tuple[str, str], ...] = (
    ("impressions", "bi-eye"),
    ("clicks", "bi-cursor"),
    ("ctr", "bi-percent"),
    ("spend", "bi-currency-dollar"),
    ("conversions", "bi-bullseye"),
    ("ecpm", "bi-graph-up"),
)
LOWER_IS_BETTER = frozenset({"cpa", "ecpm", "ecpc"})
ZERO_TOTALS = {"impressions": 0, "clicks": 0, "ctr": None, "spend": 0, "conversions": 0, "ecpm": None}


def kpi_tiles(console: Console, totals: dict[str, Any] | None = None,
              trend: dict[str, float | None] | None = None) -> Any:
    totals = totals or ZERO_TOTALS
    tiles = []
    for key, icon in KPI_KEYS:
        badge = trend_badge((trend or {}).get(key), lower_is_better=key in LOWER_IS_BETTER) if trend else None
        tiles.append(html.div(
            {"className": "col-6 col-md-4 col-xl-2", "key": key},
            html.div({"className": "card dsp-card dsp-kpi shadow-sm border-0 h-100"},
                     html.div({"className": "card-body d-flex align-items-center gap-3"},
                              html.span({"className": "dsp-kpi-icon"}, html.i({"className": f"bi {icon}", "aria-hidden": "true"})),
                              html.div({"className": "min-w-0"},
                                       html.div({"className": "small text-body-secondary"}, console.t(f"dashboard.kpi.{key}")),
                                       html.div({"className": "fs-5 fw-semibold text-nowrap", "data-kpi": key},
                                                figure(key, totals.get(key), console.language, short=True)),
                                       html.div({"className": f"small {badge[1]}", "data-trend": key,
                                                 "title": console.t("dashboard.vs_previous")},
                                                html.i({"className": f"bi {badge[2]} me-1", "aria-hidden": "true"}), badge[0])
                                       if badge else "")))))
    return html.div({"className": "row g-3 mb-4"}, *tiles)


def delivery_chart(console: Console, days: list[dict[str, Any]]) -> Any:
    t = console.t
    return chart(x=[d["date"] for d in days], x_label=t("dashboard.col.date"),
                 series=[{"name": t("dashboard.kpi.impressions"), "values": [d["impressions"] for d in days],
                          "type": "bar", "axis": "left", "format": "number"},
                         {"name": t("dashboard.kpi.spend"), "values": [d["spend"] for d in days],
                          "type": "line", "axis": "right", "format": "money"}],
                 height=320, locale=console.language, empty_text=t("dashboard.no_delivery"))


# Which page a breakdown row links to: the row's id key and the page's name.
_ROW_LINKS = {"campaign": ("campaign_id", "campaign.view"), "creative": ("creative_id", "creative.view"),
              "advertiser": ("advertiser_id", "campaigns.of_advertiser")}


def _label(console: Console, name: str, row: dict[str, Any], label_key: str) -> Any:
    text = str(row.get(label_key) or console.t("dashboard.unknown"))
    link = _ROW_LINKS.get(name)
    if link and row.get(link[0]):
        path = page_path(link[1], console.role, id=row[link[0]])
        if path:
            return app_link({"to": path, "className": "link-body-emphasis text-decoration-none"}, text)
    return text


def breakdown_card(console: Console, name: str, rows: list[dict[str, Any]], label_key: str) -> Any:
    t, language = console.t, console.language
    top_spend = max((r["spend"] or 0 for r in rows), default=0) or 1
    body: Any
    if not rows:
        body = html.p({"className": "text-body-secondary small mb-0 py-3 text-center"}, t("dashboard.no_rows"))
    else:
        body = html.div({"className": "table-responsive"}, html.table(
            {"className": "table table-sm align-middle mb-0 dsp-breakdown", "data-breakdown": name},
            html.thead(html.tr(
                html.th({"scope": "col"}, t(f"dashboard.by.{name}")),
                *[html.th({"scope": "col", "className": "text-end"}, t(f"dashboard.kpi.{k}"))
                  for k in ("impressions", "clicks", "ctr", "spend")])),
            html.tbody(*[html.tr(
                {"key": f"row-{index}"},
                html.td({"className": "text-truncate dsp-breakdown-label"}, _label(console, name, row, label_key),
                        html.div({"className": "dsp-share", "aria-hidden": "true"},
                                 html.span({"style": {"width": f"{(row['spend'] or 0) * 100 / top_spend:.0f}%"}}))),
                *[html.td({"className": "text-end text-nowrap"}, figure(k, row.get(k), language))
                  for k in ("impressions", "clicks", "ctr", "spend")])
                for index, row in enumerate(rows)])))
    return card(body, title=t(f"dashboard.performance_by.{name}"), class_name="h-100")


def day_table(console: Console, days: list[dict[str, Any]]) -> Any:
    t, language = console.t, console.language
    keys = ("impressions", "clicks", "ctr", "spend", "ecpm", "conversions", "cpa")
    # A scrolling region takes keyboard focus, so it can be scrolled without a mouse.
    return card(html.div({"className": "table-responsive dsp-day-table", "tabIndex": 0, "role": "region",
                          "aria-label": t("dashboard.performance_by_day_table")}, html.table(
        {"className": "table table-sm table-hover align-middle mb-0", "data-table": "by-day"},
        html.thead({"className": "sticky-top"}, html.tr(
            html.th({"scope": "col"}, t("dashboard.col.date")),
            *[html.th({"scope": "col", "className": "text-end"}, t(f"dashboard.kpi.{k}")) for k in keys])),
        html.tbody(*[html.tr({"key": f"day-{d['date']}"}, html.td({"className": "text-nowrap"}, d["date"]),
                             *[html.td({"className": "text-end text-nowrap"}, figure(k, d.get(k), language))
                               for k in keys])
                     for d in reversed(days)]))),
        title=t("dashboard.performance_by_day_table"))
