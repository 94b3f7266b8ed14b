"""The dashboards of all four roles: headline figures, the delivery chart and an accounts or
transactions table. Delivery figures stay at zero with an empty state until statistics arrive."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.auth.roles import Role
from app.i18n.formatters import money
from app.services import directory
from components.shell.context import Console, use_console
from components.ui.elements import card, page_header
from components.ui.hooks import use_query
from components.users.accounts_table import account_columns, account_rows
from components.widgets.chart import chart
from components.widgets.datagrid import data_grid

KPI_KEYS: tuple[tuple[str, str], ...] = (
    ("impressions", "bi-eye"),
    ("clicks", "bi-cursor"),
    ("ctr", "bi-percent"),
    ("spend", "bi-currency-dollar"),
    ("conversions", "bi-bullseye"),
)


def _zero(key: str, language: str) -> str:
    """What a tile shows before statistics arrive; money in the user's language, as the grids show it."""
    return {"ctr": "0.00%", "spend": money(0, language=language)}.get(key, "0")


def kpi_tiles(console: Console) -> Any:
    return html.div({"className": "row g-3 mb-4"}, *[
        html.div({"className": "col-6 col-md-4 col-xl", "key": key},
                 html.div({"className": "card dsp-card dsp-kpi shadow-sm border-0 h-100"},
                          html.div({"className": "card-body d-flex align-items-center gap-3"},
                                   html.span({"className": "dsp-kpi-icon"}, html.i({"className": f"bi {icon}"})),
                                   html.div(html.div({"className": "small text-body-secondary"}, console.t(f"dashboard.kpi.{key}")),
                                            html.div({"className": "fs-5 fw-semibold", "data-kpi": key},
                                                     _zero(key, console.language))))))
        for key, icon in KPI_KEYS
    ])


def delivery_chart(console: Console, *, kind: str) -> Any:
    option: dict[str, Any] = {"tooltip": {"trigger": "axis" if kind != "pie" else "item"}, "series": []}
    if kind != "pie":
        option.update({"grid": {"left": 48, "right": 16, "top": 24, "bottom": 32},
                       "xAxis": {"type": "category", "data": []}, "yAxis": {"type": "value"}})
    return chart(option, height=300, empty_text=console.t("dashboard.no_delivery"))


ACCOUNT_COLUMNS = ("name", "email", "role", "agency", "status", "balance", "created")


def _accounts_grid(console: Console) -> Any:
    query = use_query(directory.accounts_overview, actor=console.actor)
    rows = query.value
    t = console.t
    keys = [key for key in ACCOUNT_COLUMNS if not (key == "agency" and console.role == Role.AGENCY)]
    columns = account_columns(console, keys)
    data = account_rows(console, rows or [])
    title = t("dashboard.my_advertisers" if console.role == Role.AGENCY else "dashboard.accounts")
    return card(data_grid(columns=columns, rows=data, height=360, search_placeholder=t("common.search"),
                          empty_text=t("dashboard.no_accounts"), row_count_label=t("grid.rows"),
                          locale=console.language, loading_text=t("common.loading") if query.loading else None),
                title=title)


def _transactions_grid(console: Console) -> Any:
    query = use_query(directory.recent_transactions, actor=console.actor)
    rows = query.value
    t = console.t
    columns = [{"key": "date", "label": t("dashboard.col.date"), "type": "date"},
               {"key": "kind", "label": t("dashboard.col.kind"), "type": "text"},
               {"key": "note", "label": t("dashboard.col.note"), "type": "text"},
               {"key": "amount", "label": t("dashboard.col.amount"), "type": "money"}]
    data = [{**row, "kind": t(f"ledger.{row['kind']}")} for row in rows or []]
    return card(data_grid(columns=columns, rows=data, height=300, empty_text=t("dashboard.no_transactions"),
                          row_count_label=t("grid.rows"), locale=console.language,
                          loading_text=t("common.loading") if query.loading else None),
                title=t("dashboard.transactions"))


@component
def DashboardTable() -> Any:
    console = use_console()
    if console.role == Role.ADVERTISER:
        return _transactions_grid(console)
    return _accounts_grid(console)


@component
def DashboardPage() -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None
    insight = console.preferences.get("dashboard_view") == "new"
    title = t("topbar.view_new") if insight else t("topbar.view_old")
    subtitle = t("dashboard.welcome", name=actor.user.display_name)
    if insight:
        body = html.div(
            kpi_tiles(console),
            html.div({"className": "row g-4 mb-4"},
                     html.div({"className": "col-xl-8"}, card(delivery_chart(console, kind="line"), title=t("dashboard.performance_by_day"))),
                     html.div({"className": "col-xl-4"}, card(delivery_chart(console, kind="pie"), title=t("dashboard.spend_by_exchange")))),
            DashboardTable(),
        )
    else:
        body = html.div(
            kpi_tiles(console),
            html.div({"className": "row g-4"},
                     html.div({"className": "col-12"}, card(delivery_chart(console, kind="bar"), title=t("dashboard.performance_by_day"))),
                     html.div({"className": "col-12"}, DashboardTable())),
        )
    return html.div({"data-dashboard": "insight360" if insight else "classic"}, page_header(title, subtitle), body)
