"""The API's main resources, one class each, over a Transport: lists page by page, records one by one."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from dsp_console_client.errors import ApiError
from dsp_console_client.models import (
    ApiKey,
    BatchRow,
    BatchStored,
    Campaign,
    CampaignDetail,
    Creative,
    Figures,
    Page,
    Report,
    ReportRun,
    User,
)
from dsp_console_client.transport import Transport

T = TypeVar("T", bound=BaseModel)

MAX_LIMIT = 500  # the API's largest page


class PagedList(Generic[T]):
    """A list the API answers a page at a time (`limit` and an opaque `cursor`, app/kernel/paging.py)."""

    path = ""
    page_model: type[Page[T]]

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def page(self, *, limit: int = 50, cursor: str | None = None, **filters: Any) -> Page[T]:
        """One page: the first without `cursor`, the next with the previous page's `next_cursor` and the same
        filters (another sort or filter answers 422 naming `cursor`)."""
        data = self.transport.call("GET", self.path, params={**filters, "limit": limit, "cursor": cursor})
        return self.page_model.model_validate(data)

    def pages(self, *, limit: int = 50, **filters: Any) -> Iterator[Page[T]]:
        """Every page in turn, following next_cursor until the last."""
        cursor: str | None = None
        while True:
            page = self.page(limit=limit, cursor=cursor, **filters)
            yield page
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def iterate(self, *, limit: int = 200, **filters: Any) -> Iterator[T]:
        """Every row of the list, fetched `limit` at a time: `for c in client.campaigns.iterate(limit=200)`."""
        for page in self.pages(limit=limit, **filters):
            yield from page.items


class Campaigns(PagedList[Campaign]):
    """/api/campaigns. Filters: status, search, advertiser_id, include_archived; sort (e.g. "-total_budget")."""

    path = "/campaigns"
    page_model = Page[Campaign]

    def get(self, campaign_id: int) -> CampaignDetail:
        return CampaignDetail.model_validate(self.transport.call("GET", f"/campaigns/{int(campaign_id)}"))


class Creatives(PagedList[Creative]):
    """/api/creatives. Filters: type, status, search, advertiser_id, campaign_id, include_archived."""

    path = "/creatives"
    page_model = Page[Creative]

    def get(self, creative_id: int) -> dict[str, Any]:
        """One creative, all of it (CreativeRead), as the API's JSON."""
        data: dict[str, Any] = self.transport.call("GET", f"/creatives/{int(creative_id)}")
        return data


class Users(PagedList[User]):
    """/api/users (staff and agencies). Filters: role, status."""

    path = "/users"
    page_model = Page[User]

    def get(self, user_id: int) -> dict[str, Any]:
        """One account (UserRead), as the API's JSON."""
        data: dict[str, Any] = self.transport.call("GET", f"/users/{int(user_id)}")
        return data

    def create_api_key(self, user_id: int, label: str, scope: str = "read_write") -> ApiKey:
        """A new key for a client with API access, able to call what `scope` allows: "read", "read_write" or
        "reporting" (statistics, dashboards and reports reads). Needs a password sign-in (a key cannot make keys)."""
        return ApiKey.model_validate(self.transport.call("POST", f"/users/{int(user_id)}/api-keys",
                                                         body={"label": label, "scope": scope}))


class Statistics:
    """/api/statistics: delivery figures in the caller's scope; batches in (admin)."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def push_batch(self, batch_id: str, rows: Iterable[BatchRow | Mapping[str, Any]]) -> BatchStored:
        """Store hourly delivery rows, whole or not at all (admin). The same batch_id is stored once, so the call
        is safe to repeat and is retried on any passing failure."""
        body = {"batch_id": batch_id, "rows": [_row(row) for row in rows]}
        return BatchStored.model_validate(self.transport.call("POST", "/statistics/batches", body=body,
                                                              repeatable=True))

    def read(self, *, start: date | str | None = None, end: date | str | None = None,
             dimensions: Iterable[str] = (), metrics: Iterable[str] = (), events: Iterable[str] = (),
             filters: Mapping[str, Iterable[str | int]] | None = None, **options: Any) -> list[Figures]:
        """Figures summed over `dimensions` for the days start..end: `filters={"campaign_id": [7]}` keeps only
        those values; options: advertiser_id, time_zone, order_by, desc, limit."""
        params: dict[str, Any] = {"start": start, "end": end, "dimensions": list(dimensions),
                                  "metrics": list(metrics), "events": list(events), **options}
        params.update({f"filter_{name}": list(values) for name, values in (filters or {}).items()})
        rows: list[Figures] = self.transport.call("GET", "/statistics", params=params)
        return rows


class Reports:
    """Saved reports and their runs (the spec's report/... calls)."""

    FINISHED = frozenset({"completed", "failed"})

    def __init__(self, transport: Transport, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.transport = transport
        self.clock = clock

    def create(self, *, name: str, report_type: str = "performance", dimensions: Iterable[str] = ("date",),
               metrics: Iterable[str] = ("impressions", "clicks", "spend"), period: str = "last_7_days",
               start_date: date | None = None, end_date: date | None = None, **fields: Any) -> Report:
        """Save a report (fields as /docs' ReportCreate: advertiser_id, events, filters, time_zone, schedule)."""
        body = {"name": name, "report_type": report_type, "dimensions": list(dimensions), "metrics": list(metrics),
                "period": period, "start_date": start_date, "end_date": end_date, **fields}
        return Report.model_validate(self.transport.call("POST", "/report/create", body=body))

    def generate(self, report_id: int) -> int:
        """Queue a run of a saved report; its run id."""
        queued = self.transport.call("POST", "/reports/generate", body={"report_id": int(report_id)})
        return int(queued["run_id"])

    def run_status(self, run_id: int) -> ReportRun:
        return ReportRun.model_validate(self.transport.call("GET", f"/report/run/{int(run_id)}"))

    def wait(self, run_id: int, *, timeout_s: float = 300.0, every_s: float = 0.5) -> ReportRun:
        """The run once it has finished (completed or failed), asking every `every_s`; ApiError 408 after
        `timeout_s` (the server goes on with it)."""
        deadline = self.clock() + timeout_s
        while (run := self.run_status(run_id)).status not in self.FINISHED:
            if self.clock() > deadline:
                raise ApiError(408, f"Report run {run_id} is still {run.status} after {timeout_s:g} s.")
            self.transport.sleep(every_s)
        return run

    def csv(self, run_id: int) -> str:
        """A completed run's CSV, as text."""
        link = self.transport.call("GET", "/report/download", params={"run_id": int(run_id)})
        return self.transport.download(str(link["csv_download_url"])).decode("utf-8-sig")

    def run(self, report_id: int, *, timeout_s: float = 300.0) -> str:
        """Generate a report, wait for its run and answer its CSV; ApiError when the run failed."""
        run = self.wait(self.generate(report_id), timeout_s=timeout_s)
        if run.status != "completed":
            raise ApiError(500, f"Report run {run.id} failed: {run.error or 'no reason given'}")
        return self.csv(run.id)


def _row(row: BatchRow | Mapping[str, Any]) -> dict[str, Any]:
    return row.model_dump(mode="json") if isinstance(row, BatchRow) else dict(row)
