"""Saved reports: what they ask (type, dimensions, metrics, events, filters, period, time zone), who may see
them, their runs and their files.

Row scope: a report belongs to its owner; whoever may see the owner's account (policy.can_see_user: staff,
the owner's agency, the owner) may see and run it. Its rows are the statistics in the owner's scope, and
when someone else runs it also in theirs (report_jobs re-checks both when the run starts).
Generation itself is app/reports/jobs.py; this module writes rows and answers pages and the API.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.access.models import User, shown_name_sql
from app.access.policy import Actor, can_see_user, require
from app.access.roles import STAFF_ROLES, Role
from app.campaigns import service as campaigns
from app.history import audit
from app.jobs import clock
from app.kernel import csv_exports, validation
from app.kernel.csv_exports import ExportLink
from app.kernel.errors import Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.storage import get_storage
from app.reference import geo, metadata
from app.reports import jobs as report_jobs
from app.reports import row_figure
from app.reports.jobs import build_run_query, intersect_scopes
from app.reports.models import FIXED_PERIOD, PERIOD_PRESETS, Report, ReportRun, ReportSchedule, RunStatus
from app.reports.results import (
    REPORT_NOT_FOUND,
    column_kind,
    column_label,
    csv_filename,
    format_cell,
    resolve_period,
    result_columns,
    result_key,
)
from app.reports.schemas import FILTER_KEYS as FILTER_KEYS
from app.reports.schemas import REPORT_TYPES as REPORT_TYPES
from app.reports.schemas import (
    BuilderOptions,
    CampaignChoice,
    Cell,
    Choice,
    ReportFileRead,
    ReportListItem,
    ReportRead,
    ReportRunRead,
    ReportSaved,
    ReportSettings,
    RunResult,
)
from app.statistics import explain
from app.statistics import service as statistics
from app.statistics.schemas import Explanation
from app.warehouse.base import StatsQuery
from app.warehouse.schema import DEVICE_TYPES, DIMENSIONS, EVENT_PREFIX, METRICS

# REPORT_TYPES (each type's preset dimensions) and FILTER_KEYS are declared in schemas.py, whose API descriptions
# name them, and imported from there.
STAFF_ONLY_TYPES = frozenset({"multi-dimensional"})
MAX_EXTRA_DIMENSIONS = 2
MAX_RECIPIENTS = 20
RUNS_KEPT_ON_PAGE = 20
VIEW_ROWS = 5_000  # rows the view's grid shows; the CSV has them all
RUN_NOT_FOUND = "Report run not found."
def types_for(actor: Actor) -> list[str]:
    """The report types the actor may create, in menu order."""
    return [t for t in REPORT_TYPES if t not in STAFF_ONLY_TYPES or actor.role in STAFF_ROLES]


# --- row scope ------------------------------------------------------------------------------------------

def _visible(db: Session, actor: Actor, report: Report | None) -> Report:
    """The report when the actor may see its owner; missing and out of scope answer alike."""
    owner = db.get(User, report.owner_id) if report is not None else None
    if report is None or owner is None or not can_see_user(actor, owner):
        raise NotFound(REPORT_NOT_FOUND)
    return report


def _report(db: Session, actor: Actor, report_id: int, action: str = "view") -> Report:
    require(actor, "report", action)
    return _visible(db, actor, db.get(Report, report_id))


def _run(db: Session, actor: Actor, run_id: int, action: str = "view") -> tuple[ReportRun, Report]:
    require(actor, "report", action)
    run = db.get(ReportRun, run_id)
    if run is None:
        raise NotFound(RUN_NOT_FOUND)
    try:
        report = _visible(db, actor, db.get(Report, run.report_id))
    except NotFound:
        raise NotFound(RUN_NOT_FOUND) from None
    return run, report


def _scope_condition(actor: Actor) -> Any:
    """Reports whose owners the actor may see (policy.can_see_user as SQL)."""
    if actor.role == Role.ADMIN:
        return True
    if actor.role == Role.CO_ADMIN:
        return (col(User.role) != Role.ADMIN) | (col(Report.owner_id) == actor.id)
    if actor.role == Role.AGENCY:
        return (col(Report.owner_id) == actor.id) | ((User.role == Role.ADVERTISER) & (User.agency_id == actor.id))
    return col(Report.owner_id) == actor.id


# --- reading -----------------------------------------------------------------------------------------------

def _public_fields(report: Report, owner: User | None, advertiser: User | None) -> dict[str, Any]:
    return {"id": report.id, "name": report.name, "report_type": report.report_type,
            "advertiser_id": report.advertiser_id,
            "advertiser": advertiser.account_name if advertiser else "",
            "owner_id": report.owner_id, "owner": owner.display_name if owner else "",
            "dimensions": list(report.dimensions), "metrics": list(report.metrics), "events": list(report.events),
            "filters": dict(report.filters), "period": report.period,
            "start_date": report.start_date.isoformat() if report.start_date else None,
            "end_date": report.end_date.isoformat() if report.end_date else None,
            "time_zone": report.time_zone, "schedule": report.schedule, "recipients": list(report.recipients),
            "created_at": report.created_at.isoformat(), "updated_at": report.updated_at.isoformat()}


def public(report: Report, *, owner: User | None = None, advertiser: User | None = None) -> ReportRead:
    return ReportRead(**_public_fields(report, owner, advertiser))


def run_public(run: ReportRun) -> ReportRunRead:
    return ReportRunRead(
        id=run.id, report_id=run.report_id, status=run.status, progress=run.progress, error=run.error,
        row_count=run.row_count, has_file=bool(run.result_file), requested_by=run.requested_by,
        scheduled=run.scheduled_for is not None,
        period_start=run.period_start.isoformat() if run.period_start else None,
        period_end=run.period_end.isoformat() if run.period_end else None, attempts=run.attempts,
        created_at=run.created_at.isoformat(), started_at=run.started_at.isoformat() if run.started_at else None,
        finished_at=run.finished_at.isoformat() if run.finished_at else None)


def list_reports(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> list[ReportListItem]:
    """The reports the actor may see, newest first, each with its last run's status."""
    require(actor, "report", "view")
    query = (select(Report, User).join(User, col(User.id) == Report.owner_id).where(_scope_condition(actor))
             .order_by(col(Report.updated_at).desc(), col(Report.id).desc()))
    if advertiser_id is not None:
        query = query.where(Report.advertiser_id == advertiser_id)
    return _list_items(db, list(db.exec(query).all()))


# The report grid's sorts (numbered_pages.column_order): a column shown, or None for the id alone. The last run's
# status and time, the period and the schedule's text are made in Python and do not sort on the server.
_ADVERTISER = aliased(User)
LIST_SORTS: dict[str, Any] = {"id": None, "name": Report.name_key, "type": Report.report_type,
                              "advertiser": _ADVERTISER.name_key, "updated_at": Report.updated_at}
# The advertiser's shown name over the aliased join, for the grid's search.
_ADVERTISER_NAME = shown_name_sql(_ADVERTISER)


def list_reports_page(db: Session, *, actor: Actor, search: str = "", sort: str = "", page: int = 1,
                      page_size: int = 50) -> NumberedPage[ReportListItem]:
    """One page of the report list for its grid (pages count from 1): list_reports' rows, `search` in the name or
    the advertiser, `sort` one of LIST_SORTS ("-" first for descending; default newest change first, ties by id),
    only the page's rows read and the total by a COUNT."""
    require(actor, "report", "view")
    check_page(page, page_size, things="reports")
    order = column_order(sort, LIST_SORTS, col(Report.id), default="-updated_at")
    query = (select(Report, User).join(User, col(User.id) == Report.owner_id)
             .outerjoin(_ADVERTISER, col(_ADVERTISER.id) == Report.advertiser_id).where(_scope_condition(actor)))
    query = query.where(*every_word(search, Report.name, _ADVERTISER_NAME))
    found, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[ReportListItem](rows=_list_items(db, [(r, u) for r, u in found]), total=total, page=page,
                                        page_size=page_size)


def _list_items(db: Session, found: Sequence[tuple[Report, User]]) -> list[ReportListItem]:
    """The list's items for these (report, owner) rows: each with its advertiser and its last run."""
    ids = [r.id for r, _ in found]
    last: dict[int | None, ReportRun] = {}
    if ids:
        newest = (select(ReportRun).where(col(ReportRun.report_id).in_(ids)).order_by(col(ReportRun.id).desc()))
        for newer in db.exec(newest):
            last.setdefault(newer.report_id, newer)
    advertisers = {u.id: u for u in db.exec(select(User).where(
        col(User.id).in_({r.advertiser_id for r, _ in found if r.advertiser_id})))} if found else {}
    rows = []
    for report, owner in found:
        run = last.get(report.id)
        rows.append(ReportListItem(**_public_fields(report, owner, advertisers.get(report.advertiser_id)),
                                   last_status=run.status if run else "",
                                   last_run_at=run.created_at.isoformat() if run else None,
                                   last_run_id=run.id if run else None))
    return rows


def get_report(db: Session, *, actor: Actor, report_id: int) -> ReportRead:
    report = _report(db, actor, report_id)
    return public(report, owner=db.get(User, report.owner_id),
                  advertiser=db.get(User, report.advertiser_id) if report.advertiser_id else None)


def list_runs(db: Session, *, actor: Actor, report_id: int, limit: int = RUNS_KEPT_ON_PAGE) -> list[ReportRunRead]:
    _report(db, actor, report_id)
    query = (select(ReportRun).where(ReportRun.report_id == report_id).order_by(col(ReportRun.id).desc())
             .limit(limit))
    return [run_public(run) for run in db.exec(query)]


def get_run(db: Session, *, actor: Actor, run_id: int) -> ReportRunRead:
    """A run's status and progress (the view polls this while it is pending or running)."""
    run, _report_row = _run(db, actor, run_id)
    return run_public(run)


def _typed(key: str, text: str) -> Cell:
    if column_kind(key) == "text" or key.endswith("_id"):
        return int(text) if key.endswith("_id") and text.isdigit() else text
    if text == "":
        return None
    return int(text) if column_kind(key) == "number" and text.lstrip("-").isdigit() else float(text)


def run_result(db: Session, *, actor: Actor, run_id: int, limit: int = VIEW_ROWS) -> RunResult:
    """A completed run's table: {columns, rows (at most `limit`), row_count, totals, truncated}."""
    run, _report_row = _run(db, actor, run_id)
    unavailable = RunResult(columns=list(run.columns), rows=[], row_count=run.row_count or 0,
                            totals=dict(run.totals), truncated=False, available=False)
    if run.status != RunStatus.COMPLETED or not run.result_file:
        return unavailable
    try:
        rows = _first_rows(result_key(run.result_file), list(run.columns), limit)
    except FileNotFoundError:
        return unavailable
    return RunResult(columns=list(run.columns), rows=rows, row_count=run.row_count or 0, totals=dict(run.totals),
                     truncated=(run.row_count or 0) > len(rows), available=True)


def _run_and_figure(db: Session, actor: Actor, run_id: int) -> tuple[ReportRun, StatsQuery]:
    """A run and its query as its totals were made (the owner's scope, narrowed to the requester's), narrowed to
    the viewer's scope too: explaining a figure shows no row the viewer may not read."""
    run, report = _run(db, actor, run_id)
    if run.period_start is None or run.period_end is None:
        raise NotFound(RUN_NOT_FOUND)
    query = build_run_query(db, report, run)
    mine = statistics.advertiser_scope(db, actor=actor, advertiser_id=report.advertiser_id)
    return run, dataclasses.replace(query, advertiser_ids=intersect_scopes(query.advertiser_ids, mine))


def _run_figure(db: Session, actor: Actor, run_id: int) -> StatsQuery:
    return _run_and_figure(db, actor, run_id)[1]


def _run_row_figure(db: Session, actor: Actor, run_id: int, row: Mapping[str, object]) -> StatsQuery:
    """The run's query narrowed to one row of its result, by the dimensions the run was made with."""
    run, query = _run_and_figure(db, actor, run_id)
    return row_figure.narrow(query, row_figure.row_dimensions(run.columns), row)


def explain_run_total(db: Session, *, actor: Actor, run_id: int, metric: str, offset: int = 0,
                      limit: int = explain.PAGE_ROWS) -> Explanation:
    """What a run's total of `metric` is made of (statistics/explain.py): the campaign x day x exchange rows and
    their ingestion batches over the run's days, filters and scope, as the store holds them now (rows that
    arrived after the run add to them)."""
    return explain.explain_query(db, _run_figure(db, actor, run_id), metric=metric, offset=offset, limit=limit)


def export_run_total(db: Session, *, actor: Actor, run_id: int, metric: str) -> ExportLink:
    """explain_run_total's rows, every one, as a CSV download link."""
    return explain.export_query(db, _run_figure(db, actor, run_id), actor=actor, metric=metric)


def explain_run_row(db: Session, *, actor: Actor, run_id: int, row: Mapping[str, object], metric: str,
                    offset: int = 0, limit: int = explain.PAGE_ROWS) -> Explanation:
    """What one figure of a run's result row is made of: explain_run_total narrowed to the row's dimension
    values (`row`: the result row, or just its dimensions; its day as the period, its campaign, exchange,
    country... as filters; an hour's row by its day). Scope and permission are the run's own."""
    return explain.explain_query(db, _run_row_figure(db, actor, run_id, row), metric=metric, offset=offset,
                                 limit=limit)


def export_run_row(db: Session, *, actor: Actor, run_id: int, row: Mapping[str, object], metric: str) -> ExportLink:
    """explain_run_row's rows, every one, as a CSV download link."""
    return explain.export_query(db, _run_row_figure(db, actor, run_id, row), actor=actor, metric=metric)


def _first_rows(key: str, columns: list[str], limit: int) -> list[dict[str, Cell]]:
    """The first `limit` rows of a result CSV, read as a stream from the file store (data directory or bucket)."""
    rows: list[dict[str, Cell]] = []
    with get_storage().open(key) as opened, io.TextIOWrapper(opened, encoding="utf-8-sig", newline="") as source:
        reader = csv.reader(source)
        next(reader, None)
        for number, cells in enumerate(reader):
            if number >= limit:
                break
            row = {key: _typed(key, csv_exports.unguarded_cell(cell)) for key, cell in zip(columns, cells, strict=False)}
            row["_row"] = number
            rows.append(row)
    return rows


def builder_options(db: Session, *, actor: Actor, advertiser_id: int | None = None,
                    language: str | None = None) -> BuilderOptions:
    """What the builder offers: types, dimensions, metrics, the events recorded in scope, the advertisers (for
    agencies and staff) and the filter values (campaigns in scope, countries named in `language`, exchanges, OS,
    device types)."""
    require(actor, "report", "view")
    advertisers = [a.model_dump() for a in campaigns.advertiser_choices(db, actor=actor)] \
        if actor.role != Role.ADVERTISER else []
    if actor.role == Role.ADVERTISER:
        advertiser_id = actor.id
    campaign_rows = campaigns.list_campaigns(db, actor=actor, advertiser_id=advertiser_id, include_archived=True,
                                             sort="name")
    dimensions = [d for d in DIMENSIONS if actor.role != Role.ADVERTISER or d != "advertiser_id"]
    return BuilderOptions(
        types=types_for(actor), dimensions=dimensions, metrics=list(METRICS),
        events=statistics.event_names(db, actor=actor, advertiser_id=advertiser_id),
        advertisers=[Choice.model_validate(a) for a in advertisers],
        campaigns=[CampaignChoice.model_validate(c) for c in campaign_rows],
        countries=geo.countries(actor=actor, language=language),
        exchanges=[row.name for row in metadata.active_values(db, actor=actor, kind="exchange")],
        os=[row.name for row in metadata.active_values(db, actor=actor, kind="operating_system")],
        device_types=list(DEVICE_TYPES),
        periods=[*PERIOD_PRESETS, FIXED_PERIOD], schedules=[s.value for s in ReportSchedule],
    )


# --- writing -----------------------------------------------------------------------------------------------

def _list_of(value: Any) -> list[Any]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return list(value)


def _checked(db: Session, actor: Actor, data: Mapping[str, Any], *, report_type: str) -> dict[str, Any]:
    """The report's fields from a form or an API body, each bad one named (the form shows it beside its field).
    Dimensions, metrics, events, filters and the time zone are checked by statistics.build_query, the same
    check a run makes."""
    errors: dict[str, str] = {}
    name = str(data.get("name") or "").strip()
    if not name:
        errors["name"] = "Give the report a name."
    elif len(name) > 120:
        errors["name"] = validation.TOO_LONG.format(n=120)
    elif message := validation.name(name):
        errors["name"] = message
    if report_type not in REPORT_TYPES or report_type not in types_for(actor):
        errors["report_type"] = f"Choose a report type: {', '.join(types_for(actor))}."
    preset = REPORT_TYPES.get(report_type, ())
    dimensions = [str(d) for d in _list_of(data.get("dimensions"))] or list(preset)
    if report_type in REPORT_TYPES and report_type not in STAFF_ONLY_TYPES:
        if preset[0] not in dimensions:
            errors["dimensions"] = f"A {report_type} report is broken down by {preset[0]}."
        elif len(dimensions) > 1 + MAX_EXTRA_DIMENSIONS:
            errors["dimensions"] = (f"Add at most {MAX_EXTRA_DIMENSIONS} dimensions to the report's own; "
                                    "a multi-dimensional report takes any number.")
    if not dimensions:
        errors["dimensions"] = "Choose at least one dimension."
    if actor.role == Role.ADVERTISER and "advertiser_id" in dimensions:
        errors["dimensions"] = "Unknown dimension: advertiser_id."
    metrics = [str(m) for m in _list_of(data.get("metrics"))]
    if not metrics:
        errors["metrics"] = "Choose at least one metric."
    events = [str(e).removeprefix(EVENT_PREFIX) for e in _list_of(data.get("events"))]
    filters: dict[str, list[Any]] = {}
    raw_filters = data.get("filters") or {}
    if not isinstance(raw_filters, Mapping):
        errors["filters"] = "Give filters as {dimension: [values]}."
        raw_filters = {}
    for key, values in raw_filters.items():
        if key not in FILTER_KEYS:
            errors[f"filters.{key}"] = f"Filter on one of: {', '.join(FILTER_KEYS)}."
        elif chosen := _list_of(values):
            filters[key] = chosen
    period = str(data.get("period") or "last_7_days")
    start = end = None
    if period not in (*PERIOD_PRESETS, FIXED_PERIOD):
        errors["period"] = f"Choose a period: {', '.join((*PERIOD_PRESETS, FIXED_PERIOD))}."
    elif period == FIXED_PERIOD:
        given = {field: data.get(f"{field}_date") for field in ("start", "end")}
        errors.update({f"{field}_date": f"Enter the {'first' if field == 'start' else 'last'} day."
                       for field, value in given.items() if value in (None, "")})
        if all(value not in (None, "") for value in given.values()):
            try:
                start, end = statistics.parse_period(given["start"], given["end"])
            except Invalid as bad:
                errors.update({f"{k}_date": v for k, v in bad.fields.items()})
    time_zone = str(data.get("time_zone") or "UTC")
    schedule = str(data.get("schedule") or ReportSchedule.NONE)
    if schedule not in {s.value for s in ReportSchedule}:
        errors["schedule"] = "Choose none, daily, weekly or monthly."
    recipients = [str(r).strip().lower() for r in _list_of(data.get("recipients"))]
    if wrong := [r for r in recipients if validation.email(r)]:
        errors["recipients"] = f"Not an e-mail address: {', '.join(wrong)}."
    elif len(recipients) > MAX_RECIPIENTS:
        errors["recipients"] = f"At most {MAX_RECIPIENTS} recipients."
    elif schedule != ReportSchedule.NONE and not recipients:
        errors["recipients"] = "A scheduled report needs at least one recipient."
    advertiser_id: int | None = None
    raw_advertiser = data.get("advertiser_id")
    if actor.role == Role.ADVERTISER:
        advertiser_id = actor.id
    elif raw_advertiser not in (None, "", 0, "0"):
        try:
            advertiser_id = int(raw_advertiser)
        except (TypeError, ValueError):
            errors["advertiser_id"] = "Choose an advertiser."
    try:
        statistics.build_query(db, actor=actor, start=date.today(), end=date.today(), dimensions=dimensions,
                               metrics=metrics or None, events=events, filters=filters,
                               advertiser_id=advertiser_id, time_zone=time_zone)
    except Invalid as bad:
        for key, message in bad.fields.items():
            errors.setdefault(key, message)
    except NotFound:
        errors["advertiser_id"] = "Choose an advertiser."
    if errors:
        raise Invalid(errors)
    return {"name": name, "report_type": report_type, "dimensions": dimensions, "metrics": metrics,
            "events": events, "filters": filters, "period": period, "start_date": start, "end_date": end,
            "time_zone": time_zone, "schedule": schedule, "recipients": recipients, "advertiser_id": advertiser_id}


def _snapshot(report: Report) -> dict[str, Any]:
    return public(report).model_dump(exclude={"created_at", "updated_at", "owner", "advertiser"})


def _remove_files(lists: list[list[str]]) -> None:
    for names in lists:
        for name in names:
            _remove_file(name)


def _after_commit(db: Session, key: str, value: Any, action: Callable[[list[Any]], None]) -> None:
    """Do `action(values)` once this unit of work has committed: a job that a thread starts must find the
    rows it reads, and must not start at all when the write is rolled back."""
    from sqlalchemy import event

    pending = db.info.setdefault(key, [])
    if not pending:
        def fire(_session: Session) -> None:
            values = db.info.pop(key, [])
            if values:
                action(values)

        def drop(_session: Session) -> None:
            db.info.pop(key, None)

        event.listen(db, "after_commit", fire, once=True)
        event.listen(db, "after_rollback", drop, once=True)
    pending.append(value)


def _reschedule_after_commit(db: Session, report_id: int) -> None:

    def sync(ids: list[int]) -> None:
        for i in dict.fromkeys(ids):
            report_jobs.sync_schedule(i)

    _after_commit(db, "reports_to_reschedule", report_id, sync)


def create_report(db: Session, *, actor: Actor, data: ReportSettings, report_type: str | None = None) -> ReportRead:
    """Save a report from its settings (`report_type`, when given, names the type: the builder's page)."""
    require(actor, "report", "create")
    fields = _checked(db, actor, data.model_dump(), report_type=str(report_type or data.report_type or ""))
    report = Report(owner_id=actor.id, **fields)
    db.add(report)
    db.flush()
    assert report.id is not None
    audit.record(db, actor=actor, entity="report", entity_id=report.id, action="create", after=_snapshot(report))
    if report.schedule != ReportSchedule.NONE:
        _reschedule_after_commit(db, report.id)
    return get_report(db, actor=actor, report_id=report.id)


def update_report(db: Session, *, actor: Actor, report_id: int, data: ReportSettings) -> ReportRead:
    """Change a report: the settings given (set on `data`); the others keep their values."""
    report = _report(db, actor, report_id, "update")
    before = _snapshot(report)
    merged = {**before, **data.model_dump(exclude_unset=True)}
    owner = db.get(User, report.owner_id)
    # The fields are checked in the owner's scope: the report runs there, whoever edits it.
    owner_actor = Actor(user=owner, stack=(report.owner_id,)) if owner is not None else actor
    fields = _checked(db, owner_actor, merged, report_type=str(merged.get("report_type") or report.report_type))
    for key, value in fields.items():
        setattr(report, key, value)
    report.updated_at = utcnow()
    db.add(report)
    db.flush()
    audit.record(db, actor=actor, entity="report", entity_id=report.id, action="update", before=before,
                 after=_snapshot(report))
    if before["schedule"] != ReportSchedule.NONE or report.schedule != ReportSchedule.NONE:
        _reschedule_after_commit(db, report_id)
    return get_report(db, actor=actor, report_id=report_id)


def _remove_file(name: str) -> None:
    if name:
        get_storage().delete(result_key(name))


def delete_report(db: Session, *, actor: Actor, report_id: int) -> None:
    """Delete a report, its runs and their files."""
    report = _report(db, actor, report_id, "delete")
    before = _snapshot(report)
    files = []
    for run in db.exec(select(ReportRun).where(ReportRun.report_id == report_id)):
        files.append(run.result_file)
        db.delete(run)
    db.flush()
    db.delete(report)
    clock.forget(db, report_jobs.schedule_slot_key(report_id))  # its schedule's slot row goes with it
    audit.record(db, actor=actor, entity="report", entity_id=report_id, action="delete", before=before)
    _after_commit(db, "report_files_to_remove", files, _remove_files)
    if before["schedule"] != ReportSchedule.NONE:
        _reschedule_after_commit(db, report_id)


def delete_run_file(db: Session, *, actor: Actor, run_id: int) -> ReportRunRead:
    """Remove a run's CSV (the spec's report/deleteCSVReportFile); the run stays listed, without a file."""
    run, report = _run(db, actor, run_id, "update")
    if not run.result_file:
        raise NotFound("This run has no file.")
    name = run.result_file
    run.result_file = ""
    db.add(run)
    audit.record(db, actor=actor, entity="report", entity_id=report.id, action="delete_file",
                 before={"run": run_id, "file": name}, after={"run": run_id, "file": ""})
    _after_commit(db, "report_files_to_remove", [name], _remove_files)
    return run_public(run)


# --- runs -------------------------------------------------------------------------------------------------

def start_run(db: Session, *, actor: Actor, report_id: int) -> ReportRunRead:
    """Queue a generation of the report (its job commits with the run); answers the run."""
    report = _report(db, actor, report_id, "view")
    require(actor, "statistics", "view")
    start, end = resolve_period(report.period, report.start_date, report.end_date, time_zone=report.time_zone)
    run = ReportRun(report_id=report_id, requested_by=actor.id, period_start=start, period_end=end,
                    columns=result_columns(report))
    db.add(run)
    db.flush()
    audit.record(db, actor=actor, entity="report", entity_id=report_id, action="run", after={"run": run.id})

    assert run.id is not None
    report_jobs.submit(db, run.id)  # the job is written in this transaction: it exists iff the run commits
    return run_public(run)


def create_and_run(db: Session, *, actor: Actor, data: ReportSettings, report_type: str | None = None,
                   report_id: int | None = None) -> ReportSaved:
    """Save (create, or update `report_id`) and start a run: the builder's "Save & run"."""
    if report_id is None:
        report = create_report(db, actor=actor, data=data, report_type=report_type)
    else:
        report = update_report(db, actor=actor, report_id=report_id, data=data)
    return ReportSaved(report=report, run=start_run(db, actor=actor, report_id=report.id))


def download_run(db: Session, *, actor: Actor, run_id: int) -> ExportLink:
    """A 15-minute, this-user-only link to a run's CSV ({csv_download_url, filename}), the campaign export's
    mechanism (app/kernel/csv_exports.py)."""
    run, report = _run(db, actor, run_id)
    if run.status != RunStatus.COMPLETED or not run.result_file:
        raise NotFound("This run has no file to download.")
    stored = csv_exports.new_export_name()
    try:
        # A link on one disk, a copy made by the bucket itself: the CSV never passes through this process.
        get_storage().copy(result_key(run.result_file), csv_exports.export_key(stored))
    except FileNotFoundError:
        raise NotFound("This run has no file to download.") from None
    return csv_exports.export_link(actor=actor, stored=stored, filename=csv_filename(report, run))


# --- running apps ------------------------------------------------------------------------------------------

RUNNING_APPS_FILE = "RunningApps.csv"  # the spec's default export file name
RUNNING_APPS_METRICS = ("impressions", "clicks", "ctr", "spend", "ecpm", "conversions")


def running_apps_export(db: Session, *, actor: Actor, advertiser_id: int | None = None,
                        campaigns: Sequence[int] = (), start: str | date | None = None,
                        end: str | date | None = None, exchanges: Sequence[str] = (), countries: Sequence[str] = (),
                        os: Sequence[str] = (), file_name: str | None = None) -> ExportLink:
    """The apps that delivered (the spec's running-apps CSV): one row per app with its metrics, biggest spend
    first, in the actor's scope; answers {csv_download_url, filename}: `file_name` when given (the spec's
    file-name rule, ending in .csv), else RunningApps.csv."""
    first, last = statistics.parse_period(start, end)
    filters: dict[str, list[int | str]] = {key: list(values) for key, values in (
        ("campaign_id", campaigns), ("exchange", exchanges),
                                                     ("country", countries), ("os", os)) if values}
    query = statistics.build_query(db, actor=actor, start=first, end=last, dimensions=["app"],
                                   metrics=RUNNING_APPS_METRICS, filters=filters, advertiser_id=advertiser_id,
                                   order_by="spend", descending=True)
    filename = (file_name or "").strip() or RUNNING_APPS_FILE
    if problem := validation.csv_file_name(filename):
        raise Invalid({"file_name": problem})
    rows = statistics.run(db, query)
    columns = ["app", *RUNNING_APPS_METRICS]
    stored = csv_exports.write_export([column_label(c) for c in columns],
                                          ([format_cell(c, row.get(c)) for c in columns] for row in rows))
    return csv_exports.export_link(actor=actor, stored=stored, filename=filename)


def list_files(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> list[ReportFileRead]:
    """The generated CSV files of the reports in scope, newest first: {run_id, report_id, report_name,
    period_start, period_end, row_count, finished_at}."""
    require(actor, "report", "view")
    query = (select(ReportRun, Report).join(Report, col(Report.id) == ReportRun.report_id)
             .join(User, col(User.id) == Report.owner_id)
             .where(_scope_condition(actor), ReportRun.result_file != "")
             .order_by(col(ReportRun.id).desc()).limit(500))
    if advertiser_id is not None:
        query = query.where(Report.advertiser_id == advertiser_id)
    return [ReportFileRead(run_id=run.id, report_id=report.id, report_name=report.name,
                           period_start=run.period_start.isoformat() if run.period_start else None,
                           period_end=run.period_end.isoformat() if run.period_end else None,
                           row_count=run.row_count,
                           finished_at=run.finished_at.isoformat() if run.finished_at else None)
            for run, report in db.exec(query).all()]
