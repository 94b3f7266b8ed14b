"""What the funds pages share: KPI cards, the ledger grid's columns and rows, the page that opens the ledger."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.i18n.formatters import money
from components.shell.context import Console

# Kinds that take money off are shown muted; credits green, adjustments by their sign.
KIND_VARIANTS = {"deposit": "success", "refund": "info", "spend": "secondary", "margin": "warning"}


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


def ledger_columns(console: Console) -> list[dict[str, Any]]:
    t = console.t
    return [{"key": "date", "label": t("payments.date"), "type": "date", "width": 190},
            {"key": "kind", "label": t("payments.kind"), "type": "badge", "width": 140},
            {"key": "note", "label": t("payments.note"), "width": 320},
            {"key": "amount", "label": t("payments.amount"), "type": "money", "width": 140},
            {"key": "balance", "label": t("payments.balance"), "type": "money", "width": 150}]


def ledger_rows(console: Console, history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def variant(row: dict[str, Any]) -> str:
        return KIND_VARIANTS.get(row["kind"], "danger" if row["amount"].startswith("-") else "primary")
    return [{**row, "kind": {"text": console.t(f"ledger.{row['kind']}"), "variant": variant(row)}} for row in history]


def grid_height(rows: int, *, most: int = 520) -> int:
    """Tall enough for the rows (a few rows should not sit above an empty screenful), at most `most` pixels,
    beyond which the grid scrolls. 44 px a row plus the search bar, header and footer."""
    return max(240, min(most, 150 + 44 * rows))
