"""Money in the statistics replies as the rest of the API answers it: dollars as text with two decimals ("12.35").

The dashboards and the statistics store compute in floats (spend_micros / 1e6) because the pages' charts and grids
draw numbers; the API turns those figures into text at its edge, so an integrator reads every amount the same way
(payment history, balances, budgets and bids already answer text). Which keys are money is declared once: the
store's money metrics (app/warehouse/schema.py) plus Insight360's pacing amounts.

The reply schemas (app/statistics/schemas.py) carry the rule: a `DollarFigure` field, or a `FigureRow` (a row
whose money columns are named by MONEY_KEYS), stays a number for the pages and is written as dollar text only
when a reply is turned into JSON."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import PlainSerializer

from app.warehouse.schema import METRICS

# Insight360 adds a campaign's budget, what it spent, what it should have spent by now and the advertiser's balance.
MONEY_KEYS = frozenset({key for key, metric in METRICS.items() if metric.kind == "money"}
                       | {"budget", "spent", "expected", "balance"})
CENT = Decimal("0.01")

# A figure as a reply carries it: a count or an id (int), a ratio (float), a name or an ISO day or hour (str), or
# None (a ratio whose denominator is 0). Money is a float in Python and dollar text in JSON (see FigureRow).
Figure = str | int | float | None


def as_text(amount: float | int | Decimal) -> str:
    """A figure in dollars as text to the cent, rounded half up (the store's division leaves float noise)."""
    return str(Decimal(str(amount)).quantize(CENT, rounding=ROUND_HALF_UP))


def row_money_as_text(row: Mapping[str, Figure]) -> dict[str, Figure]:
    """`row` with every number under a money key written as dollar text; None stays None."""
    return {key: as_text(value) if key in MONEY_KEYS and isinstance(value, int | float)
            and not isinstance(value, bool) else value for key, value in row.items()}


# An amount in dollars: a number for the pages, dollar text to the cent in a JSON reply.
DollarFigure = Annotated[float, PlainSerializer(as_text, return_type=str, when_used="json")]
# A row of figures keyed by column (dimensions, metrics, spend_micros, event_<name>): the columns asked for. Its
# money columns (MONEY_KEYS) are numbers for the pages and dollar text in a JSON reply.
FigureRow = Annotated[dict[str, Figure], PlainSerializer(row_money_as_text, return_type=dict[str, Figure],
                                                         when_used="json")]
