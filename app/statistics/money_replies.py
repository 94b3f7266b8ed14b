"""Money in the statistics replies as the rest of the API answers it: dollars as text with two decimals ("12.35").

The dashboards and the statistics store compute in floats (spend_micros / 1e6) because the pages' charts and grids
draw numbers; the API turns those figures into text at its edge, so an integrator reads every amount the same way
(payment history, balances, budgets and bids already answer text). Which keys are money is declared once: the
store's money metrics (app/warehouse/schema.py) plus Insight360's pacing amounts."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from app.warehouse.schema import METRICS

# Insight360 adds a campaign's budget, what it spent, what it should have spent by now and the advertiser's balance.
MONEY_KEYS = frozenset({key for key, metric in METRICS.items() if metric.kind == "money"}
                       | {"budget", "spent", "expected", "balance"})
CENT = Decimal("0.01")


def as_text(amount: float | int | Decimal) -> str:
    """A figure in dollars as text to the cent, rounded half up (the store's division leaves float noise)."""
    return str(Decimal(str(amount)).quantize(CENT, rounding=ROUND_HALF_UP))


def money_as_text(value: Any) -> Any:
    """`value` with every number under a money key written as dollar text, however deep; None stays None."""
    if isinstance(value, dict):
        return {key: as_text(item) if key in MONEY_KEYS and isinstance(item, int | float | Decimal)
                and not isinstance(item, bool) else money_as_text(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [money_as_text(item) for item in value]
    return value
