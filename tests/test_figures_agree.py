"""Every figure agrees with every other: known hourly rows go in through the ingestion path, and the
dashboard, a report run (its totals and its CSV), the statistics API, the ledger and the funds page all give
back exactly their sums (issue 10, "Done means"), on each statistics store (DuckDB and chDB: the `store` fixture)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

from sqlmodel import select

from app.access.models import UserSettings
from app.campaigns.models import Campaign, CampaignStatus
from app.funds import service as funds
from app.funds.models import LedgerEntry
from app.jobs import clock
from app.reports import results as report_results
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from app.statistics import dashboards, ingestion
from tests.helpers import actor_of, bearer_headers, stored_csv_text, wait_for_run

DAY = date.today() - timedelta(days=3)
MARGIN_BPS = 1250  # 12.5 % agency margin on this advertiser's spend


def _rows(advertiser: int, campaign: int) -> list[dict[str, object]]:
    rows = []
    for hour in range(0, 24, 3):
        for exchange, os_name, spend in (("Google AdX", "Android", 1_234_567), ("Magnite", "iOS", 765_433)):
            rows.append({"hour": datetime(DAY.year, DAY.month, DAY.day, hour, tzinfo=UTC).isoformat(),
                         "advertiser_id": advertiser, "campaign_id": campaign, "creative_id": 0,
                         "exchange": exchange, "os": os_name, "country": "US", "app": "com.example.game",
                         "device_type": "phone", "impressions": 1000 + hour, "clicks": 7 + hour % 4,
                         "spend_micros": spend + hour, "conversions": hour % 3, "events": {"purchase": 1}})
    return rows


def test_dashboard_report_csv_api_and_ledger_agree_with_the_ingested_rows(client, db, demo_ids, store) -> None:
    advertiser_id = demo_ids["advertiser@demo.example"]
    settings = db.exec(select(UserSettings).where(UserSettings.user_id == advertiser_id)).one()
    settings.margin_bps = MARGIN_BPS
    campaign = Campaign(advertiser_id=advertiser_id, name="Agreement", status=CampaignStatus.ACTIVE,
                        starts_at=datetime.now(UTC) - timedelta(days=10), total_budget_micros=10_000_000_000,
                        bid_micros=2_000_000)
    db.add_all([settings, campaign])
    db.commit()
    rows = _rows(advertiser_id, campaign.id)
    expected = {key: sum(int(r[key]) for r in rows) for key in ("impressions", "clicks", "spend_micros", "conversions")}
    before = funds.funds_summary(db, actor=actor_of(db, "admin@demo.example"), advertiser_id=advertiser_id)

    ingestion.ingest_batch(db, actor=actor_of(db, "admin@demo.example"), batch_id="agree-1", rows=rows)
    db.commit()

    me = actor_of(db, "advertiser@demo.example")
    # The dashboard.
    board = dashboards.dashboard(db, actor=me, start=DAY, end=DAY)
    assert {k: board.totals[k] for k in expected} == expected
    assert sum(r["spend_micros"] for r in board.breakdowns["exchange"]) == expected["spend_micros"]
    assert sum(d["impressions"] for d in board.by_day) == expected["impressions"]

    # A report run: its totals and the sum of its CSV's rows.
    try:
        report = reports.create_report(db, actor=me, report_type="exchange", data=ReportSettings.model_validate({
            "name": "Agreement", "period": "custom", "start_date": DAY.isoformat(), "end_date": DAY.isoformat(),
            "metrics": ["impressions", "clicks", "spend", "conversions"]}))
        run_id = reports.start_run(db, actor=me, report_id=report.id).id
        db.commit()  # the job starts once the run is committed
        run = wait_for_run(run_id)
    finally:
        clock.shutdown()
    assert run.status == "completed", run.error
    assert run.totals["impressions"] == expected["impressions"]
    assert round(run.totals["spend"] * 1_000_000) == expected["spend_micros"]
    lines = list(csv.DictReader(io.StringIO(stored_csv_text(report_results.result_key(run.result_file)), newline="")))
    spend_column = next(k for k in lines[0] if k.lower().startswith("spend"))
    impressions_column = next(k for k in lines[0] if k.lower().startswith("impressions"))
    assert sum(int(line[impressions_column]) for line in lines) == expected["impressions"]
    assert round(sum(float(line[spend_column]) for line in lines) * 1_000_000) == expected["spend_micros"]

    # The API.
    api = client.get("/api/statistics", params={"start": DAY.isoformat(), "end": DAY.isoformat()},
                     headers=bearer_headers(client, "advertiser@demo.example")).json()["data"]
    assert api[0]["impressions"] == expected["impressions"] and api[0]["spend_micros"] == expected["spend_micros"]

    # The ledger: spend charged exactly, the margin on top, nothing more; and the funds page says the same.
    entries = db.exec(select(LedgerEntry).where(LedgerEntry.advertiser_id == advertiser_id,
                                                LedgerEntry.kind.in_(("spend", "margin")))).all()  # type: ignore[attr-defined]
    spent = -sum(e.amount_micros for e in entries if e.kind == "spend")
    margin = -sum(e.amount_micros for e in entries if e.kind == "margin")
    assert spent == expected["spend_micros"]
    assert margin == funds.margin_micros(expected["spend_micros"], MARGIN_BPS)
    after = funds.funds_summary(db, actor=me, advertiser_id=advertiser_id)
    assert after.balance_micros == before.balance_micros - spent - margin
    assert after.spend_micros == spent

    # A replayed batch changes none of it.
    again = ingestion.ingest_batch(db, actor=actor_of(db, "admin@demo.example"), batch_id="agree-1", rows=rows)
    db.commit()
    assert again.duplicate is True
    assert funds.funds_summary(db, actor=me, advertiser_id=advertiser_id).balance_micros == after.balance_micros
    assert dashboards.dashboard(db, actor=me, start=DAY, end=DAY).totals["impressions"] == expected["impressions"]
