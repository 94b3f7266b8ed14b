"""What the funds pages share: KPI cards and the grids' height (the ledger itself: components/funds/ledger.py)."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.kernel.i18n.formatters import money
from components.ui.console import Console


def kpi_card(console: Console, *, key: str, label: str, micros: int | None = None, text: str | None = None,
             icon: str, hint: str = "") -> Any:
    """One figure in a card, the way the dashboard shows its KPIs; `data-kpi` names it for tests."""
    value = text if text is not None else money(micros or 0, micros=True, language=console.language)
    negative = micros is not None and micros < 0
    return html.div(
        {"className": "col-sm-6 col-xl-3", "key": key},
        html.div({"className": "card dsp-card dsp-kpi shadow-sm border-0 h-100"},
                 html.div({"className": "card-body d-flex align-items-center gap-3"},
                          html.span({"className": "dsp-kpi-icon"}, html.i({"className": f"bi {icon}"})),
                          html.div({"className": "min-w-0"},
                                   html.div({"className": "small text-body-secondary"}, label),
                                   html.div({"className": "fs-4 fw-semibold" + (" text-danger" if negative else ""),
                                             "data-kpi": key}, value),
                                   html.div({"className": "small text-body-secondary"}, hint) if hint else ""))))


def kpi_row(*cards: Any) -> Any:
    return html.div({"className": "row g-3 mb-4"}, *cards)


def grid_height(rows: int, *, most: int = 520) -> int:
    """Tall enough for the rows (a few rows should not sit above an empty screenful), at most `most` pixels,
    beyond which the grid scrolls. 44 px a row plus the search bar, header and footer."""
    return max(240, min(most, 150 + 44 * rows))
