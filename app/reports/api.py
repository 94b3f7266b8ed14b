"""Reports over the API, under the spec's call names (section 7) and REST paths for a report's create and read
(POST /reports, GET /reports/{id}): saved reports, their runs (generated in the
background: start one, poll its status, download its CSV) and the running-apps export."""

from __future__ import annotations

from datetime import date
from typing import get_args

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.csv_exports import ExportLink
from app.kernel.errors import Invalid
from app.kernel.schema_examples import example
from app.reports import service as reports
from app.reports.models import FIXED_PERIOD, PERIOD_PRESETS
from app.reports.row_figure import FIELD_PREFIX
from app.reports.schemas import (
    Period,
    ReportCreate,
    ReportFileRead,
    ReportListItem,
    ReportRead,
    ReportRunRead,
    ReportUpdate,
    ReportWithRuns,
    RunQueued,
)
from app.statistics import explain
from app.statistics.schemas import Explanation
from app.warehouse.schema import DIMENSIONS, METRICS
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply, spec_call

router = APIRouter(tags=["reports"])

assert set(get_args(Period)) == {*PERIOD_PRESETS, FIXED_PERIOD}
ENGINE = ("One engine answers reports/generate, generatebasic and generateCHDB alike: each queues a background "
          "run of a saved report over the delivery-statistics store and answers {run_id, status, progress}. Poll "
          "`GET /report/run/{run_id}` until status is completed or failed, then ask `GET /report/download` for "
          "the CSV's link.")


class GenerateBody(BaseModel):
    model_config = example({"report_id": 9})

    report_id: int


class RunFileBody(BaseModel):
    model_config = example({"run_id": 31})

    run_id: int


class RunningAppsBody(BaseModel):
    """The running-apps export's filters (all optional): the last 30 days of every advertiser in scope."""

    model_config = example({
        "campaigns": [101], "start_date": "2026-11-01", "end_date": "2026-11-07", "countries": ["US"]})

    advertiser: int | None = Field(None, description="Advertiser id")
    campaigns: list[int] = Field(default_factory=list)
    start_date: date | None = None
    end_date: date | None = None
    exchanges: list[str] = Field(default_factory=list)
    countries: list[str] = Field(default_factory=list, description="ISO 3166-1 alpha-2 codes")
    os: list[str] = Field(default_factory=list)
    file_name: str | None = Field(None, description=f"The downloaded file's name (default {reports.RUNNING_APPS_FILE}): "
                                                    "letters, digits, _ and - with single spaces, ending in .csv; "
                                                    "may not start with x")


@router.post("/reports", status_code=201, responses=LOCATION_HEADER)
def create(body: ReportCreate, response: Response, actor: Actor = Depends(get_actor),
           db: Session = DB) -> Envelope[ReportRead]:
    """Save a report; answers it, 201 with its URL in Location. Bad settings answer 422 naming each field."""
    report = reports.create_report(db, actor=actor, data=body)
    return created(response, report, "Report saved", f"/reports/{report.id}")


router.add_api_route("/report/create", spec_call(create), methods=["POST"],
                     summary="report/create: save a report (as POST /reports; answers 200)")


@router.post("/report/update")
def update(body: ReportUpdate, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ReportRead]:
    """Change a report: the fields you send; the rest stay."""
    return reply(reports.update_report(db, actor=actor, report_id=body.report_id, data=body), "Report saved")


@router.delete("/report/delete")
def delete(report_id: int = Query(...), actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[None]:
    """Delete a report with its runs and files."""
    reports.delete_report(db, actor=actor, report_id=report_id)
    return reply(None, "Report deleted")


@router.get("/reports/{report_id}")
def get_report(report_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ReportWithRuns]:
    """One report with its recent runs ({report, runs})."""
    return reply(ReportWithRuns(report=reports.get_report(db, actor=actor, report_id=report_id),
                                runs=reports.list_runs(db, actor=actor, report_id=report_id)))


@router.get("/report/getSingle")
def get_single(report_id: int = Query(...), actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[ReportWithRuns]:
    """One report with its recent runs ({report, runs}), as GET /reports/{report_id}."""
    return get_report(report_id, actor, db)


@router.get("/report/get")
def get_list(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReportListItem]]:
    """Your reports (agencies: also their advertisers'; staff: everyone's), each with its last run's status."""
    return reply(reports.list_reports(db, actor=actor))


@router.get("/getReportsForAgencyAdmin")
def for_agency_admin(advertiser_id: int | None = Query(None), actor: Actor = Depends(get_actor),
                     db: Session = DB) -> Envelope[list[ReportListItem]]:
    """Agencies and staff: the reports of the advertisers in scope, optionally of one advertiser."""
    return reply(reports.list_reports(db, actor=actor, advertiser_id=advertiser_id))


@router.get("/getAdminReportsByCSV")
def files(advertiser_id: int | None = Query(None), actor: Actor = Depends(get_actor),
          db: Session = DB) -> Envelope[list[ReportFileRead]]:
    """The generated CSV files of the reports in scope, newest first ({run_id, report_id, report_name, period,
    row_count, finished_at}); `GET /report/download?run_id=` gives a file's link."""
    return reply(reports.list_files(db, actor=actor, advertiser_id=advertiser_id))


def _generate(body: GenerateBody, actor: Actor, db: Session) -> Envelope[RunQueued]:
    run = reports.start_run(db, actor=actor, report_id=body.report_id)
    return reply(RunQueued(run_id=run.id, status=run.status, progress=run.progress), "Report run queued")


@router.post("/reports/generate", description=ENGINE)
def generate(body: GenerateBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[RunQueued]:
    return _generate(body, actor, db)


@router.post("/generatebasic", description=ENGINE)
def generate_basic(body: GenerateBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[RunQueued]:
    return _generate(body, actor, db)


@router.post("/generateCHDB", description=ENGINE)
def generate_chdb(body: GenerateBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[RunQueued]:
    return _generate(body, actor, db)


@router.get("/report/run/{run_id}")
def run_status(run_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ReportRunRead]:
    """A run's status (pending, running, completed, failed), progress 0-100, error, row count."""
    return reply(reports.get_run(db, actor=actor, run_id=run_id))


# A row value's query parameter, typed as the dimension is (row_<dimension>), declared from the one table.
ROW_SCHEMAS = {"int": {"type": "integer"}, "text": {"type": "string"}}
ROW_PARAMETERS = [{"name": FIELD_PREFIX + key, "in": "query", "required": False,
                   "schema": ROW_SCHEMAS.get(d.kind, {"type": "string", "format": "date-time" if key == "hour"
                                                      else "date"}),
                   "description": f"The row's {key}" + (" (explained by its whole day)" if key == "hour" else "")}
                  for key, d in DIMENSIONS.items()]
EXPLAIN_ROW_HELP = f"""What one figure of a completed run is made of: the campaign x day x exchange rows the store sums
into it and the ingestion batches they came from (as `GET /statistics/explain` answers).

- `metric`: {', '.join(METRICS)}
- With no `row_<dimension>`: the run's total of `metric`. With the row's value for each dimension of the run
  (`row_date=2026-11-03&row_campaign_id=12&row_exchange=Magnite`): that row's figure. The day becomes the period
  (in the report's time zone), the other values filters; an hour's row is explained by its whole day (the store's
  rows are by day). A value that is missing, malformed, outside the run's days or its filters, or a dimension the
  run is not broken down by, answers 422 naming the parameter.
- `offset`, `limit` page the rows; `csv=true` answers `{{csv_download_url, filename}}` for every row instead.

The rows add up to `totals` exactly, the row's figure as the run wrote it (rows that arrived since the run add to
both). The run's scope applies: a run you cannot see answers 404."""


@router.get("/report/run/{run_id}/explain", description=EXPLAIN_ROW_HELP,
            summary="Explain a run's total or one row's figure", response_model=Envelope[Explanation | ExportLink],
            openapi_extra={"parameters": ROW_PARAMETERS})
def explain_run(request: Request, run_id: int,
                metric: str = Query(..., description="The figure's metric", examples=["spend"]),
                offset: int = Query(0, ge=0), limit: int = Query(explain.PAGE_ROWS, ge=1, le=explain.PAGE_ROWS),
                csv: bool = Query(False, description="Every row as a CSV download link instead"),
                actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Explanation | ExportLink]:
    row = {key.removeprefix(FIELD_PREFIX): value for key, value in request.query_params.items()
           if key.startswith(FIELD_PREFIX)}
    if unknown := [key for key in row if key not in DIMENSIONS]:
        raise Invalid({FIELD_PREFIX + key: "Not a dimension." for key in unknown})
    if csv:
        link = (reports.export_run_row(db, actor=actor, run_id=run_id, row=row, metric=metric) if row
                else reports.export_run_total(db, actor=actor, run_id=run_id, metric=metric))
        return reply(link, "Export ready")
    answer = (reports.explain_run_row(db, actor=actor, run_id=run_id, row=row, metric=metric, offset=offset,
                                      limit=limit) if row
              else reports.explain_run_total(db, actor=actor, run_id=run_id, metric=metric, offset=offset,
                                             limit=limit))
    return reply(answer, f"{answer.total_rows} rows from {answer.total_batches} batches")


@router.get("/report/download")
def download(run_id: int = Query(...), actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ExportLink]:
    """A completed run's CSV: {csv_download_url, filename}; the link works for 15 minutes, only for you."""
    return reply(reports.download_run(db, actor=actor, run_id=run_id), "Export ready")


@router.post("/report/deleteCSVReportFile")
def delete_file(body: RunFileBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ReportRunRead]:
    """Remove a run's generated CSV; the run stays in the report's history."""
    return reply(reports.delete_run_file(db, actor=actor, run_id=body.run_id), "File deleted")


@router.post("/report/runningApps")
def running_apps(body: RunningAppsBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ExportLink]:
    """The running-apps export: one row per app with its metrics, as RunningApps.csv or the file_name given. Answers
    {success, data: {csv_download_url, filename}}."""
    return reply(reports.running_apps_export(db, actor=actor, advertiser_id=body.advertiser, campaigns=body.campaigns,
                                             start=body.start_date, end=body.end_date, exchanges=body.exchanges,
                                             countries=body.countries, os=body.os, file_name=body.file_name),
                 "Export ready")
