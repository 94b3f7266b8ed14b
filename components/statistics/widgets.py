"""The dashboards' building blocks: headline tiles, the delivery chart, the "performance by" tables and the
day-by-day table. Each takes plain rows from services/dashboards and draws them; none reads the database."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict, cast

from reactpy import html

from app.kernel.i18n.formatters import day
from app.statistics.dashboards import BREAKDOWNS
from app.statistics.money_replies import Figure
from app.warehouse.schema import METRICS
from components.statistics.figures import figure, trend_badge
from components.ui.console import Console
from components.ui.elements import card, skeleton, slot
from components.widgets.chart import chart
from components.widgets.datagrid import ColumnType, GridColumn
from components.widgets.figure_table import figure_table

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


def kpi_tiles(console: Console, totals: Mapping[str, Figure] | None = None,
              trend: Mapping[str, Figure] | None = None, *, trends: bool = False,
              on_explain: Callable[[str], Any] | None = None) -> Any:
    """The headline tiles; with `trends` (Insight360) each has a line for its change against the previous
    period, kept (empty) where there is none yet, so the tiles are as tall before the figures as after.
    `on_explain(metric)`: each tile gets a small button that asks what its figure is made of."""
    totals = totals or ZERO_TOTALS
    tiles = []
    for key, icon in KPI_KEYS:
        change = (trend or {}).get(key)
        badge = (trend_badge(change if isinstance(change, int | float) else None, lower_is_better=key in LOWER_IS_BETTER)
                 if trends else None)
        tiles.append(html.div(
            {"className": "col-6 col-md-4 col-xl-2", "key": key},
            html.div({"className": "card dsp-card dsp-kpi shadow-sm border-0 h-100 position-relative"},
                     explain_button(console, key, on_explain) if on_explain else "",
                     html.div({"className": "card-body d-flex align-items-center gap-3"},
                              html.span({"className": "dsp-kpi-icon"}, html.i({"className": f"bi {icon}", "aria-hidden": "true"})),
                              html.div({"className": "min-w-0"},
                                       html.div({"className": "small text-body-secondary"}, console.t(f"dashboard.kpi.{key}")),
                                       html.div({"className": "fs-5 fw-semibold text-nowrap", "data-kpi": key},
                                                figure(key, totals.get(key), console.language, short=True)),
                                       html.div({"className": f"small {badge[1]}", "data-trend": key,
                                                 "title": console.t("dashboard.vs_previous")},
                                                html.i({"className": f"bi {badge[2]} me-1", "aria-hidden": "true"}), badge[0])
                                       if badge else
                                       html.div({"className": "small", "aria-hidden": "true"}, "\u00a0") if trends
                                       else "")))))
    return html.div({"className": "row g-3 mb-4"}, *tiles)


def explain_button(console: Console, key: str, on_explain: Callable[[str], Any]) -> Any:
    """The (i) in a figure card's corner (the card is position-relative) that asks what its figure is made of."""
    label = console.t("explain.open", metric=console.t(f"dashboard.kpi.{key}"))
    return html.button({"type": "button", "className": "btn btn-link btn-sm p-0 position-absolute top-0 end-0 me-2 mt-1 "
                                                     "text-body-secondary dsp-kpi-explain",
                        "title": label, "aria-label": label, "data-explain-open": key,
                        "onClick": lambda _e: on_explain(key)},
                       html.i({"className": "bi bi-info-circle", "aria-hidden": "true"}))


# Every widget's final height is reserved before its data and its JS bundle arrive, so nothing below it moves
# when it draws (Lighthouse's cumulative layout shift; bench/lighthouse.py). Tables' rows have fixed heights in
# rem (console.css, .dsp-figure-table), so a table's height follows from its row count alone, whatever the font.
CHART_HEIGHT_PX = 320
TABLE_HEAD_REM = 2.0
BREAKDOWN_ROW_REM = 2.375  # a label over its share bar
DAY_ROW_REM = 2.0
EMPTY_TABLE_REM = 3.25  # the "nothing delivered" line
# A breakdown's box holds at least this many rows, its skeleton exactly this many: a table of up to five rows
# (or none) draws into the space held for it, and only a longer one grows, below its top, mostly off the first screen.
BREAKDOWN_MIN_ROWS = 5


def table_height(rows: int, row_rem: float, max_px: int | None = None) -> str:
    if not rows:
        return f"{EMPTY_TABLE_REM}rem"
    height = f"{TABLE_HEAD_REM + rows * row_rem:g}rem"
    return f"min({max_px}px, {height})" if max_px else height


def chart_slot(content: Any) -> Any:
    return slot(content, f"{CHART_HEIGHT_PX}px")


def delivery_chart(console: Console, days: list[dict[str, Figure]]) -> Any:
    t = console.t
    return chart(x=[str(d["date"]) for d in days], x_label=t("dashboard.col.date"),
                 series=[{"name": t("dashboard.kpi.impressions"), "values": [d["impressions"] for d in days],
                          "type": "bar", "axis": "left", "format": "number"},
                         {"name": t("dashboard.kpi.spend"), "values": [d["spend"] for d in days],
                          "type": "line", "axis": "right", "format": "money"}],
                 height=CHART_HEIGHT_PX, locale=console.language, empty_text=t("dashboard.no_delivery"))


# Which page a breakdown row links to: the row's id key and the page's name.
_ROW_LINKS = {"campaign": ("campaign_id", "campaign.view"), "creative": ("creative_id", "creative.view"),
              "advertiser": ("advertiser_id", "campaigns.of_advertiser")}
BREAKDOWN_FIGURES = ("impressions", "clicks", "ctr", "spend")
DAY_FIGURES = ("impressions", "clicks", "ctr", "spend", "ecpm", "conversions", "cpa")
DAY_TABLE_HEIGHT_PX = 416


def _figure_columns(console: Console, keys: tuple[str, ...]) -> list[GridColumn]:
    return [{"key": k, "label": console.t(f"dashboard.kpi.{k}"), "type": cast(ColumnType, METRICS[k].kind)}
            for k in keys]


class _TableTexts(TypedDict):
    locale: str
    sort_label: str
    empty_text: str


def _table_texts(console: Console) -> _TableTexts:
    t = console.t
    return {"locale": console.language, "sort_label": t("grid.sort_by", column="{column}"),
            "empty_text": t("dashboard.no_rows")}


# Explain a table's figure (issue 27): on_explain(dimension key, its value in the row, metric, the row's label).
ExplainCell = Callable[[str, str, str, str], Any]


def _explained(console: Console, on_explain: ExplainCell | None, dimension: str, labels: dict[str, str],
               key: str = "explain") -> dict[str, Any]:
    """figure_table's explain options for a table whose rows hold a `dimension` value under `key` (their labels
    by value)."""
    if on_explain is None:
        return {}
    explain = on_explain

    def explained(value: str, metric: str) -> None:
        explain(dimension, value, metric, labels.get(value, value))

    return {"on_explain": explained, "explain_key": key,
            "explain_label": console.t("explain.open", metric="{column}")}


def breakdown_card(console: Console, name: str, rows: list[dict[str, Figure]] | None, label_key: str,
                   on_explain: ExplainCell | None = None) -> Any:
    """The top rows of one "performance by" breakdown, each labelled (and linked to its campaign, creative or
    advertiser where there is one) with a bar of its share of the top spend; a skeleton while `rows` is None.
    With `on_explain`, each figure opens what it is made of."""
    t = console.t
    title = t(f"dashboard.performance_by.{name}")
    if rows is None:
        return card(slot(skeleton("table"), table_height(BREAKDOWN_MIN_ROWS, BREAKDOWN_ROW_REM)), title=title,
                    class_name="h-100")
    link = _ROW_LINKS.get(name)
    dimension = BREAKDOWNS[name][0]
    shown = []
    labels: dict[str, str] = {}
    for index, row in enumerate(rows):
        item: dict[str, Figure] = {"row": index, "label": str(row.get(label_key) or t("dashboard.unknown")),
                **{k: row.get(k) for k in BREAKDOWN_FIGURES}}
        if link and row.get(link[0]):
            item["href"] = console.path(link[1], id=row[link[0]])
        if row.get(dimension) not in (None, ""):  # an unknown placement's row has no value to narrow by
            item["explain"] = labels_key = str(row[dimension])
            labels[labels_key] = str(item["label"])
        shown.append(item)
    table = figure_table(columns=[{"key": "label", "label": t(f"dashboard.by.{name}")},
                                  *_figure_columns(console, BREAKDOWN_FIGURES)],
                         rows=shown, row_key="row", link_key="href", share_key="spend", sort="-spend",
                         table_data={"breakdown": name}, **_table_texts(console),
                         **_explained(console, on_explain, dimension, labels))
    height = table_height(max(len(shown), BREAKDOWN_MIN_ROWS), BREAKDOWN_ROW_REM)
    return card(slot(table, height, centred=not shown), title=title, class_name="h-100")


def day_table(console: Console, days: list[dict[str, Figure]] | None, day_count: int,
              on_explain: ExplainCell | None = None) -> Any:
    """Every day of the period, newest first, in a box that scrolls; a skeleton of `day_count` rows while `days`
    is None."""
    t = console.t
    title = t("dashboard.performance_by_day_table")
    if days is None:
        return card(slot(skeleton("table"), table_height(day_count, DAY_ROW_REM, DAY_TABLE_HEIGHT_PX)), title=title)
    table = figure_table(columns=[{"key": "date", "label": t("dashboard.col.date"), "type": "date"},
                                  *_figure_columns(console, DAY_FIGURES)],
                         rows=[{k: d.get(k) for k in ("date", *DAY_FIGURES)} for d in days], row_key="date",
                         sort="-date", max_height=DAY_TABLE_HEIGHT_PX, label=title, table_data={"table": "by-day"},
                         **_table_texts(console),
                         **_explained(console, on_explain, "date",
                                      {str(d.get("date")): day(str(d.get("date")), language=console.language) for d in days},
                                      key="date"))
    return card(slot(table, table_height(len(days), DAY_ROW_REM, DAY_TABLE_HEIGHT_PX), centred=not days), title=title)
