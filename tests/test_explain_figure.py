"""Explain a figure (issue 27): the rows behind a dashboard figure add up to it to the cent, the batches listed
are the ones those rows were ingested in, and another tenant's rows never appear (service, API, CSV)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from app.campaigns.models import Campaign, CampaignStatus
from app.kernel.errors import Invalid, NotFound
from app.statistics import dashboards, explain
from app.statistics.money_replies import as_text
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, bearer_headers, other_tenant, stored_csv_text

TODAY = datetime.now(UTC).date()
FIRST = TODAY - timedelta(days=6)


def _row(advertiser: int, campaign: int, day: date, exchange: str, spend_micros: int, hour: int = 12) -> FactRow:
    return FactRow(hour=datetime.combine(day, datetime.min.time()).replace(hour=hour), advertiser_id=advertiser,
                   campaign_id=campaign, creative_id=0, exchange=exchange, os="Android", country="US",
                   app="com.example", device_type="phone", impressions=1000 + spend_micros % 997, clicks=7,
                   spend_micros=spend_micros, conversions=1)


def _campaign(db, advertiser: int, name: str) -> int:  # type: ignore[no-untyped-def]
    starts = datetime.combine(FIRST, datetime.min.time(), UTC)
    campaign = Campaign(advertiser_id=advertiser, name=name, status=CampaignStatus.ACTIVE, starts_at=starts,
                        ends_at=starts + timedelta(days=30), total_budget_micros=500_000_000, bid_micros=2_000_000)
    db.add(campaign)
    db.flush()
    assert campaign.id is not None
    return campaign.id


@pytest.fixture
def delivered(db, demo_ids):  # type: ignore[no-untyped-def]
    """The demo advertiser's two campaigns delivered over a week in three batches (one of them also before the
    week), and a rival agency's advertiser in a batch of its own on the same days."""
    advertiser = demo_ids["advertiser@demo.example"]
    for campaign in db.exec(select(Campaign).where(Campaign.advertiser_id == advertiser)).all():
        db.delete(campaign)
    spring, autumn = _campaign(db, advertiser, "Spring"), _campaign(db, advertiser, "Autumn")
    _agency, rival = other_tenant(db)
    assert rival.id is not None
    rival_campaign = _campaign(db, rival.id, "Rival launch")
    db.commit()
    store = get_store()
    # Spend down to the micro-dollar, so a sum rounded per row would miss the cent.
    store.ingest("adx:week", [_row(advertiser, spring, FIRST + timedelta(days=n), "Google AdX", 1_234_567 + n)
                              for n in range(7)], source="api")
    store.ingest("magnite:week", [_row(advertiser, c, FIRST + timedelta(days=n), "Magnite", 2_000_003 * (n + 1), hour=h)
                                  for n in range(0, 7, 2) for c in (spring, autumn) for h in (3, 15)], source="csv")
    store.ingest("adx:before", [_row(advertiser, autumn, FIRST - timedelta(days=3), "Google AdX", 9_000_000)],
                 source="api")
    store.ingest("rival:week", [_row(rival.id, rival_campaign, FIRST + timedelta(days=n), "Google AdX", 5_555_555)
                                for n in range(7)], source="api")
    return {"advertiser": advertiser, "spring": spring, "autumn": autumn, "rival": rival.id}


def test_the_rows_add_up_to_the_dashboard_card_and_name_their_batches(db, delivered) -> None:
    actor = actor_of(db, "advertiser@demo.example")
    card = dashboards.overview(db, actor=actor, start=FIRST, end=TODAY).totals
    shown = explain.explain(db, actor=actor, metric="spend", start=FIRST, end=TODAY)

    assert shown.total_rows == len(shown.rows) == 7 + 8  # 7 days on AdX; 4 days x 2 campaigns on Magnite
    assert sum(int(r["spend_micros"] or 0) for r in shown.rows) == card["spend_micros"] == shown.totals["spend_micros"]
    assert as_text(sum(int(r["spend_micros"] or 0) for r in shown.rows) / 1e6) == as_text(card["spend"])  # type: ignore[arg-type]
    assert as_text(shown.totals["spend"]) == as_text(card["spend"])  # type: ignore[arg-type]  # the card's cents
    assert sum(int(r["impressions"] or 0) for r in shown.rows) == card["impressions"]
    assert {r["campaign_name"] for r in shown.rows} == {"Spring", "Autumn"}
    assert {r["exchange"] for r in shown.rows} == {"Google AdX", "Magnite"}

    # The batches: those ingested for these rows, with the rows each brought and what they add; not the one
    # before the period, nor the rival's.
    assert {b.batch_id: (b.source, b.rows) for b in shown.batches} == {"adx:week": ("api", 7),
                                                                     "magnite:week": ("csv", 16)}
    assert sum(b.spend_micros for b in shown.batches) == card["spend_micros"]

    # A ratio is the ratio of the summed measures, as the card shows it.
    ctr = explain.explain(db, actor=actor, metric="ctr", start=FIRST, end=TODAY)
    assert round(ctr.totals["ctr"], 4) == card["ctr"]  # type: ignore[arg-type]  # the card rounds to 4 places

    # The campaign filter narrows the rows and the batches.
    autumn = explain.explain(db, actor=actor, metric="spend", start=FIRST, end=TODAY,
                             filters={"campaign_id": [delivered["autumn"]]})
    assert {r["campaign_name"] for r in autumn.rows} == {"Autumn"}
    assert [b.batch_id for b in autumn.batches] == ["magnite:week"]
    assert autumn.totals["spend_micros"] == dashboards.overview(
        db, actor=actor, start=FIRST, end=TODAY, campaign_ids=[delivered["autumn"]]).totals["spend_micros"]


def test_another_tenants_rows_and_batches_never_appear(db, delivered) -> None:
    agency = actor_of(db, "agency@demo.example")
    mine = explain.explain(db, actor=agency, metric="impressions", start=FIRST, end=TODAY)
    assert mine.total_rows and delivered["rival"] not in {r["advertiser_id"] for r in mine.rows}
    assert "rival:week" not in {b.batch_id for b in mine.batches}
    # Naming the rival's advertiser or campaign widens nothing.
    with pytest.raises(NotFound):
        explain.explain(db, actor=agency, metric="spend", start=FIRST, end=TODAY, advertiser_id=delivered["rival"])
    theirs = explain.explain(db, actor=agency, metric="spend", start=FIRST, end=TODAY,
                             filters={"exchange": ["Google AdX"], "campaign_id": [delivered["spring"], 10**6]})
    assert {r["advertiser_id"] for r in theirs.rows} == {delivered["advertiser"]}
    # Staff see both tenants, each batch once.
    admin = explain.explain(db, actor=actor_of(db, "admin@demo.example"), metric="spend", start=FIRST, end=TODAY)
    assert [b.batch_id for b in admin.batches] == ["adx:week", "magnite:week", "rival:week"]


def test_paging_and_bad_input_name_the_field(db, delivered) -> None:
    actor = actor_of(db, "advertiser@demo.example")
    whole = explain.explain(db, actor=actor, metric="spend", start=FIRST, end=TODAY)
    page = explain.explain(db, actor=actor, metric="spend", start=FIRST, end=TODAY, offset=10, limit=3)
    assert (page.total_rows, page.offset, page.rows) == (whole.total_rows, 10, whole.rows[10:13])
    for options, field in (({"metric": "budget"}, "metric"), ({"metric": "spend", "limit": 0}, "limit"),
                           ({"metric": "spend", "filters": {"hour": ["1"]}}, "filters.hour")):
        with pytest.raises(Invalid) as refused:
            explain.explain(db, actor=actor, start=FIRST, end=TODAY, **options)  # type: ignore[arg-type]
        assert field in refused.value.fields


def test_the_api_answers_money_as_text_pages_the_rows_and_exports_them(client, db, delivered) -> None:
    headers = bearer_headers(client, "advertiser@demo.example")
    params = {"metric": "spend", "start": FIRST.isoformat(), "end": TODAY.isoformat(),
              "filter_campaign_id": str(delivered["spring"]), "limit": 5}
    reply = client.get("/api/statistics/explain", params=params, headers=headers)
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert (data["total_rows"], len(data["rows"])) == (11, 5)  # 7 AdX days + 4 Magnite days of Spring
    assert isinstance(data["totals"]["spend"], str) and isinstance(data["rows"][0]["spend"], str)
    assert {b["batch_id"] for b in data["batches"]} == {"adx:week", "magnite:week"}
    assert data["batches"][0]["received_at"].endswith("Z")

    link = client.get("/api/statistics/explain", params={**params, "csv": "true"}, headers=headers).json()["data"]
    assert link["filename"] == "Explanation.csv"
    from app.kernel.csv_exports import open_export
    key, _name = open_export(token=link["csv_download_url"].rsplit("/", 1)[1], actor=actor_of(db, "advertiser@demo.example"))
    lines = stored_csv_text(key).strip().splitlines()
    assert len(lines) == 1 + 11 and lines[0].startswith("date,advertiser_id,advertiser_name,campaign_id")

    refused = client.get("/api/statistics/explain", params={"metric": "nope"}, headers=headers)
    assert refused.status_code == 422 and "metric" in refused.text


def test_a_report_total_is_explained_in_the_run_scope(db, delivered) -> None:
    from app.jobs import clock
    from app.reports import service as reports
    from app.reports.schemas import ReportSettings
    from tests.helpers import wait_for_run

    actor = actor_of(db, "agency@demo.example")
    settings = ReportSettings.model_validate({
        "name": "Magnite week", "period": "custom", "start_date": FIRST.isoformat(), "end_date": TODAY.isoformat(),
        "metrics": ["impressions", "spend", "ecpm"], "filters": {"exchange": ["Magnite"]}})
    report = reports.create_report(db, actor=actor, data=settings, report_type="geo")
    run = reports.start_run(db, actor=actor, report_id=report.id)
    db.commit()  # the job starts once the run is committed
    try:
        done = wait_for_run(run.id)
    finally:
        clock.shutdown()
    assert done.status == "completed"
    shown = reports.explain_run_total(db, actor=actor, run_id=run.id, metric="spend")
    assert as_text(shown.totals["spend"]) == as_text(done.totals["spend"])  # type: ignore[arg-type]
    assert shown.totals["impressions"] == done.totals["impressions"]
    assert {r["exchange"] for r in shown.rows} == {"Magnite"} and [b.batch_id for b in shown.batches] == ["magnite:week"]
    # Another account's user cannot explain it: the run is not found for them.
    with pytest.raises(NotFound):
        reports.explain_run_total(db, actor=actor_of(db, "rival-adv@other.example"), run_id=run.id, metric="spend")
