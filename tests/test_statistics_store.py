"""The statistics store and its service: totals by dimension, time zones, custom events, idempotent batches,
and row scope (an agency never reads another agency's advertisers)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from app.analytics import get_store
from app.analytics.duckdb_store import DuckDBStore
from app.analytics.store import FactRow, StatsQuery
from app.errors import Invalid, NotFound
from app.services import statistics
from tests.helpers import actor_of


def _row(advertiser: int, hour: datetime, **values: object) -> FactRow:
    base: dict[str, object] = {"hour": hour, "advertiser_id": advertiser, "campaign_id": 0, "creative_id": 0,
                               "exchange": "Google AdX", "os": "Android", "country": "US", "app": "com.example.game",
                               "device_type": "phone"}
    return FactRow(**{**base, **values})  # type: ignore[arg-type]


def test_a_batch_is_stored_once_and_summed_by_day_and_country(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    rows = [_row(advertiser, datetime(2026, 11, 10, h), impressions=1000, clicks=12, spend_micros=2_500_000,
                 conversions=1, events={"purchase": 2}) for h in range(24)]
    rows.append(_row(advertiser, datetime(2026, 11, 11, 3), country="DE", impressions=400, spend_micros=1_000_000))
    first = get_store().ingest("batch-1", rows, source="test")
    again = get_store().ingest("batch-1", rows, source="test")
    assert (first.duplicate, again.duplicate) == (False, True)
    assert first.spend_by_advertiser == again.spend_by_advertiser == {advertiser: 61_000_000}

    actor = actor_of(db, "advertiser@demo.example")
    by_day = statistics.statistics(db, actor=actor, start=date(2026, 11, 10), end=date(2026, 11, 11),
                                   dimensions=["date"], events=["purchase"])
    assert [(r["date"], r["impressions"], r["clicks"], r["spend_micros"], r["event_purchase"]) for r in by_day] == [
        (date(2026, 11, 10), 24_000, 288, 60_000_000, 48), (date(2026, 11, 11), 400, 0, 1_000_000, 0)]
    assert by_day[0]["ctr"] == pytest.approx(1.2) and by_day[0]["ecpm"] == pytest.approx(2.5)
    assert by_day[1]["ecpc"] is None  # no clicks: no cost per click, never a division by zero

    # In New York (UTC-5 in November), 03:00 UTC on the 11th is still the 10th, and the 10th starts at 05:00 UTC.
    local = statistics.statistics(db, actor=actor, start=date(2026, 11, 10), end=date(2026, 11, 10),
                                  dimensions=["country"], time_zone="America/New_York")
    assert {r["country"]: r["impressions"] for r in local} == {"US": 19_000, "DE": 400}


def test_scope_keeps_other_tenants_out(db, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    get_store().ingest("b", [_row(advertiser, datetime(2026, 11, 1, 1), impressions=10),
                             _row(999_999, datetime(2026, 11, 1, 1), impressions=7)], source="test")
    day = {"start": date(2026, 11, 1), "end": date(2026, 11, 1)}
    admin = actor_of(db, "admin@demo.example")
    assert statistics.statistics(db, actor=admin, **day)[0]["impressions"] == 17
    agency = actor_of(db, "agency@demo.example")
    assert statistics.statistics(db, actor=agency, **day)[0]["impressions"] == 10
    own = actor_of(db, "advertiser@demo.example")
    # A filter narrows the scope; it can never widen it.
    widened = statistics.statistics(db, actor=own, filters={"advertiser_id": [999_999]}, **day)
    assert widened[0]["impressions"] == 0
    with pytest.raises(NotFound):
        statistics.statistics(db, actor=agency, advertiser_id=demo_ids["admin@demo.example"], **day)


def test_bad_parameters_name_their_field(db) -> None:
    actor = actor_of(db, "admin@demo.example")
    with pytest.raises(Invalid) as caught:
        statistics.build_query(db, actor=actor, start=date(2026, 1, 1), end=date(2026, 1, 2),
                               dimensions=["planet"], metrics=["likes"], time_zone="Mars/Base",
                               filters={"date": ["2026-01-01"], "campaign_id": ["x"]})
    assert set(caught.value.fields) == {"dimensions", "metrics", "time_zone", "filters.date", "filters.campaign_id"}
    with pytest.raises(Invalid) as caught:
        statistics.parse_period("2026-02-01", "2026-01-01")
    assert caught.value.fields == {"end": "The end date must not be before the start date."}
    with pytest.raises(Invalid) as caught:
        statistics.parse_period("yesterday", None)
    assert "start" in caught.value.fields


def _every_breakdown(time_zone: str) -> list[list[dict[str, object]]]:
    store = get_store()
    return [store.query(StatsQuery(start=date(2026, 11, 9), end=date(2026, 11, 12), dimensions=dimensions,
                                   events=("purchase",), time_zone=time_zone, filters=filters))
            for dimensions, filters in ((("date",), {}), (("date", "country", "os"), {}), (("campaign_id",), {}),
                                        ((), {"campaign_id": (2,)}), (("exchange",), {"country": ("DE",)}))]


def test_the_daily_rollup_answers_exactly_what_the_hourly_rows_do(db, tmp_path) -> None:
    """Queries of UTC days read the daily rollup; the same query in Etc/UTC (the same days, another name) reads
    the hourly rows. Several batches land in the same days and placements, and a batch spans midnight."""
    batches = [[_row(7, datetime(2026, 11, day, hour), campaign_id=campaign, country=country, impressions=100 + hour,
                     clicks=hour % 3, spend_micros=1_000 * hour + batch, conversions=hour % 2,
                     events={"purchase": batch} if hour % 4 == 0 else {})
                for day in (9, 10, 11, 12) for hour in range(0, 24, 5) for campaign in (1, 2) for country in ("US", "DE")]
               for batch in range(3)]
    store = get_store()
    for number, rows in enumerate(batches):
        store.ingest(f"rollup-{number}", rows, source="test")
    daily = _every_breakdown("UTC")
    assert daily == _every_breakdown("Etc/UTC")
    assert sum(r["impressions"] for r in daily[0]) == sum(r.impressions for rows in batches for r in rows)
    assert store.event_names(None) == ["purchase"]

    # A store file from before the rollup existed gets it built when it is opened.
    old = DuckDBStore(tmp_path / "old.duckdb")
    old.ingest("old-1", batches[0], source="test")
    old._cursor().execute("DROP TABLE delivery_daily; DROP TABLE delivery_events_daily")
    old.close()
    reopened = DuckDBStore(tmp_path / "old.duckdb")
    one_batch = StatsQuery(start=date(2026, 11, 9), end=date(2026, 11, 12), dimensions=("date", "country"))
    rebuilt = reopened.query(one_batch)
    assert rebuilt == reopened.query(StatsQuery(**{**one_batch.__dict__, "time_zone": "Etc/UTC"}))
    assert sum(r["impressions"] for r in rebuilt) == sum(r.impressions for r in batches[0])
    reopened.close()


def test_queries_sharing_one_scan_answer_as_each_alone(db) -> None:
    """A dashboard's queries go to the store together; those over the same rows share one GROUPING SETS scan.
    Each must still get exactly its own rows, order and limit, whatever its neighbours ask."""
    rows = [_row(advertiser, datetime(2026, 11, day, hour), campaign_id=advertiser * 10 + hour % 3, exchange=exchange,
                 impressions=day * 100 + hour, clicks=hour % 4, spend_micros=(day + hour) * 1_000 + advertiser,
                 events={"install": hour % 2})
            for advertiser in (7, 8) for day in range(1, 15) for hour in (1, 9, 17) for exchange in ("A", "B", "C")]
    get_store().ingest("shared-scan", rows, source="test")
    week = {"start": date(2026, 11, 8), "end": date(2026, 11, 14)}
    queries = [StatsQuery(**week), StatsQuery(start=date(2026, 11, 1), end=date(2026, 11, 7)),
               StatsQuery(**week, dimensions=("date",)),
               StatsQuery(**week, dimensions=("campaign_id",), order_by="spend", descending=True, limit=2),
               StatsQuery(**week, dimensions=("exchange",), metrics=("clicks", "ctr"), order_by="ctr"),
               StatsQuery(**week, dimensions=("date", "exchange"), limit=5),
               StatsQuery(**week, dimensions=("campaign_id",), advertiser_ids=(8,)),
               StatsQuery(**week, dimensions=("exchange",), advertiser_ids=(8,), events=("install",)),
               StatsQuery(**week, dimensions=("date",), events=("install",), advertiser_ids=(8,))]
    store = get_store()
    together = store.query_many(queries)
    assert together == [store.query(query) for query in queries]
    assert [len(answer) for answer in together] == [1, 1, 7, 2, 3, 5, 3, 3, 7]
    assert together[3][0]["spend_micros"] >= together[3][1]["spend_micros"]
