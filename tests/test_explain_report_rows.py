"""Explain a report row (issue 27): any figure of a run's result row opens the rows and batches behind it, and
they add up to the row's value; the run's scope holds (another tenant: not found), bad row values are refused
naming the field (service and API), and the rows export as a CSV."""

from __future__ import annotations

from typing import Any

import pytest

from app.jobs import clock
from app.kernel.csv_exports import open_export
from app.kernel.errors import Invalid, NotFound
from app.reports import service as reports
from app.reports.schemas import ReportSettings
from app.statistics.money_replies import as_text
from tests.helpers import actor_of, bearer_headers, stored_csv_text, wait_for_run
from tests.test_explain_figure import FIRST, TODAY, delivered  # noqa: F401  (the fixture: a week of two campaigns)

pytestmark = pytest.mark.usefixtures("delivered")


def _run(db: Any, email: str, report_type: str, **settings: Any) -> tuple[int, list[dict[str, Any]]]:
    """A completed run of a new report over the fixture's week: its id and its result rows."""
    actor = actor_of(db, email)
    data = ReportSettings.model_validate({"name": f"Rows {report_type}", "period": "custom",
                                         "start_date": FIRST.isoformat(), "end_date": TODAY.isoformat(),
                                         "metrics": ["impressions", "spend", "ctr"], **settings})
    report = reports.create_report(db, actor=actor, data=data, report_type=report_type)
    run = reports.start_run(db, actor=actor, report_id=report.id)
    db.commit()  # the job starts once the run is committed
    try:
        assert wait_for_run(run.id).status == "completed"
    finally:
        clock.shutdown()
    return run.id, reports.run_result(db, actor=actor, run_id=run.id).rows


def test_each_row_is_explained_by_rows_that_add_up_to_it(db, delivered) -> None:  # noqa: F811
    actor = actor_of(db, "agency@demo.example")
    run_id, rows = _run(db, "agency@demo.example", "performance", dimensions=["date", "campaign_id", "exchange"])
    assert len(rows) == 15  # 7 days of Spring on AdX, 4 days x 2 campaigns on Magnite
    for row in rows:
        for metric in ("spend", "impressions"):
            shown = reports.explain_run_row(db, actor=actor, run_id=run_id, row=row, metric=metric)
            assert as_text(shown.totals[metric]) == as_text(row[metric]), (row, metric)  # type: ignore[arg-type]
        assert (shown.start, shown.end) == (row["date"], row["date"])
        assert {(r["campaign_id"], r["exchange"]) for r in shown.rows} == {(row["campaign_id"], row["exchange"])}
        assert [b.batch_id for b in shown.batches] == ["adx:week" if row["exchange"] == "Google AdX" else "magnite:week"]

    # A ratio's explanation is of the row's sums, as the row shows it.
    ctr = reports.explain_run_row(db, actor=actor, run_id=run_id, row=rows[0], metric="ctr")
    assert round(ctr.totals["ctr"], 4) == round(rows[0]["ctr"], 4)  # type: ignore[arg-type]


def test_a_campaign_row_spans_the_run_and_an_hour_row_is_explained_by_its_day(db, delivered) -> None:  # noqa: F811
    actor = actor_of(db, "advertiser@demo.example")
    run_id, rows = _run(db, "advertiser@demo.example", "campaign")
    autumn = next(r for r in rows if r["campaign_id"] == delivered["autumn"])
    shown = reports.explain_run_row(db, actor=actor, run_id=run_id, row=autumn, metric="spend")
    assert as_text(shown.totals["spend"]) == as_text(autumn["spend"])  # type: ignore[arg-type]
    assert (shown.start, shown.end) == (FIRST.isoformat(), TODAY.isoformat())
    assert {r["campaign_name"] for r in shown.rows} == {"Autumn"}

    hourly_id, hours = _run(db, "advertiser@demo.example", "performance", dimensions=["date", "hour"])
    hour = next(r for r in hours if str(r["hour"]).endswith("03:00:00"))  # Magnite's first hour of a day
    day = reports.explain_run_row(db, actor=actor, run_id=hourly_id, row=hour, metric="spend")
    assert day.start == day.end == str(hour["hour"])[:10]
    same_day = [r for r in hours if str(r["hour"])[:10] == day.start]
    assert day.totals["impressions"] == sum(r["impressions"] for r in same_day)  # the whole day's hours
    with pytest.raises(Invalid) as refused:  # an hour outside the run's days
        reports.explain_run_row(db, actor=actor, run_id=hourly_id, row={**hour, "hour": "2001-01-01T03:00:00"}, metric="spend")
    assert "row_hour" in refused.value.fields


def test_another_tenant_cannot_explain_a_row_and_bad_values_name_their_field(db, delivered) -> None:  # noqa: F811
    actor = actor_of(db, "agency@demo.example")
    run_id, rows = _run(db, "agency@demo.example", "campaign", dimensions=["campaign_id", "exchange"],
                        filters={"exchange": ["Magnite"]})
    rival = actor_of(db, "rival-adv@other.example")
    with pytest.raises(NotFound):
        reports.explain_run_row(db, actor=rival, run_id=run_id, row=rows[0], metric="spend")
    with pytest.raises(NotFound):
        reports.export_run_row(db, actor=rival, run_id=run_id, row=rows[0], metric="spend")
    for row, field in (({"exchange": "Magnite"}, "row_campaign_id"),
                       ({**rows[0], "campaign_id": "Spring"}, "row_campaign_id"),
                       ({**rows[0], "exchange": "Google AdX"}, "row_exchange"),  # the report's filter leaves it out
                       ({**rows[0], "date": FIRST.isoformat()}, "row_date"),  # not a dimension of this run
                       ({**rows[0], "metric": "budget"}, None)):
        with pytest.raises(Invalid) as refused:
            reports.explain_run_row(db, actor=actor, run_id=run_id, row=row, metric=str(row.get("metric", "spend")))
        assert (field or "metric") in refused.value.fields
    # Another tenant's campaign id widens nothing: no rows.
    theirs = reports.explain_run_row(db, actor=actor, run_id=run_id, row={**rows[0], "campaign_id": delivered["rival"]},
                                     metric="spend")
    assert theirs.total_rows == 0 and theirs.batches == []


def test_the_api_explains_a_row_exports_it_and_names_a_bad_field(client, db, delivered) -> None:  # noqa: F811
    run_id, rows = _run(db, "advertiser@demo.example", "performance", dimensions=["date", "exchange"])
    row = next(r for r in rows if r["exchange"] == "Magnite")
    headers = bearer_headers(client, "advertiser@demo.example")
    rival_headers = bearer_headers(client, "rival-adv@other.example")
    params = {"metric": "spend", "row_date": row["date"], "row_exchange": "Magnite"}
    reply = client.get(f"/api/report/run/{run_id}/explain", params=params, headers=headers)
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert data["totals"]["spend"] == as_text(row["spend"])  # money as text, to the cent of the row
    assert {r["exchange"] for r in data["rows"]} == {"Magnite"} and data["start"] == data["end"] == row["date"]

    # No row values: the run's total.
    total = client.get(f"/api/report/run/{run_id}/explain", params={"metric": "impressions"}, headers=headers)
    assert total.json()["data"]["totals"]["impressions"] == sum(r["impressions"] for r in rows)

    link = client.get(f"/api/report/run/{run_id}/explain", params={**params, "csv": "true"}, headers=headers)
    key, _name = open_export(token=link.json()["data"]["csv_download_url"].rsplit("/", 1)[1],
                             actor=actor_of(db, "advertiser@demo.example"))
    assert len(stored_csv_text(key).strip().splitlines()) == 1 + data["total_rows"]

    refused = client.get(f"/api/report/run/{run_id}/explain", params={**params, "row_date": "2026-13-01"},
                         headers=headers)
    assert refused.status_code == 422 and "row_date" in refused.text
    assert client.get(f"/api/report/run/{run_id}/explain", params={**params, "row_os": "iOS"},
                      headers=headers).status_code == 422  # not a dimension of this run
    other = client.get(f"/api/report/run/{run_id}/explain", params=params,
                       headers=rival_headers)
    assert other.status_code == 404
