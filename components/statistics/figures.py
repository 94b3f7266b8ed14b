"""How the dashboards write a figure: counts grouped in the user's language, money with the spec's dollar
format, ratios as percentages, and "–" where a ratio has no denominator."""

from __future__ import annotations

from typing import Any

from app.kernel.i18n.formatters import grouped, money, short_number
from app.warehouse.schema import METRICS

DASH = "–"


def figure(key: str, value: Any, language: str, *, short: bool = False) -> str:
    if value is None:
        return DASH
    kind = METRICS[key].kind if key in METRICS else "number"
    if kind == "money":
        return money(value, language=language)
    if kind == "percent":
        return f"{grouped(value, language=language, decimals=2)}%"
    return short_number(value) if short and value >= 10_000 else grouped(value, language=language)


def trend_badge(change: float | None, *, lower_is_better: bool = False) -> Any:
    """(text, css class) of a change against the previous period; green when it went the good way."""
    if change is None:
        return None
    good = (change < 0) if lower_is_better else (change > 0)
    arrow = "bi-arrow-up-right" if change > 0 else ("bi-arrow-down-right" if change < 0 else "bi-dash")
    tone = "text-success" if good else ("text-body-secondary" if change == 0 else "text-danger")
    return f"{'+' if change > 0 else ''}{change:.1f}%", tone, arrow
