"""Saved reports: row scope and permission, field-named errors, background generation with exact totals and
progress, restart recovery, formula-safe CSV, scheduled e-mail, and the API."""

from __future__ import annotations

import csv
import email.message
import io
import time
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from app import jobs
from app.jobs import clock
from app.kernel.db import session_scope
from app.kernel.errors import Invalid, NotFound
from app.kernel.storage import get_storage
from app.reports import jobs as report_jobs
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.models import Report, ReportRun
from app.reports.schemas import ReportSettings
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers, other_tenant, stored_csv_text, wait_for_run
from tests.test_mail import smtp_server  # noqa: F401  (the fake SMTP server fixture)

DAY = date.today() - timedelta(days=2)


@pytest.fixture(autouse=True)
def stop_scheduler():
    yield
    clock.shutdown()  # no scheduler thread outlives a test


def _row(advertiser: int, **values: object) -> FactRow:
    base: dict[str, object] = {"hour": datetime(DAY.year, DAY.month, DAY.day, 10), "advertiser_id": advertiser,
                               "campaign_id": 0, "creative_id": 0, "exchange": "Google AdX", "os": "Android",
                               "country": "US", "app": "com.example.game", "device_type": "phone"}
    return FactRow(**{**base, **values})  # type: ignore[arg-type]


def _fixed(**extra: object) -> ReportSettings:
    return ReportSettings.model_validate({"name": "Geo check", "period": "custom", "start_date": DAY.isoformat(),
                                          "end_date": DAY.isoformat(), "metrics": ["impressions", "clicks", "ctr", "spend"],
                                          **extra})


def _csv(run: ReportRun) -> list[list[str]]:
    return list(csv.reader(io.StringIO(stored_csv_text(report_results.result_key(run.result_file)), newline="")))


def test_a_run_has_the_exact_totals_of_the_store_and_reaches_100(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r1", [_row(advertiser, impressions=1000, clicks=10, spend_micros=1_234_567),
                              _row(advertiser, country="DE", impressions=500, clicks=5, spend_micros=765_433),
                              _row(advertiser, country="FR", impressions=250, spend_micros=1)], source="test")
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, data=_fixed(), report_type="geo")
    assert report.dimensions == ["country"]  # the type's preset
    run = reports.start_run(db, actor=actor, report_id=report.id)
    db.commit()  # the job starts once the run is committed
    done = wait_for_run(run.id)
    assert (done.status, done.progress, done.row_count) == ("completed", 100, 3)
    assert done.totals["impressions"] == 1750 and done.totals["clicks"] == 15
    assert done.totals["spend"] == pytest.approx(2.000001)
    rows = _csv(done)
    assert rows[0] == ["Country", "Impressions", "Clicks", "CTR (%)", "Spend ($)"]
    assert {r[0]: r[4] for r in rows[1:]} == {"US": "1.234567", "DE": "0.765433", "FR": "0.000001"}
    result = reports.run_result(db, actor=actor, run_id=run.id)
    assert sum(r["impressions"] for r in result.rows) == 1750


def test_formula_like_cells_are_neutralised(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r2", [_row(advertiser, app="=HYPERLINK(\"http://evil\")", impressions=3),
                              _row(advertiser, app="@SUM(A1)", impressions=4)], source="test")
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, data=_fixed(name="Apps"), report_type="app")
    run_id = reports.start_run(db, actor=actor, report_id=report.id).id
    db.commit()
    cells = [r[0] for r in _csv(wait_for_run(run_id))[1:]]
    assert sorted(cells) == ["'=HYPERLINK(\"http://evil\")", "'@SUM(A1)"]
    # The page shows the value as it was, not the guard.
    shown = reports.run_result(db, actor=actor, run_id=run_id).rows
    assert sorted(r["app"] for r in shown) == ["=HYPERLINK(\"http://evil\")", "@SUM(A1)"]


def test_an_advertiser_cannot_read_or_run_another_advertisers_report(db, demo_ids) -> None:
    _agency, rival = other_tenant(db)
    rival_actor = actor_of(db, rival.email)
    theirs = reports.create_report(db, actor=rival_actor, data=_fixed(), report_type="geo")
    mine = actor_of(db, "advertiser@demo.example")
    for call, kwargs in ((reports.get_report, {"report_id": theirs.id}),
                         (reports.start_run, {"report_id": theirs.id}),
                         (reports.delete_report, {"report_id": theirs.id})):
        with pytest.raises(NotFound):
            call(db, actor=mine, **kwargs)
    assert [r.id for r in reports.list_reports(db, actor=mine)] == []
    agency = actor_of(db, "agency@demo.example")  # another agency's advertiser is out of its scope too
    with pytest.raises(NotFound):
        reports.get_report(db, actor=agency, report_id=theirs.id)


def test_an_agency_cross_advertiser_report_holds_only_its_advertisers(db, demo_ids) -> None:
    _agency, rival = other_tenant(db)
    own = demo_ids["advertiser@demo.example"]
    get_store().ingest("r3", [_row(own, impressions=10), _row(rival.id, impressions=7)], source="test")
    agency = actor_of(db, "agency@demo.example")
    report = reports.create_report(db, actor=agency, data=_fixed(dimensions=["country", "advertiser_id"]),
                                   report_type="geo")
    assert report.advertiser_id is None
    run_id = reports.start_run(db, actor=agency, report_id=report.id).id
    db.commit()
    done = wait_for_run(run_id)
    assert done.totals["impressions"] == 10
    assert [r[1] for r in _csv(done)[1:]] == [str(own)]
    # An admin running the agency's report sees the agency's rows, not everyone's.
    admin = actor_of(db, "admin@demo.example")
    again = reports.start_run(db, actor=admin, report_id=report.id).id
    db.commit()
    assert wait_for_run(again).totals["impressions"] == 10


def test_bad_settings_name_their_fields(db) -> None:
    actor = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as caught:
        reports.create_report(db, actor=actor, report_type="geo", data=ReportSettings.model_validate({
            "name": "", "dimensions": ["exchange"], "metrics": ["likes"], "period": "custom", "start_date": "soon", "end_date": "later",
            "time_zone": "Mars/Base", "schedule": "daily", "recipients": ["not-an-address"]}))
    assert set(caught.value.fields) >= {"name", "dimensions", "metrics", "start_date", "end_date", "time_zone",
                                        "recipients"}
    with pytest.raises(Invalid) as caught:
        reports.create_report(db, actor=actor, report_type="multi-dimensional", data=_fixed())
    assert "report_type" in caught.value.fields  # multi-dimensional is for admin and co-admin
    with pytest.raises(Invalid) as caught:
        reports.create_report(db, actor=actor, report_type="geo", data=_fixed(schedule="weekly"))
    assert caught.value.fields == {"recipients": "A scheduled report needs at least one recipient."}


def test_restart_fails_a_run_a_dead_process_left_running_and_starts_a_pending_one(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r4", [_row(advertiser, impressions=42)], source="test")
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, data=_fixed(), report_type="geo")
    common = {"report_id": report.id, "requested_by": advertiser, "period_start": DAY, "period_end": DAY,
              "columns": report_results.result_columns(report)}
    interrupted = ReportRun(status="running", attempts=1, progress=70, **common)  # no live worker holds its job
    queued = ReportRun(status="pending", attempts=0, **common)  # written before its job was (an older version)
    db.add_all([interrupted, queued])
    db.commit()
    clock.start()  # start-up: recovery runs here
    assert wait_for_run(queued.id).status == "completed"
    # The owner reads why on the reports page (its runs list).
    db.expire_all()
    shown = {r.id: r for r in reports.list_runs(db, actor=actor, report_id=report.id)}
    assert (shown[interrupted.id].status, shown[interrupted.id].error) == ("failed", "interrupted by a restart")


def test_a_daily_report_mails_its_csv(db, demo_ids, smtp_server) -> None:  # noqa: F811
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r5", [_row(advertiser, impressions=99, clicks=3)], source="test")
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, report_type="performance", data=ReportSettings.model_validate({
        "name": "Daily digest", "period": "last_7_days", "schedule": "daily",
        "recipients": ["boss@example.com", "ops@example.com"], "metrics": ["impressions", "clicks"]}))
    db.commit()
    scheduler = clock.start()
    assert scheduler.get_job(f"schedule-{report.id}") is not None  # registered from the row at start-up
    run_id = report_jobs.run_scheduled(report.id, slot=datetime(2030, 1, 1, 6, tzinfo=UTC))
    assert report_jobs.run_scheduled(report.id, slot=datetime(2030, 1, 1, 6, tzinfo=UTC)) is None  # a slot runs once
    jobs.drain()  # generate, then mail (a job of its own)
    assert sorted(r for m in smtp_server.messages for r in m[1]) == ["boss@example.com", "ops@example.com"]
    message = email.message_from_string(smtp_server.messages[0][2])
    attachment = next(part for part in message.walk() if part.get_filename())
    assert attachment.get_filename().startswith("Daily-digest-") and attachment.get_content_type() == "text/csv"
    text = attachment.get_payload(decode=True).decode("utf-8-sig")
    assert text.splitlines()[0] == "Date,Impressions,Clicks" and f"{DAY.isoformat()},99,3" in text
    with session_scope() as check:
        assert check.get(ReportRun, run_id).status == "completed"


def test_deleting_a_file_keeps_the_run(db, demo_ids) -> None:
    actor = actor_of(db, "advertiser@demo.example")
    report = reports.create_report(db, actor=actor, data=_fixed(), report_type="geo")
    run_id = reports.start_run(db, actor=actor, report_id=report.id).id
    db.commit()
    key = report_results.result_key(wait_for_run(run_id).result_file)
    assert get_storage().exists(key)
    assert reports.delete_run_file(db, actor=actor, run_id=run_id).has_file is False
    db.commit()
    assert not get_storage().exists(key)
    with pytest.raises(NotFound):
        reports.download_run(db, actor=actor, run_id=run_id)


def test_api_create_generate_poll_download(client, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r6", [_row(advertiser, impressions=5, clicks=1, spend_micros=2_000_000)], source="test")
    headers = bearer_headers(client, "advertiser@demo.example")
    bad = client.post("/api/report/create", headers=headers, json={"name": "", "report_type": "geo"})
    assert bad.status_code == 422 and "name" in bad.json()["data"]["fields"]
    created = client.post("/api/report/create", headers=headers, json={
        "name": "By exchange", "report_type": "exchange", "period": "custom", "start_date": DAY.isoformat(),
        "end_date": DAY.isoformat()}).json()
    assert created["success"] and created["data"]["dimensions"] == ["exchange"]
    report_id = created["data"]["id"]
    run_ids = [client.post(f"/api/{call}", headers=headers, json={"report_id": report_id}).json()["data"]["run_id"]
               for call in ("reports/generate", "generatebasic", "generateCHDB")]
    for run_id in run_ids:
        deadline = time.monotonic() + 20
        while (status := client.get(f"/api/report/run/{run_id}", headers=headers).json()["data"])["status"] not in (
                "completed", "failed") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (status["status"], status["progress"], status["row_count"]) == ("completed", 100, 1)
    link = client.get("/api/report/download", headers=headers, params={"run_id": run_ids[0]}).json()["data"]
    body = client.get(link["csv_download_url"], headers=headers)
    assert body.status_code == 200 and "Google AdX,5,1,20.0000,2" in body.text
    single = client.get("/api/report/getSingle", headers=headers, params={"report_id": report_id}).json()["data"]
    assert len(single["runs"]) == 3
    listed = client.get("/api/report/get", headers=headers).json()["data"]
    assert [r["last_status"] for r in listed] == ["completed"]
    files = client.get("/api/getAdminReportsByCSV", headers=headers).json()["data"]
    assert {f["run_id"] for f in files} == set(run_ids)
    removed = client.post("/api/report/deleteCSVReportFile", headers=headers, json={"run_id": run_ids[0]}).json()
    assert removed["data"]["has_file"] is False
    other = bearer_headers(client, "agency@demo.example")
    assert client.get("/api/report/getSingle", headers=other, params={"report_id": report_id}).json()["success"]
    assert client.delete("/api/report/delete", headers=headers, params={"report_id": report_id}).json()["success"]
    assert client.get("/api/report/get", headers=headers).json()["data"] == []


def test_running_apps_export(client, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r7", [_row(advertiser, app="com.big", impressions=9, spend_micros=3_000_000),
                              _row(advertiser, app="com.small", country="DE", impressions=1, spend_micros=1)],
                       source="test")
    headers = bearer_headers(client, "advertiser@demo.example")
    reply = client.post("/api/report/runningApps", headers=headers, json={
        "start_date": DAY.isoformat(), "end_date": DAY.isoformat(), "countries": ["US"]}).json()
    assert reply["success"] and reply["data"]["filename"] == "RunningApps.csv"
    body = client.get(reply["data"]["csv_download_url"], headers=headers)
    assert 'filename="RunningApps.csv"' in body.headers["content-disposition"]
    lines = body.text.lstrip("\ufeff").splitlines()
    assert lines[0].startswith("App,Impressions") and len(lines) == 2 and lines[1].startswith("com.big,9")


def _download_name(content_disposition: str) -> str | None:
    """The file name a browser saves under: filename, or RFC 6266's filename*= (UTF-8, percent-encoded)."""
    header = email.message.Message()
    header["content-disposition"] = content_disposition
    return header.get_filename()


def test_the_running_apps_export_downloads_under_the_name_its_user_chose(client, demo_ids) -> None:
    """Spec §9's default export name RunningApps.csv is a default: the file downloads as the name given, and a
    name the spec's file-name rule refuses answers 422 naming file_name, with no file made."""
    from app.kernel import csv_exports

    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("r8", [_row(advertiser, app="com.named", impressions=3, spend_micros=1_000)], source="test")
    headers = bearer_headers(client, "advertiser@demo.example")
    period = {"start_date": DAY.isoformat(), "end_date": DAY.isoformat()}
    reply = client.post("/api/report/runningApps", headers=headers,
                        json={**period, "file_name": "  Apps 2026_week-47.csv "}).json()
    assert reply["success"] and reply["data"]["filename"] == "Apps 2026_week-47.csv"
    body = client.get(reply["data"]["csv_download_url"], headers=headers)
    assert body.status_code == 200 and _download_name(body.headers["content-disposition"]) == "Apps 2026_week-47.csv"
    blank = client.post("/api/report/runningApps", headers=headers, json={**period, "file_name": " "}).json()
    assert blank["data"]["filename"] == "RunningApps.csv"

    files_before = sorted(f.key for f in get_storage().list(csv_exports.EXPORTS + "/"))
    rule = "File names use letters, digits, _ and - with single spaces, an extension, and may not start with x."
    for bad, message in (("xApps.csv", rule), ("Xmas.csv", rule), ("Apps  week.csv", rule), ("Apps", rule),
                         ("../Apps.csv", rule), ("Apps;.csv", rule), ("Apps.txt", "The file is a CSV: end its name with .csv."),
                         ("A" * 97 + ".csv", "At most 100 characters.")):
        refused = client.post("/api/report/runningApps", headers=headers, json={**period, "file_name": bad})
        assert refused.status_code == 422 and refused.json()["data"]["fields"] == {"file_name": message}, bad
    assert sorted(f.key for f in get_storage().list(csv_exports.EXPORTS + "/")) == files_before


def test_reports_table_is_in_the_migration(db) -> None:
    assert db.exec(select(Report)).all() == []


def test_the_rest_create_answers_201_with_the_reports_url_and_the_spec_name_answers_200(client) -> None:
    """POST /reports answers as every REST create does (201, Location: GET /reports/{id}); the spec's client reads
    report/create's 200 without a Location."""
    headers = bearer_headers(client, "advertiser@demo.example")
    body = {"name": "By exchange", "report_type": "exchange"}
    made = client.post("/api/reports", headers=headers, json=body)
    assert made.status_code == 201 and made.json()["code"] == 201, made.text
    read = client.get(made.headers["location"], headers=headers).json()["data"]
    assert read == {"report": made.json()["data"], "runs": []}
    spec = client.post("/api/report/create", headers=headers, json={**body, "name": "Again"})
    assert (spec.status_code, spec.json()["code"], "location" in spec.headers) == (200, 200, False)
