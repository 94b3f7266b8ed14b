"""Statistics ingestion: JSON and CSV batches summed back through the statistics service, charged to the
ledger once; a bad row refuses the batch naming its row and field with nothing written; replays are no-ops;
only admins send; a campaign of another advertiser is refused."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from sqlmodel import Session, col, select

from app.campaigns.models import Campaign
from app.demo.advertising import seed_demo_advertising
from app.funds import ledger
from app.funds.models import LedgerEntry
from app.kernel.errors import Forbidden, Invalid
from app.statistics import csv_batches, ingestion
from app.statistics import service as statistics
from app.warehouse import get_store
from app.warehouse.base import HistoryQuery
from tests.helpers import actor_of, bearer_headers, other_tenant

DAY = {"start": date(2026, 11, 10), "end": date(2026, 11, 10)}


@pytest.fixture
def setup(db: Session, demo_ids: dict[str, int]) -> dict[str, Any]:
    advertiser = actor_of(db, "advertiser@demo.example")
    seed_demo_advertising(db, actor=advertiser)
    campaign = db.exec(select(Campaign).where(Campaign.advertiser_id == advertiser.id).order_by(col(Campaign.id))).first()
    assert campaign is not None
    admin = actor_of(db, "admin@demo.example")
    db.commit()  # the API tests' server writes through connections of its own
    return {"admin": admin, "advertiser": advertiser, "campaign": campaign.id}


def row(setup: dict[str, Any], **values: Any) -> dict[str, Any]:
    base = {"hour": "2026-11-10T14:00:00Z", "advertiser_id": setup["advertiser"].id, "campaign_id": setup["campaign"],
            "creative_id": 0, "exchange": "Google AdX", "os": "Android", "country": "DE", "app": "com.example.game",
            "device_type": "phone", "impressions": 1000, "clicks": 10, "spend_micros": 2_000_000, "conversions": 1}
    return {**base, **values}


def balance(db: Session, setup: dict[str, Any]) -> int:
    return ledger.balance_micros(db, actor=setup["admin"], advertiser_id=setup["advertiser"].id)


def day_totals(db: Session, setup: dict[str, Any], **options: Any) -> list[dict[str, Any]]:
    return statistics.statistics(db, actor=setup["advertiser"], **DAY, **options)


def test_a_json_batch_is_summed_back_and_charged_once(db: Session, setup: dict[str, Any]) -> None:
    before = balance(db, setup)
    rows = [row(setup, hour=f"2026-11-10T{h:02d}:00:00Z", events={"install": 2}) for h in range(10, 14)]
    rows.append(row(setup, hour="2026-11-10T16:00:00+02:00", country="at", clicks=3, impressions=0))  # late clicks
    answer = ingestion.ingest_batch(db, actor=setup["admin"], batch_id="adx:2026-11-10", rows=rows)
    assert answer.model_dump() == {"batch_id": "adx:2026-11-10", "rows": 5, "duplicate": False,
                      "spend_micros_by_advertiser": {str(setup["advertiser"].id): 10_000_000}}
    by_country = {r["country"]: r for r in day_totals(db, setup, dimensions=["country"], events=["install"])}
    assert by_country["DE"]["impressions"] == 4000 and by_country["DE"]["event_install"] == 8
    assert by_country["AT"]["clicks"] == 3  # 16:00+02:00 is 14:00 UTC, the same day
    assert balance(db, setup) == before - 10_000_000

    again = ingestion.ingest_batch(db, actor=setup["admin"], batch_id="adx:2026-11-10", rows=rows)
    assert again.duplicate is True and again.rows == 5
    assert day_totals(db, setup)[0]["impressions"] == 4000
    assert balance(db, setup) == before - 10_000_000  # a replay charges nothing more


def test_a_csv_batch_names_lines_and_sums_back(db: Session, setup: dict[str, Any]) -> None:
    adv, camp = setup["advertiser"].id, setup["campaign"]
    header = ",".join(csv_batches.CSV_COLUMNS) + ",event_purchase\n"
    line = f"2026-11-10T{{h}}:00:00Z,{adv},{camp},0,Google AdX,iOS,DE,com.example.shop,tablet,500,5,1500000,{{c}},{{p}}\n"
    text = header + line.format(h="08", c=1, p=2) + line.format(h="09", c=0, p="")
    answer = csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="csv-1", text=text)
    assert (answer.rows, answer.duplicate) == (2, False)
    total = day_totals(db, setup, events=["purchase"])[0]
    assert (total["impressions"], total["conversions"], total["spend_micros"], total["event_purchase"]) == (
        1000, 1, 3_000_000, 2)

    bad = header + line.format(h="08", c=1, p=2) + line.format(h="09", c="-1", p=0).replace(",DE,", ",XX,")
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="csv-2", text=bad)
    assert caught.value.fields == {"line 3.country": "Not an ISO country code.",
                                   "line 3.conversions": "Give a whole number, 0 or more."}
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="csv-3", text="hour,country\n")
    assert "line 1" in caught.value.fields


def test_a_bad_row_refuses_the_batch_and_writes_nothing(db: Session, setup: dict[str, Any]) -> None:
    before = balance(db, setup)
    entries = len(db.exec(select(LedgerEntry)).all())
    rows = [row(setup) for _ in range(20)]
    rows[17] = row(setup, country="Germany")
    rows[3] = row(setup, hour="2026-11-10T14:30:00Z", clicks=-1, events={"Bad Name": 1})
    rows[5] = row(setup, hour="2026-11-10 14:00", spend_micros=1.5, device_type="watch")
    with pytest.raises(Invalid) as caught:
        ingestion.ingest_batch(db, actor=setup["admin"], batch_id="bad", rows=rows)
    assert caught.value.fields == {
        "rows[3].hour": ingestion.NOT_ON_THE_HOUR, "rows[3].clicks": ingestion.NOT_A_COUNT,
        "rows[3].events": "Not an event name: 'Bad Name' (a-z, 0-9, _; at most 40).",
        "rows[5].hour": ingestion.BAD_HOUR, "rows[5].device_type": ingestion.NOT_A_DEVICE,
        "rows[5].spend_micros": ingestion.NOT_A_COUNT, "rows[17].country": "Not an ISO country code."}
    assert day_totals(db, setup)[0]["impressions"] == 0
    assert get_store().first_and_last_hour(None) is None
    assert balance(db, setup) == before and len(db.exec(select(LedgerEntry)).all()) == entries
    # The id of a refused batch is still free: the corrected batch is stored under it.
    rows[3] = rows[5] = rows[17] = row(setup)
    assert ingestion.ingest_batch(db, actor=setup["admin"], batch_id="bad", rows=rows).duplicate is False


def test_many_bad_rows_name_the_first_twenty(db: Session, setup: dict[str, Any]) -> None:
    with pytest.raises(Invalid) as caught:
        ingestion.ingest_batch(db, actor=setup["admin"], batch_id="many",
                               rows=[row(setup, os="") for _ in range(30)])
    assert len(caught.value.fields) == 20 and "rows[19].os" in caught.value.fields
    assert "30 problems" in caught.value.message


def test_another_advertisers_campaign_or_creative_is_refused(db: Session, setup: dict[str, Any]) -> None:
    _agency, rival = other_tenant(db)
    with pytest.raises(Invalid) as caught:
        ingestion.ingest_batch(db, actor=setup["admin"], batch_id="x", rows=[
            row(setup, advertiser_id=rival.id), row(setup, creative_id=999_999), row(setup, campaign_id=999_999)])
    assert caught.value.fields == {"rows[0].campaign_id": ingestion.NO_CAMPAIGN,
                                   "rows[1].creative_id": ingestion.NO_CREATIVE,
                                   "rows[2].campaign_id": ingestion.NO_CAMPAIGN}


@pytest.mark.parametrize("email", ["coadmin@demo.example", "agency@demo.example", "advertiser@demo.example"])
def test_only_admins_send_statistics(db: Session, setup: dict[str, Any], email: str) -> None:
    with pytest.raises(Forbidden):
        ingestion.ingest_batch(db, actor=actor_of(db, email), batch_id="b", rows=[row(setup)])


def test_batch_ids_and_sizes_are_checked(db: Session, setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("", "a b", "x" * 101, "semi;colon"):
        with pytest.raises(Invalid) as caught:
            ingestion.ingest_batch(db, actor=setup["admin"], batch_id=bad, rows=[row(setup)])
        assert set(caught.value.fields) == {"batch_id"}
    monkeypatch.setattr(ingestion, "MAX_ROWS", 2)
    with pytest.raises(Invalid) as caught:
        ingestion.ingest_batch(db, actor=setup["admin"], batch_id="big", rows=[row(setup)] * 3)
    assert set(caught.value.fields) == {"rows"}


def test_the_api_stores_replays_and_refuses(client: Any, setup: dict[str, Any]) -> None:
    admin = bearer_headers(client, "admin@demo.example")
    body = {"batch_id": "api-1", "rows": [row(setup)]}
    first = client.post("/api/statistics/batches", json=body, headers=admin)
    assert first.status_code == 200, first.text
    assert first.json()["data"]["duplicate"] is False
    again = client.post("/api/statistics/batches", json=body, headers=admin)
    assert again.status_code == 200 and again.json()["data"]["duplicate"] is True

    bad = client.post("/api/statistics/batches", json={"batch_id": "api-2", "rows": [row(setup, country="ZZZ")]},
                      headers=admin)
    assert bad.status_code == 422
    assert bad.json()["data"]["fields"] == {"rows[0].country": "Not an ISO country code."}

    advertiser = bearer_headers(client, "advertiser@demo.example")
    refused = client.post("/api/statistics/batches", json={"batch_id": "api-3", "rows": [row(setup)]},
                          headers=advertiser)
    assert refused.status_code == 403 and refused.json()["success"] is False

    csv_text = ",".join(csv_batches.CSV_COLUMNS) + "\n" + ",".join(str(v) for v in row(setup, clicks=7).values()) + "\n"
    sent = client.post("/api/statistics/batches/csv?batch_id=api-csv", content=csv_text,
                       headers={**admin, "content-type": "text/csv"})
    assert sent.status_code == 200, sent.text

    read = client.get("/api/statistics", params={"start": "2026-11-10", "end": "2026-11-10",
                                                 "dimensions": "date,country", "filter_country": "DE"},
                      headers=advertiser)
    assert read.status_code == 200, read.text
    assert read.json()["data"] == [{
        "date": "2026-11-10", "country": "DE", "impressions": 2000, "clicks": 17, "ctr": 0.85, "spend": "4.00",
        "ecpm": "2.00", "ecpc": "0.24", "conversions": 2, "cpa": "2.00", "spend_micros": 4_000_000}]
    wrong = client.get("/api/statistics", params={"dimensions": "planet"}, headers=advertiser)
    assert wrong.status_code == 422 and "dimensions" in wrong.json()["data"]["fields"]
    docs = client.get("/api/openapi.json").json()["paths"]
    assert {"/statistics/batches", "/statistics/batches/csv", "/statistics"} <= set(docs)


def test_a_csv_is_checked_a_chunk_at_a_time_with_the_same_answers(db: Session, setup: dict[str, Any],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Large CSV batches (up to MAX_CSV_ROWS lines) are read in chunks, each checked column by column and, where
    that finds anything, line by line: a bad line in a later chunk is still named by its line, cells a column
    check does not pass but the rules accept (spaces around numbers, a lower-case country) still store, and the
    stored figures are the lines' sums."""
    monkeypatch.setattr(csv_batches, "CHUNK", 3)
    adv, camp = setup["advertiser"].id, setup["campaign"]
    header = ",".join(csv_batches.CSV_COLUMNS) + ",event_install\n"
    line = f"2026-11-10T{{h:02d}}:00:00Z,{adv},{camp},0,Google AdX,iOS,{{country}},com.example.shop,tablet,{{imp}},5,1500000,0,{{ev}}\n"
    lines = [line.format(h=h, country="DE", imp=100 + h, ev=h % 2 or "") for h in range(8)]
    lines[4] = line.format(h=4, country=" de", imp=" 104 ", ev="1")  # second chunk: accepted line by line
    bad = lines.copy()
    bad[7] = line.format(h=7, country="DE", imp="1.5", ev="")  # line 9 (the header is line 1), third chunk
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="chunks-bad", text=header + "".join(bad))
    assert caught.value.fields == {"line 9.impressions": ingestion.NOT_A_COUNT}
    assert day_totals(db, setup)[0]["impressions"] == 0  # nothing of the good chunks was stored

    stored = csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="chunks", text=header + "".join(lines))
    assert stored.rows == 8
    total = day_totals(db, setup, events=["install"])[0]
    assert (total["impressions"], total["event_install"]) == (sum(100 + h for h in range(8)), 5)
    by_country = {r["country"]: r["impressions"] for r in day_totals(db, setup, dimensions=["country"])}
    assert by_country == {"DE": sum(100 + h for h in range(8))}

    monkeypatch.setattr(csv_batches, "MAX_CSV_ROWS", 7)
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="too-many", text=header + "".join(lines))
    assert caught.value.fields == {"body": "At most 7 rows per batch; split it into several batches."}
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="empty", text=header + "\n\n")
    assert caught.value.fields == {"body": "The batch has no rows."}


def test_a_csv_naming_another_advertisers_campaign_is_refused_by_line(db: Session, setup: dict[str, Any]) -> None:
    """The column check looks ids up a chunk at a time; a campaign of another advertiser still refuses the batch
    naming its line (the other tenant's campaign is never written to)."""
    rival_advertiser = other_tenant(db)[1]
    adv, camp = setup["advertiser"].id, setup["campaign"]
    header = ",".join(csv_batches.CSV_COLUMNS) + "\n"
    good = f"2026-11-10T08:00:00Z,{adv},{camp},0,Magnite,iOS,DE,com.example.shop,phone,10,1,20000,0\n"
    wrong = f"2026-11-10T09:00:00Z,{rival_advertiser.id},{camp},0,Magnite,iOS,DE,com.example.shop,phone,10,1,20000,0\n"
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="rival", text=header + good + wrong)
    assert caught.value.fields == {"line 3.campaign_id": ingestion.NO_CAMPAIGN}


def test_a_hashed_device_id_is_optional_and_checked(db: Session, setup: dict[str, Any]) -> None:
    """Rows may name the device they were delivered to, hashed (reach in forecasts counts them); a raw advertising
    id or a bad hash refuses the batch naming the row; figures are the same with or without device ids."""
    device = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08"  # a SHA-256, upper case
    with pytest.raises(Invalid) as caught:
        ingestion.ingest_batch(db, actor=setup["admin"], batch_id="devices", rows=[
            row(setup, device=device), row(setup, device="6D92078A-8246-4BA4-AE5B-76104861E7DC"), row(setup, device=7)])
    assert caught.value.fields == {"rows[1].device": ingestion.NOT_A_DEVICE_ID, "rows[2].device": ingestion.NOT_A_DEVICE_ID}
    ingestion.ingest_batch(db, actor=setup["admin"], batch_id="devices", rows=[row(setup, device=device), row(setup)])
    header = ",".join(csv_batches.CSV_COLUMNS) + ",device\n"
    line = ",".join(str(v) for v in row(setup).values()) + ",{}\n"
    csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="devices-csv", text=header + line.format("00ff00ff00ff00ff")
                         + line.format(""))
    assert day_totals(db, setup)[0]["impressions"] == 4000
    seen = get_store().delivery_history(HistoryQuery(start=DAY["start"], end=DAY["end"],
                                                     advertiser_ids=(setup["advertiser"].id,)))
    assert (seen.devices, seen.identified_impressions) == (2, 2000)


def test_a_csv_device_column_is_checked_by_line(db: Session, setup: dict[str, Any]) -> None:
    """The optional device column of a CSV: hashed ids (any case) store, a raw advertising id is named by line."""
    header = ",".join(csv_batches.CSV_COLUMNS) + ",device\n"
    line = ",".join(str(v) for v in row(setup).values()) + ",{}\n"
    with pytest.raises(Invalid) as caught:
        csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="devices-bad", text=header + line.format(
            "ABCDEF0123456789") + line.format("6D92078A-8246-4BA4-AE5B-76104861E7DC"))
    assert caught.value.fields == {"line 3.device": ingestion.NOT_A_DEVICE_ID}
    csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="devices-ok", text=header + line.format(
        "ABCDEF0123456789") + line.format("abcdef0123456789") + line.format(""))
    seen = get_store().delivery_history(HistoryQuery(start=DAY["start"], end=DAY["end"],
                                                     advertiser_ids=(setup["advertiser"].id,)))
    assert (seen.devices, seen.identified_impressions) == (1, 2000)
