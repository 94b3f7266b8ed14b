"""The statistics store and its service: totals by dimension, time zones, custom events, idempotent batches,
and row scope (an agency never reads another agency's advertisers). Tests that take `store` run on each store
(DuckDB and chDB, tests/conftest.py); the rollup internals and table choice are the DuckDB store's."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from app.kernel.errors import Invalid, NotFound
from app.statistics import service as statistics
from app.warehouse import get_store
from app.warehouse.base import FactRow, StatsQuery
from app.warehouse.duckdb_store import DuckDBStore, _report_sql
from app.warehouse.rollups import EVENTS_ROLLUP, ROLLUPS
from tests.helpers import actor_of


def _row(advertiser: int, hour: datetime, **values: object) -> FactRow:
    base: dict[str, object] = {"hour": hour, "advertiser_id": advertiser, "campaign_id": 0, "creative_id": 0,
                               "exchange": "Google AdX", "os": "Android", "country": "US", "app": "com.example.game",
                               "device_type": "phone"}
    return FactRow(**{**base, **values})  # type: ignore[arg-type]


def test_a_batch_is_stored_once_and_summed_by_day_and_country(db, demo_ids, store) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    rows = [_row(advertiser, datetime(2026, 11, 10, h), impressions=1000, clicks=12, spend_micros=2_500_000,
                 conversions=1, events={"purchase": 2}) for h in range(24)]
    rows.append(_row(advertiser, datetime(2026, 11, 11, 3), country="DE", impressions=400, spend_micros=1_000_000))
    first = get_store().ingest("batch-1", rows, source="test")
    again = get_store().ingest("batch-1", rows, source="test")
    assert (first.duplicate, again.duplicate) == (False, True)
    assert first.spend_by_advertiser == again.spend_by_advertiser == {advertiser: 61_000_000}
    assert first.spend_by_campaign == again.spend_by_campaign == {advertiser: {0: 61_000_000}}  # no campaign: 0

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


def test_a_receipt_splits_the_spend_by_advertiser_and_campaign(db, demo_ids, store) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    hour = datetime(2026, 11, 10, 5)
    receipt = get_store().ingest("split", [_row(advertiser, hour, campaign_id=7, spend_micros=1_000_000),
                                           _row(advertiser, hour, campaign_id=7, country="DE", spend_micros=500_000),
                                           _row(advertiser, hour, campaign_id=8, spend_micros=250_000),
                                           _row(advertiser, hour, campaign_id=9, impressions=5),  # no spend: left out
                                           _row(999_999, hour, campaign_id=3, spend_micros=2)], source="test")
    assert receipt.spend_by_campaign == {advertiser: {7: 1_500_000, 8: 250_000}, 999_999: {3: 2}}
    assert receipt.spend_by_advertiser == {advertiser: 1_750_000, 999_999: 2}


def test_scope_keeps_other_tenants_out(db, demo_ids, store) -> None:
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
    """Queries that read each daily rollup (with and without events, scope and filters) in UTC."""
    store = get_store()
    period = {"start": date(2026, 11, 9), "end": date(2026, 11, 12), "time_zone": time_zone}
    return [store.query(StatsQuery(**period, dimensions=dimensions, events=events, filters=filters,  # type: ignore[arg-type]
                                   advertiser_ids=scope, order_by=order, descending=bool(order)))
            for dimensions, filters in ((("date",), {}), (("date", "country", "os"), {}), (("campaign_id",), {}),
                                        ((), {"campaign_id": (2,)}), (("exchange",), {"country": ("DE",)}),
                                        (("creative_id",), {"campaign_id": (1,)}), (("os",), {}), (("exchange",), {}),
                                        (("advertiser_id", "date"), {}))
            for events in ((), ("purchase",)) for scope in (None, (7,), (8,)) for order in (None, "spend")]


def _rollup_batches() -> list[list[FactRow]]:
    """Several batches in the same days and placements; a batch spans midnight."""
    return [[_row(advertiser, datetime(2026, 11, day, hour), campaign_id=campaign, creative_id=campaign * 10 + hour % 2,
                  country=country, os=("iOS", "Android")[hour % 2], exchange=("A", "B", "C")[day % 3],
                  impressions=100 + hour, clicks=hour % 3, spend_micros=1_000 * hour + batch + advertiser,
                  conversions=hour % 2, events={"purchase": batch} if hour % 4 == 0 else {})
             for advertiser in (7, 8) for day in (9, 10, 11, 12) for hour in range(0, 24, 5) for campaign in (1, 2)
             for country in ("US", "DE")]
            for batch in range(3)]


def test_the_daily_rollup_answers_exactly_what_the_hourly_rows_do(db, store) -> None:
    """Queries of UTC days read the daily rollup; the same query in Etc/UTC (the same days, another name) reads
    the hourly rows. Several batches land in the same days and placements, and a batch spans midnight."""
    batches = _rollup_batches()
    for number, rows in enumerate(batches):
        store.ingest(f"rollup-{number}", rows, source="test")
    daily = _every_breakdown("UTC")
    assert daily == _every_breakdown("Etc/UTC")
    assert sum(r["impressions"] for r in daily[0]) == sum(r.impressions for rows in batches for r in rows)
    assert store.event_names(None) == ["purchase"]


def test_the_duckdb_rollups_hold_one_row_per_key_and_day_and_are_built_for_an_old_file(db, tmp_path) -> None:
    batches = _rollup_batches()
    store = get_store()
    for number, rows in enumerate(batches):
        store.ingest(f"rollup-{number}", rows, source="test")
    cursor = store._cursor()  # type: ignore[attr-defined]
    for rollup, columns in ROLLUPS.items():  # three batches in the same days: still one row per key and day
        rows, keys = cursor.execute(f"SELECT count(*), count(DISTINCT (hour, {', '.join(columns)})) FROM {rollup}").fetchone()
        assert rows == keys, rollup

    # A store file from before the rollup existed gets it built when it is opened.
    old = DuckDBStore(tmp_path / "old.duckdb")
    old.ingest("old-1", batches[0], source="test")
    old._cursor().execute("; ".join(f"DROP TABLE {rollup}" for rollup in (*ROLLUPS, EVENTS_ROLLUP)))
    old.close()
    reopened = DuckDBStore(tmp_path / "old.duckdb")
    for dimensions in (("date", "country"), ("campaign_id",), ("creative_id",), ("os",), ("exchange",)):
        one_batch = StatsQuery(start=date(2026, 11, 9), end=date(2026, 11, 12), dimensions=dimensions)
        rebuilt = reopened.query(one_batch)
        assert rebuilt == reopened.query(StatsQuery(**{**one_batch.__dict__, "time_zone": "Etc/UTC"}))
        assert sum(r["impressions"] for r in rebuilt) == sum(r.impressions for r in batches[0])
    reopened.close()


def test_each_query_reads_the_smallest_table_that_answers_it() -> None:
    def table(**options: object) -> str:
        return _report_sql(StatsQuery(start=date(2026, 11, 1), end=date(2026, 11, 30), **options))[0]  # type: ignore[arg-type]

    assert "FROM daily_by_campaign " in table(dimensions=("date",), advertiser_ids=(7,))  # a dashboard's chart
    assert "FROM daily_by_campaign " in table(dimensions=("campaign_id",), filters={"campaign_id": (1, 2)})
    assert "FROM daily_by_creative " in table(dimensions=("creative_id",), advertiser_ids=(7,))
    assert "FROM daily_by_exchange " in table(dimensions=("exchange",), filters={"campaign_id": (1,)})
    assert "FROM daily_by_os " in table(dimensions=("os",))
    assert "FROM delivery_daily " in table(dimensions=("exchange", "os"))
    assert "FROM delivery_daily " in table(dimensions=("campaign_id",), events=("purchase",))
    assert "FROM delivery " in table(dimensions=("hour",))
    assert "FROM delivery " in table(dimensions=("date",), time_zone="Europe/Berlin")

