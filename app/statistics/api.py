"""Delivery statistics over the API: an admin sends hourly batches (JSON or CSV); every role reads statistics in
its row scope. The same service calls the pages make (services/ingestion.py, services/statistics.py)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from fastapi import APIRouter, Body, Depends, Query, Request
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.csv_exports import ExportLink
from app.statistics import csv_batches, ingestion
from app.statistics import explain as explain_service
from app.statistics import service as statistics
from app.statistics.money_replies import Figure
from app.statistics.schemas import BatchStored, Explanation, FigureRows, RowValue
from app.warehouse.base import StatsRow
from app.warehouse.schema import DEVICE_TYPES, DIMENSIONS, EVENT_PREFIX, METRICS
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["delivery statistics"])

ROW_EXAMPLE: dict[str, Any] = {"hour": "2026-11-10T14:00:00Z", "advertiser_id": 4, "campaign_id": 12, "creative_id": 0,
               "exchange": "Google AdX", "os": "Android", "country": "DE", "app": "com.example.game",
               "device_type": "phone", "impressions": 18250, "clicks": 141, "spend_micros": 43800000,
               "conversions": 6, "events": {"install": 5, "purchase": 1}}
BATCH_HELP = f"""Admin only (an admin's sign-in token: API keys are clients'). Stores a batch of hourly delivery rows whole or not
at all, then charges each advertiser's spend to its balance.

Each row: `hour` (ISO 8601 with `Z` or an offset, on the hour), `advertiser_id`, `campaign_id` (a campaign of that
advertiser), `creative_id` (0 or a creative of that advertiser), `exchange`, `os`, `app` (names), `country`
(ISO 3166-1 alpha-2), `device_type` ({', '.join(DEVICE_TYPES)}), `impressions`, `clicks`, `spend_micros`
(micro-dollars: $1.00 = 1000000), `conversions` (whole numbers, 0 or more; clicks may exceed impressions, they
can arrive late) and optionally `events` (custom event name, a-z 0-9 _, -> count) and `device` (when the row is
one device's delivery: its advertising id hashed, 16 to 64 hex digits, never the raw id; reach in forecasts counts
these).

`batch_id` (1-100 letters, digits, `- _ . :`) names the batch for good: send a batch again with the same id and
nothing is written or charged a second time; the reply then says `duplicate: true`. So after a timeout, retry
with the same id. At most {ingestion.MAX_ROWS:,} rows per call.

A bad row refuses the whole batch with 422, naming the row and the field (the first {ingestion.MAX_PROBLEMS}
problems), e.g. `{{"rows[17].country": "Not an ISO country code."}}`, and nothing is stored.

Example:

```
curl -X POST https://console.example.com/api/statistics/batches \\
  -H "Authorization: Bearer dsp_..." -H "Content-Type: application/json" \\
  -d '{{"batch_id": "exchange-a:2026-11-10T14", "rows": [{{"hour": "2026-11-10T14:00:00Z", "advertiser_id": 4,
       "campaign_id": 12, "creative_id": 0, "exchange": "Google AdX", "os": "Android", "country": "DE",
       "app": "com.example.game", "device_type": "phone", "impressions": 18250, "clicks": 141,
       "spend_micros": 43800000, "conversions": 6, "events": {{"install": 5}}}}]}}'
```

Replies `{{batch_id, rows, duplicate, spend_micros_by_advertiser}}` (advertiser id -> micro-dollars charged)."""

CSV_EXAMPLE = ("hour,advertiser_id,campaign_id,creative_id,exchange,os,country,app,device_type,impressions,clicks,"
               "spend_micros,conversions,event_install\n"
               "2026-11-10T14:00:00Z,4,12,0,Google AdX,Android,DE,com.example.game,phone,18250,141,43800000,6,5\n")
CSV_HELP = f"""The same as `POST /statistics/batches`, as CSV (`Content-Type: text/csv`) with a header row:
`{','.join(csv_batches.CSV_COLUMNS)}`, then optionally `device` (a hashed device id, as in the JSON rows) and any
number of `event_<name>` columns (a custom event's counts).
Problems name the line, counting the header as line 1, e.g. `{{"line 18.country": "Not an ISO country code."}}`.
At most {csv_batches.MAX_CSV_ROWS:,} lines ({csv_batches.MAX_CSV_BYTES // 2**20} MB) per call: the call for large
batches (a million lines are stored in seconds; JSON takes {ingestion.MAX_ROWS:,} rows).

```
curl -X POST "https://console.example.com/api/statistics/batches/csv?batch_id=exchange-a:2026-11-10T14" \\
  -H "Authorization: Bearer dsp_..." -H "Content-Type: text/csv" --data-binary @hour.csv
```"""

FILTERABLE = [key for key, d in DIMENSIONS.items() if d.kind != "time"]
READ_HELP = f"""Delivery statistics in your scope (admin and co-admin: every advertiser; agency: its advertisers;
advertiser: its own), summed over the chosen `dimensions` for the days `start`..`end` in `time_zone`.

- `dimensions` (comma list, none: one total row): {', '.join(DIMENSIONS)}
- `metrics` (comma list, none: all): {', '.join(METRICS)}
- `events`: custom event names, each answered as a column `{EVENT_PREFIX}<name>`
- `filter_<dimension>=v1,v2` keeps only those values, for {', '.join(FILTERABLE)}
- `order_by` a chosen dimension or metric, `desc=true`, `limit` (at most {statistics.MAX_ROWS:,})

Dates are ISO text (`date` as 2026-11-10, `hour` as 2026-11-10T14:00:00 in `time_zone`); money (`spend`, `ecpm`,
`ecpc`, `cpa`) in dollars as numbers, with the exact `spend_micros` beside `spend`; ratios are null when their
denominator is 0. Names are added beside advertiser, campaign and creative ids.

Example: `GET /api/statistics?start=2026-11-01&end=2026-11-30&dimensions=date,country&metrics=impressions,clicks,spend&filter_country=DE,AT&time_zone=Europe/Berlin`
answers `[{{"date": "2026-11-01", "country": "AT", "impressions": 52011, "clicks": 611, "spend": 124.83,
"spend_micros": 124830000}}, ...]`."""


class Batch(BaseModel):
    batch_id: str = Field(..., description="1-100 letters, digits and - _ . : — the batch's name for good")
    rows: list[dict[str, RowValue]] = Field(..., description=f"At most {ingestion.MAX_ROWS:,} hourly rows, each "
                                                             "an object of the fields above (each value checked, a "
                                                             "bad one named: rows[<index>].<field>)")

    model_config = {"json_schema_extra": {"example": {"batch_id": "exchange-a:2026-11-10T14", "rows": [ROW_EXAMPLE]}}}


@router.post("/statistics/batches", description=BATCH_HELP, summary="Send a batch of delivery statistics (JSON)")
def post_batch(body: Batch, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[BatchStored]:
    return _stored(ingestion.ingest_batch(db, actor=actor, batch_id=body.batch_id, rows=body.rows))


def _stored(result: BatchStored) -> Envelope[BatchStored]:
    return reply(result, "Batch already stored" if result.duplicate else f"{result.rows} rows stored")


@router.post("/statistics/batches/csv", description=CSV_HELP, summary="Send a batch of delivery statistics (CSV)")
def post_csv_batch(batch_id: str = Query(..., description="The batch's name for good, as in the JSON call"),
                   # A str body that is not JSON: FastAPI hands the raw text over (and /docs offers a text box).
                   text: str = Body(..., media_type="text/csv", examples=[CSV_EXAMPLE]),
                   actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[BatchStored]:
    return _stored(csv_batches.ingest_csv(db, actor=actor, batch_id=batch_id, text=text))


def _comma_list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _filters_of(request: Request) -> dict[str, list[str]]:
    """The filter_<dimension>=v1,v2 query parameters as dimension -> values."""
    return {key.removeprefix("filter_"): _comma_list(value) for key, value in request.query_params.items()
            if key.startswith("filter_")}


def _plain(row: StatsRow) -> dict[str, Figure]:
    return {key: value.isoformat() if isinstance(value, date | datetime) else value for key, value in row.items()}


@router.get("/statistics", description=READ_HELP, summary="Read delivery statistics",
            openapi_extra={"parameters": [
                {"name": f"filter_{key}", "in": "query", "required": False, "schema": {"type": "string"},
                 "description": f"Only these {key} values, comma separated"} for key in FILTERABLE]})
def read_statistics(request: Request,
                    start: str | None = Query(None, description="First day, YYYY-MM-DD (default: 29 days before end)"),
                    end: str | None = Query(None, description="Last day, YYYY-MM-DD (default: today)"),
                    dimensions: str = Query("", description="Comma list of dimensions"),
                    metrics: str = Query("", description="Comma list of metrics (none: all)"),
                    events: str = Query("", description="Comma list of custom event names"),
                    advertiser_id: int | None = Query(None, description="One advertiser in your scope"),
                    time_zone: str = Query("UTC", description="IANA time zone the days are counted in"),
                    order_by: str | None = Query(None), desc: bool = Query(False),
                    limit: int | None = Query(None, ge=1),
                    actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[FigureRows]:
    first, last = statistics.parse_period(start, end)
    filters = _filters_of(request)
    rows = statistics.statistics(db, actor=actor, start=first, end=last, dimensions=_comma_list(dimensions),
                                 metrics=_comma_list(metrics) or None, events=_comma_list(events), filters=filters,
                                 advertiser_id=advertiser_id, time_zone=time_zone, order_by=order_by or None,
                                 descending=desc, limit=limit)
    return reply(FigureRows([_plain(row) for row in rows]), f"{len(rows)} rows")


EXPLAIN_HELP = f"""What one figure is made of (a dashboard's or report's number: `metric` over `start`..`end` with the
page's filters and scope): the campaign x day x exchange rows the figure sums, and the ingestion batches those
rows came from (batch id, source, received time, rows and what they add).

- `metric`: {', '.join(METRICS)}
- `filter_<dimension>=v1,v2` as in `GET /statistics` (a dashboard's campaign: `filter_campaign_id=12`),
  `advertiser_id`, `time_zone`
- `offset`, `limit` (at most {explain_service.PAGE_ROWS}) page the rows; `total_rows` counts them all, and
  `csv=true` answers `{{csv_download_url, filename}}` for every row instead (the link works 15 minutes, for you)

The rows' `impressions`, `clicks`, `spend_micros` and `conversions` add up to `totals` exactly; `totals[metric]` is
the figure (a ratio is the ratio of the sums). Your scope applies as everywhere: another account's rows never
appear.

Example: `GET /api/statistics/explain?metric=spend&start=2026-11-01&end=2026-11-30&filter_campaign_id=12`
answers `{{"metric": "spend", "totals": {{"spend": "1234.56", "spend_micros": 1234560000, ...}}, "total_rows": 90,
"rows": [{{"date": "2026-11-01", "campaign_id": 12, "campaign_name": "Autumn", "exchange": "Magnite",
"spend": "12.30", ...}}], "total_batches": 30, "batches": [{{"batch_id": "exchange-a:2026-11-01T00",
"received_at": "2026-11-01T01:02:03Z", "rows": 4, ...}}]}}`."""


@router.get("/statistics/explain", description=EXPLAIN_HELP, summary="Explain a figure: its rows and batches",
            response_model=Envelope[Explanation | ExportLink],
            openapi_extra={"parameters": [
                {"name": f"filter_{key}", "in": "query", "required": False, "schema": {"type": "string"},
                 "description": f"Only these {key} values, comma separated"} for key in FILTERABLE]})
def explain_figure(request: Request,
                   metric: str = Query(..., description="The figure's metric", examples=["spend"]),
                   start: str | None = Query(None, description="First day, YYYY-MM-DD (default: 29 days before end)"),
                   end: str | None = Query(None, description="Last day, YYYY-MM-DD (default: today)"),
                   advertiser_id: int | None = Query(None, description="One advertiser in your scope"),
                   time_zone: str = Query("UTC", description="IANA time zone the days are counted in"),
                   offset: int = Query(0, ge=0), limit: int = Query(explain_service.PAGE_ROWS, ge=1,
                                                                    le=explain_service.PAGE_ROWS),
                   csv: bool = Query(False, description="Every row as a CSV download link instead"),
                   actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Explanation | ExportLink]:
    filters = _filters_of(request)
    if csv:
        return reply(explain_service.export(db, actor=actor, metric=metric, start=start, end=end, filters=filters,
                                            advertiser_id=advertiser_id, time_zone=time_zone))
    answer = explain_service.explain(db, actor=actor, metric=metric, start=start, end=end, filters=filters,
                                     advertiser_id=advertiser_id, time_zone=time_zone, offset=offset, limit=limit)
    return reply(answer, f"{answer.total_rows} rows from {answer.total_batches} batches")
