"""Explain a figure (issue 27): what one number on a dashboard or report is made of.

A figure is a metric over a period with the page's filters and scope. Its explanation is the campaign x day x
exchange rows the store sums into it (their measures add up to the figure's exactly: the same store, the same
rows, the same scope) and the ingestion batches those rows came from. Row scope is the statistics read's
(service.build_query), so another tenant's rows can never appear.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from app.warehouse.base import StatsRow, StatsValue
from app.warehouse.schema import MEASURES, METRICS

# The rows behind a figure: one per campaign, day and exchange (the advertiser beside its campaign).
ROW_DIMENSIONS = ("date", "advertiser_id", "campaign_id", "exchange")
# Every row shows the counted measures a figure is made of (a ratio is the ratio of their sums), and spend.
ROW_METRICS = ("impressions", "clicks", "spend", "conversions")
PAGE_ROWS = 500  # rows one answer carries at most; the total says how many there are (the CSV has them all)
MAX_BATCHES = 500  # batches one answer lists, oldest first (a batch per hour and exchange: 30 days is ~720 each)
EXPORT_FILE = "Explanation.csv"


def _query_options(metric: str, filters: Mapping[str, Sequence[int | str]] | None) -> dict[str, Sequence[int | str]]:
    if metric not in METRICS:
        raise Invalid({"metric": f"Choose one of: {', '.join(METRICS)}."})
    return dict(filters or {})


def _rows_and_total(db: Session, *, actor: Actor, metric: str, start: date, end: date,
                    filters: Mapping[str, Sequence[int | str]] | None, advertiser_id: int | None,
                    time_zone: str) -> tuple[list[StatsRow], StatsRow, list[BatchRead]]:
    """Every row behind the figure (names beside ids), the figure's own total row and the batches."""
    clean = _query_options(metric, filters)
    metrics = tuple(dict.fromkeys((*ROW_METRICS, metric)))
    rows_query = statistics.build_query(db, actor=actor, start=start, end=end, dimensions=ROW_DIMENSIONS,
                                        metrics=metrics, filters=clean, advertiser_id=advertiser_id,
                                        time_zone=time_zone)
    total_query = statistics.build_query(db, actor=actor, start=start, end=end, metrics=metrics, filters=clean,
                                         advertiser_id=advertiser_id, time_zone=time_zone)
    rows = statistics.run(db, rows_query)
    total = statistics.run(db, total_query, names=False)[0]
    batches = [BatchRead(batch_id=b.batch_id, source=b.source, received_at=b.received_at.isoformat() + "Z",
                         rows=b.rows, impressions=b.impressions, clicks=b.clicks, spend=b.spend_micros / 1e6,
                         spend_micros=b.spend_micros, conversions=b.conversions)
               for b in get_store().batches_of(rows_query)]
    return rows, total, batches


def explain(db: Session, *, actor: Actor, metric: str, start: str | date | None = None, end: str | date | None = None,
            filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
            time_zone: str = "UTC", offset: int = 0, limit: int = PAGE_ROWS) -> Explanation:
    """What `metric` over start..end (the page's filters and scope) is made of: the campaign x day x exchange
    rows (`limit` of them from `offset`, day then campaign then exchange; `total_rows` counts all) and the
    ingestion batches they came from. The rows' measures sum to `totals` exactly; `totals[metric]` is the
    figure the page shows (a ratio: of those sums)."""
    first, last = statistics.parse_period(start, end)
    if offset < 0:
        raise Invalid({"offset": "Give 0 or more."})
    if not 1 <= limit <= PAGE_ROWS:
        raise Invalid({"limit": f"Give 1 to {PAGE_ROWS}."})
    rows, total, batches = _rows_and_total(db, actor=actor, metric=metric, start=first, end=last, filters=filters,
                                           advertiser_id=advertiser_id, time_zone=time_zone)
    return Explanation(
        metric=metric, kind=METRICS[metric].kind, start=first.isoformat(), end=last.isoformat(), time_zone=time_zone,
        totals={key: _number(total.get(key)) for key in (*MEASURES, "spend", metric)},
        total_rows=len(rows), offset=offset, rows=[_plain(row) for row in rows[offset:offset + limit]],
        total_batches=len(batches), batches=batches[:MAX_BATCHES])


def _number(value: StatsValue) -> int | float | None:
    return value if isinstance(value, int | float) else None


def _plain(row: StatsRow) -> dict[str, Figure]:
    return {key: value.isoformat() if isinstance(value, date) else value for key, value in row.items()}


EXPORT_COLUMNS = ("date", "advertiser_id", "advertiser_name", "campaign_id", "campaign_name", "exchange",
                  "impressions", "clicks", "spend", "spend_micros", "conversions")


def export(db: Session, *, actor: Actor, metric: str, start: str | date | None = None, end: str | date | None = None,
           filters: Mapping[str, Sequence[int | str]] | None = None, advertiser_id: int | None = None,
           time_zone: str = "UTC") -> ExportLink:
    """Every row behind the figure as a CSV (one line per campaign, day and exchange, with the metric's own
    column when it is a ratio), linked for 15 minutes to this user only."""
    first, last = statistics.parse_period(start, end)
    rows, _total, _batches = _rows_and_total(db, actor=actor, metric=metric, start=first, end=last, filters=filters,
                                             advertiser_id=advertiser_id, time_zone=time_zone)
    columns = [*EXPORT_COLUMNS, *([metric] if metric not in EXPORT_COLUMNS else [])]
    stored = csv_exports.write_export(columns, ([_cell(row.get(c)) for c in columns] for row in rows))
    return csv_exports.export_link(actor=actor, stored=stored, filename=EXPORT_FILE)


def _cell(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value
