"""Delivery figures for a list of entities (campaigns now; creatives with dimension "creative_id"): ONE read of
the statistics store grouped by the entity's id over the period, inside the actor's row scope
(statistics.build_query), never a read per row. The figures are the dashboard's (the same metrics, the same UTC
days, the same sums), so a list and the dashboard agree to the cent.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlmodel import Session

from app.access.policy import Actor
from app.statistics import service as statistics
from app.warehouse.base import StatsRow, whole

# The figures a list shows beside its settings (schema.METRICS keys); spend_micros comes with "spend".
FIGURES = ("impressions", "clicks", "ctr", "spend", "ecpm", "ecpc", "conversions", "cpa")
# The id columns a list can be grouped by: the entity lists that show figures.
ENTITY_DIMENSIONS = ("campaign_id", "creative_id")


def figures_by(db: Session, *, actor: Actor, dimension: str, start: date, end: date,
               ids: Sequence[int] | None = None, advertiser_id: int | None = None) -> dict[int, StatsRow]:
    """Each entity's figures over start..end (UTC days, as the dashboard), by its id: one grouped read for the
    whole scope (or only `ids`). An entity without delivery is absent; zeros() gives its row."""
    if dimension not in ENTITY_DIMENSIONS:
        raise ValueError(f"not an entity list's dimension: {dimension}")
    filters = {dimension: list(ids)} if ids is not None else None
    if ids is not None and not ids:
        return {}
    query = statistics.build_query(db, actor=actor, start=start, end=end, dimensions=[dimension], metrics=FIGURES,
                                   filters=filters, advertiser_id=advertiser_id)
    rows = statistics.run(db, query, names=False)  # the list has the names beside its settings already
    return {whole(row[dimension]): row for row in rows}


def zeros() -> StatsRow:
    """The figures of an entity with no delivery in the period (counts 0, ratios empty)."""
    return statistics.zero_row(FIGURES)
