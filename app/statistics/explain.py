"""Explain a figure (issue 27): what one number on a dashboard or report is made of.

A figure is a metric over a period with the page's filters and scope. Its explanation is the campaign x day x
exchange rows the store sums into it (their measures add up to the figure's exactly: the same store, the same
rows, the same scope) and the ingestion batches those rows came from. Row scope is the statistics read's
(service.build_query), so another tenant's rows can never appear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date

from sqlmodel import Session

from app.access.policy import Actor
from app.kernel import csv_exports
from app.kernel.csv_exports import ExportLink
from app.kernel.errors import Invalid
from app.statistics import service as statistics
from app.statistics.money_replies import Figure
from app.statistics.schemas import BatchRead, Explanation
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, StatsRow, StatsValue
from app.warehouse.schema import MEASURES, METRICS

# The rows behind a figure: one per campaign, day and exchange (the advertiser beside its campaign).
ROW_DIMENSIONS = ("date", "advertiser_id", "campaign_id", "exchange")
# Every row shows the counted measures a figure is made of (a ratio is the ratio of their sums), and spend.
ROW_METRICS = ("impressions", "clicks", "spend", "conversions")
PAGE_ROWS = 500  # rows one answer carries at most; the total says how many there are (the CSV has them all)
MAX_BATCHES = 500  # batches one answer lists, oldest first (a batch per hour and exchange: 30 days is ~720 each)
EXPORT_FILE = "Explanation.csv"


def _check(metric: str, offset: int = 0, limit: int = PAGE_ROWS) -> None:
    if metric not in METRICS:
        raise Invalid({"metric": f"Choose one of: {', '.join(METRICS)}."})
    if offset < 0:
        raise Invalid({"offset": "Give 0 or more."})
    if not 1 <= limit <= PAGE_ROWS:
        raise Invalid({"limit": f"Give 1 to {PAGE_ROWS}."})


def figure_query(db: Session, *, actor: Actor, metric: str, start: str | date | None = None,
                 end: str | date | None = None, filters: Mapping[str, Sequence[int | str]] | None = None,
                 advertiser_id: int | None = None, time_zone: str = "UTC") -> StatsQuery:
    """The query of a figure as a page asks for it (its days, filters and the actor's scope, checked)."""
    _check(metric)
    first, last = statistics.parse_period(start, end)
    return statistics.build_query(db, actor=actor, start=first, end=last, metrics=(metric,), filters=filters,
                                  advertiser_id=advertiser_id, time_zone=time_zone)


def _rows_and_total(db: Session, figure: StatsQuery, metric: str) -> tuple[list[StatsRow], StatsRow, list[BatchRead]]:
    """Every row behind the figure (names beside ids), the figure's own total row and the batches."""
    metrics = tuple(dict.fromkeys((*ROW_METRICS, metric)))
    total_query = replace(figure, dimensions=(), metrics=metrics, events=(), order_by=None, descending=False,
                          limit=None)
    rows_query = replace(total_query, dimensions=ROW_DIMENSIONS, limit=statistics.MAX_ROWS)
    rows = statistics.run(db, rows_query)
    if len(rows) >= statistics.MAX_ROWS:  # the store's answer is capped there: rows past it would not add up
        raise Invalid({"start": f"More than {statistics.MAX_ROWS:,} rows are behind this figure: choose fewer days "
                                "or one campaign."})
    total = statistics.run(db, total_query, names=False)[0]
    batches = [BatchRead(batch_id=b.batch_id, source=b.source, received_at=b.received_at.isoformat() + "Z",
                         rows=b.rows, impressions=b.impressions, clicks=b.clicks, spend=b.spend_micros / 1e6,
                         spend_micros=b.spend_micros, conversions=b.conversions)
               for b in get_store().batches_of(rows_query)]
    return rows, total, batches


def explain_query(db: Session, figure: StatsQuery, *, metric: str, offset: int = 0,
                  limit: int = PAGE_ROWS) -> Explanation:
    """The explanation of `metric` over a figure's checked query (figure_query, or a report run's): its
    dimensions and order are not read, only its days, time zone, scope and filters."""
    _check(metric, offset, limit)
    rows, total, batches = _rows_and_total(db, figure, metric)
    return Explanation(
        metric=metric, kind=METRICS[metric].kind, start=figure.start.isoformat(), end=figure.end.isoformat(),
        time_zone=figure.time_zone,
        totals={key: _number(total.get(key)) for key in (*MEASURES, "spend", metric)},
        total_rows=len(rows), offset=offset, rows=[_plain(row) for row in rows[offset:offset + limit]],
        total_batches=len(batches), batches=batches[:MAX_BATCHES])


def explain(db: Session, *, actor: Actor, metric: str, start: str | date | None = None, end: str | date | None = None,
            filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
            time_zone: str = "UTC", offset: int = 0, limit: int = PAGE_ROWS) -> Explanation:
    """What `metric` over start..end (the page's filters and scope) is made of: the campaign x day x exchange
    rows (`limit` of them from `offset`, day then campaign then exchange; `total_rows` counts all) and the
    ingestion batches they came from. The rows' measures sum to `totals` exactly; `totals[metric]` is the
    figure the page shows (a ratio: of those sums)."""
    _check(metric, offset, limit)
    figure = figure_query(db, actor=actor, metric=metric, start=start, end=end, filters=filters,
                          advertiser_id=advertiser_id, time_zone=time_zone)
    return explain_query(db, figure, metric=metric, offset=offset, limit=limit)


def _number(value: StatsValue) -> int | float | None:
    return value if isinstance(value, int | float) else None


def _plain(row: StatsRow) -> dict[str, Figure]:
    return {key: value.isoformat() if isinstance(value, date) else value for key, value in row.items()}


EXPORT_COLUMNS = ("date", "advertiser_id", "advertiser_name", "campaign_id", "campaign_name", "exchange",
                  "impressions", "clicks", "spend", "spend_micros", "conversions")


def export_query(db: Session, figure: StatsQuery, *, actor: Actor, metric: str) -> ExportLink:
    """Every row behind the figure as a CSV (one line per campaign, day and exchange, with the metric's own
    column when it is a ratio), linked for 15 minutes to `actor` only."""
    _check(metric)
    rows, _total, _batches = _rows_and_total(db, figure, metric)
    columns = [*EXPORT_COLUMNS, *([metric] if metric not in EXPORT_COLUMNS else [])]
    stored = csv_exports.write_export(columns, ([_cell(row.get(c)) for c in columns] for row in rows))
    return csv_exports.export_link(actor=actor, stored=stored, filename=EXPORT_FILE)


def export(db: Session, *, actor: Actor, metric: str, start: str | date | None = None, end: str | date | None = None,
           filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
           time_zone: str = "UTC") -> ExportLink:
    """explain's rows, every one, as a CSV download link."""
    figure = figure_query(db, actor=actor, metric=metric, start=start, end=end, filters=filters,
                          advertiser_id=advertiser_id, time_zone=time_zone)
    return export_query(db, figure, actor=actor, metric=metric)


def _cell(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value
