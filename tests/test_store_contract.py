"""The statistics store contract (app/warehouse/base.py), on every store this machine can run (DuckDB, chDB, and
a ClickHouse server over HTTP: chDB behind tests/clickhouse_http.py; the `store` fixture in tests/conftest.py):
every query shape the services use, checked against sums made here from the rows; idempotent ingestion; a rollup
read equal to the hourly read; and the same figures, float for float, from every store on the same random batch
(issue 23, "Statistics store by URL")."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.kernel.config import REPO_ROOT, Settings, get_settings
from app.warehouse import clickhouse_store, get_store
from app.warehouse.base import DeliveryHistory, FactRow, HistoryQuery, StatisticsStore, StatsQuery
from app.warehouse.clickhouse_store import ChDBExecutor, ClickHouseStore
from app.warehouse.duckdb_store import DuckDBStore
from app.warehouse.schema import DIMENSIONS, MEASURES

START, END = date(2026, 10, 30), date(2026, 11, 3)  # across a month's end: two ClickHouse partitions
EVENTS = ("install", "purchase")
TEXT = {"exchange": ("Google AdX", "Magnite", "PubMatic"), "os": ("Android", "iOS"), "country": ("US", "DE", "IN"),
        "app": ("com.example.game", "news.example.com", "it's \\ a\ttab"), "device_type": ("phone", "tablet", "ctv")}


def random_rows(seed: int, count: int = 600) -> list[FactRow]:
    """Hourly rows over START..END (UTC, a day each side for the time zones), some at the same hour and
    placement (they add up), with random spend down to the micro-dollar and some custom events."""
    rng = random.Random(seed)
    first = datetime(START.year, START.month, START.day) - timedelta(days=1)
    rows = []
    for _ in range(count):
        advertiser = rng.choice((7, 8, 9))
        campaign = advertiser * 10 + rng.randrange(3)
        impressions = rng.randrange(0, 5000)
        clicks = rng.randrange(0, impressions // 20 + 1)
        rows.append(FactRow(
            hour=first + timedelta(hours=rng.randrange(24 * 7)), advertiser_id=advertiser, campaign_id=campaign,
            creative_id=campaign * 10 + rng.randrange(2), impressions=impressions, clicks=clicks,
            spend_micros=rng.randrange(0, 9_999_999), conversions=rng.randrange(0, clicks + 1),
            events={name: rng.randrange(0, 4) for name in EVENTS if rng.random() < 0.4},
            **{key: rng.choice(values) for key, values in TEXT.items()}))  # type: ignore[arg-type]
    return rows


def expected(rows: list[FactRow], key: Callable[[FactRow], object], *, start: date = START, end: date = END,
             time_zone: str = "UTC", keep: Callable[[FactRow], bool] = lambda _: True) -> dict[object, tuple[int, ...]]:
    """Measures and events summed per key, over the rows whose day in time_zone is in start..end."""
    zone = ZoneInfo(time_zone)
    sums: dict[object, list[int]] = defaultdict(lambda: [0] * (len(MEASURES) + len(EVENTS)))
    for row in rows:
        if start <= row.hour.replace(tzinfo=UTC).astimezone(zone).date() <= end and keep(row):
            totals = sums[key(row)]
            for index, value in enumerate((row.impressions, row.clicks, row.spend_micros, row.conversions,
                                           *(row.events.get(name, 0) for name in EVENTS))):
                totals[index] += value
    return {k: tuple(v) for k, v in sums.items()}


def answered(rows: list[dict[str, object]], dimensions: tuple[str, ...]) -> dict[object, tuple[object, ...]]:
    return {tuple(r[d] for d in dimensions) if len(dimensions) != 1 else r[dimensions[0]]:
            tuple(r[m] for m in (*MEASURES, *(f"event_{n}" for n in EVENTS))) for r in rows}


def local(time_zone: str) -> Callable[[FactRow], datetime]:
    return lambda row: row.hour.replace(tzinfo=UTC).astimezone(ZoneInfo(time_zone)).replace(tzinfo=None)


def ask(store: StatisticsStore, **options: object) -> list[dict[str, object]]:
    return store.query(StatsQuery(**{"start": START, "end": END, "events": EVENTS, **options}))  # type: ignore[arg-type]


def test_every_query_shape_sums_the_rows(store) -> None:
    rows = random_rows(1)
    store.ingest("contract-1", rows, source="test")
    # Totals: one row, with no rows in scope too.
    assert answered(ask(store), ()) == {(): expected(rows, lambda _: ())[()]}
    assert answered(ask(store, advertiser_ids=()), ())[()] == (0,) * (len(MEASURES) + len(EVENTS))
    # By date and by hour in UTC and in other time zones (New York: UTC-4 then -5 on Nov 1; India: UTC+5:30).
    for time_zone in ("UTC", "America/New_York", "Asia/Kolkata"):
        by_day = ask(store, dimensions=("date",), time_zone=time_zone)
        assert answered(by_day, ("date",)) == expected(rows, lambda r, tz=time_zone: local(tz)(r).date(),
                                                       time_zone=time_zone)
        assert [r["date"] for r in by_day] == sorted(r["date"] for r in by_day)
        by_hour = ask(store, dimensions=("hour",), time_zone=time_zone)
        assert answered(by_hour, ("hour",)) == expected(rows, local(time_zone), time_zone=time_zone)
        assert all(isinstance(r["hour"], datetime) and r["hour"].tzinfo is None for r in by_hour)
    # By each placement dimension, and two at once.
    for key, dimension in DIMENSIONS.items():
        if dimension.kind != "time":
            assert answered(ask(store, dimensions=(key,)), (key,)) == expected(rows, lambda r, c=dimension.column: getattr(r, c))
    assert answered(ask(store, dimensions=("country", "os")), ("country", "os")) == expected(rows, lambda r: (r.country, r.os))
    # Scope and filters (ids and text, with quotes, backslashes and tabs), together.
    narrowed = ask(store, dimensions=("campaign_id",), advertiser_ids=(7, 8), filters={
        "app": ("it's \\ a\ttab", "news.example.com"), "exchange": ("Magnite",), "creative_id": (701, 801, 802)})
    assert answered(narrowed, ("campaign_id",)) == expected(rows, lambda r: r.campaign_id, keep=lambda r: (
        r.advertiser_id in (7, 8) and r.app in ("it's \\ a\ttab", "news.example.com") and r.exchange == "Magnite"
        and r.creative_id in (701, 801, 802)))
    assert ask(store, dimensions=("os",), filters={"country": ("FR",)}) == []


def test_order_and_limit_and_ratios(store) -> None:
    rows = random_rows(2)
    store.ingest("contract-2", rows, source="test")
    sums = expected(rows, lambda r: r.app)
    top = ask(store, dimensions=("app",), order_by="spend", descending=True, limit=2)
    assert [r["app"] for r in top] == sorted(sums, key=lambda app: -sums[app][2])[:2]
    by_clicks = ask(store, dimensions=("campaign_id", "os"), order_by="clicks")
    assert [r["clicks"] for r in by_clicks] == sorted(r["clicks"] for r in by_clicks)  # type: ignore[type-var]
    # Ties keep the dimensions' order: every read (and every top 10) is the same.
    assert by_clicks == ask(store, dimensions=("campaign_id", "os"), order_by="clicks")
    first = ask(store, dimensions=("campaign_id",))[0]
    assert first["ctr"] == pytest.approx(first["clicks"] * 100 / first["impressions"])  # type: ignore[operator]
    assert first["spend"] == pytest.approx(first["spend_micros"] / 1e6)  # type: ignore[operator]
    nothing = ask(store, dimensions=("date",), filters={"campaign_id": (0,)})
    assert nothing == []
    empty = ask(store, advertiser_ids=(1,))[0]
    assert (empty["ctr"], empty["ecpm"], empty["ecpc"], empty["cpa"]) == (None, None, None, None)  # never 0 or inf


def test_event_names_and_first_and_last_hour(store) -> None:
    assert store.event_names(None) == [] and store.first_and_last_hour(None) is None
    rows = random_rows(3)
    store.ingest("contract-3", rows, source="test")
    assert store.event_names(None) == sorted({n for r in rows for n, v in r.events.items() if v})
    assert store.event_names([]) == [] and store.event_names([1]) == []
    assert store.first_and_last_hour([]) is None and store.first_and_last_hour([1]) is None
    mine = [r.hour for r in rows if r.advertiser_id == 8]
    assert store.first_and_last_hour([8]) == (min(mine), max(mine))
    assert store.first_and_last_hour(None) == (min(r.hour for r in rows), max(r.hour for r in rows))


def test_a_batch_is_ingested_once(store) -> None:
    rows = random_rows(4)
    first = store.ingest("contract-4", rows, source="test")
    before = ask(store, dimensions=("date", "campaign_id"))
    again = store.ingest("contract-4", random_rows(5), source="another")  # the id decides, not the rows
    assert (first.duplicate, again.duplicate) == (False, True)
    assert (again.rows, again.spend_by_advertiser, again.spend_by_campaign) == (
        first.rows, first.spend_by_advertiser, first.spend_by_campaign) == (
        len(rows), {a: s[2] for (a,), s in expected(rows, lambda r: (r.advertiser_id,), start=date(2000, 1, 1),
                                                     end=date(2100, 1, 1)).items() if s[2]},
        {a: {c: s[2] for (adv, c), s in expected(rows, lambda r: (r.advertiser_id, r.campaign_id),
                                                 start=date(2000, 1, 1), end=date(2100, 1, 1)).items()
             if adv == a and s[2]} for a in first.spend_by_advertiser})
    assert ask(store, dimensions=("date", "campaign_id")) == before
    store.clear()
    assert store.first_and_last_hour(None) is None and ask(store)[0]["impressions"] == 0
    assert store.ingest("contract-4", rows, source="test").duplicate is False  # cleared: a new batch again


def test_the_batches_since_a_time_are_listed_with_their_receipts_split(store) -> None:
    """What the reconciler of lost charges reads (app/statistics/charge_reconciler.py): every batch received since a
    moment, oldest first, each with the spend its receipt charges (a batch without spend: an empty split)."""
    receipts = [store.ingest(f"since-{n}", random_rows(20 + n, count=50), source="test") for n in range(3)]
    quiet = [replace(row, spend_micros=0) for row in random_rows(30, count=5)]
    receipts.append(store.ingest("since-quiet", quiet, source="test"))
    listed = store.batches_since(None)
    assert [b.batch_id for b in listed] == ["since-0", "since-1", "since-2", "since-quiet"]
    assert [b.spend_by_campaign for b in listed] == [r.spend_by_campaign for r in receipts]
    assert listed[-1].spend_by_campaign == {}
    assert all(earlier.received_at <= later.received_at for earlier, later in zip(listed, listed[1:], strict=False))
    assert [b.batch_id for b in store.batches_since(listed[2].received_at)] == ["since-2", "since-quiet"]
    assert store.batches_since(listed[-1].received_at + timedelta(seconds=1)) == []
    store.ingest("since-1", random_rows(99), source="again")  # a duplicate is the first batch, not a new one
    assert [b.batch_id for b in store.batches_since(None)] == [b.batch_id for b in listed]


def test_the_batches_behind_a_query_are_the_ones_whose_rows_it_sums(store) -> None:
    """Explain a figure (issue 27): each batch's rows inside the query's days, scope and filters, summed; a batch
    with no row inside is not listed; every store answers the same."""
    first, second, outside = random_rows(21, 200), random_rows(22, 200), random_rows(23, 50)
    late = [FactRow(**{**{f: getattr(r, f) for f in r.__dataclass_fields__}, "hour": r.hour + timedelta(days=30)})
            for r in outside]  # after END: counted by no query here
    for batch_id, rows in (("explain-a", first), ("explain-b", second), ("explain-late", late)):
        store.ingest(batch_id, rows, source="test")
    keep = {"advertiser_id": (7, 8), "exchange": ("Magnite",)}
    query = StatsQuery(start=START, end=END, advertiser_ids=(7, 8), filters={"exchange": ("Magnite",)})
    shares = store.batches_of(query)
    assert [s.batch_id for s in shares] == ["explain-a", "explain-b"]
    for share, rows in zip(shares, (first, second), strict=True):
        inside = [r for r in rows if START <= r.hour.date() <= END and r.advertiser_id in keep["advertiser_id"]
                  and r.exchange in keep["exchange"]]
        assert share.rows == len(inside) and share.source == "test"
        assert (share.impressions, share.clicks, share.spend_micros, share.conversions) == tuple(
            sum(getattr(r, m) for r in inside) for m in MEASURES)
        assert isinstance(share.received_at, datetime) and share.received_at.tzinfo is None
    total = ask(store, filters={"exchange": ("Magnite",)}, advertiser_ids=(7, 8))[0]
    assert sum(s.spend_micros for s in shares) == total["spend_micros"]  # the batches add up to the figure
    assert store.batches_of(StatsQuery(start=START, end=END, advertiser_ids=())) == []


def test_the_batches_behind_days_are_the_ones_behind_their_hours(store) -> None:
    """UTC days of everyone, of an advertiser or of a campaign may be answered from a daily summary of each batch
    (ClickHouse's daily_by_batch); Etc/UTC, the same days, reads the hourly facts: both answer the same batches,
    rows and sums, with a batch's rows spread over several days and placements, and a raced duplicate ignored."""
    for seed in (31, 32, 33):
        store.ingest(f"days-{seed}", random_rows(seed, 300), source="test")
    store.ingest("days-31", random_rows(34, 40), source="again")  # a duplicate: adds nothing
    for scope, filters in ((None, {}), ((7,), {}), ((8, 9), {"campaign_id": (71, 81, 90)}),
                           (None, {"campaign_id": (90,)}), (None, {"exchange": ("Magnite",)})):
        for start, end in ((START, END), (START + timedelta(days=1), START + timedelta(days=2))):
            query = StatsQuery(start=start, end=end, advertiser_ids=scope, filters=filters)
            days = [(s.batch_id, s.source, s.rows, s.impressions, s.clicks, s.spend_micros, s.conversions)
                    for s in store.batches_of(query)]
            hours = [(s.batch_id, s.source, s.rows, s.impressions, s.clicks, s.spend_micros, s.conversions)
                     for s in store.batches_of(replace(query, time_zone="Etc/UTC"))]
            assert days == hours and days, (scope, filters, start)
            assert sum(d[5] for d in days) == ask(store, start=start, end=end, advertiser_ids=scope,
                                                  filters=filters)[0]["spend_micros"]


def test_the_rollups_answer_what_the_hourly_rows_do(store) -> None:
    """UTC days read the daily rollups; Etc/UTC (the same days) reads the hourly facts. Several batches land in
    the same days and placements."""
    for seed in (6, 7, 8):
        store.ingest(f"contract-roll-{seed}", random_rows(seed, 300), source="test")
    for dimensions, filters in ((("date",), {}), (("campaign_id",), {"campaign_id": (71, 81)}), (("creative_id",), {}),
                                (("exchange",), {"campaign_id": (90,)}), (("os", "date"), {}), (("country", "app"), {}),
                                ((), {"device_type": ("ctv",)})):
        for events in ((), EVENTS):
            for scope in (None, (7,), (8, 9)):
                query = {"dimensions": dimensions, "filters": filters, "events": events, "advertiser_ids": scope}
                assert ask(store, **query) == ask(store, **query, time_zone="Etc/UTC")


@pytest.fixture
def all_three(tmp_path, clickhouse_server):  # type: ignore[no-untyped-def]
    duck, chdb = DuckDBStore(tmp_path / "a.duckdb"), ClickHouseStore(ChDBExecutor(tmp_path / "a.chdb"))
    server = ClickHouseStore(clickhouse_store.HTTPExecutor(clickhouse_server), f"same_{uuid.uuid4().hex}")
    yield duck, chdb, server
    duck.close()
    chdb.close()
    server.close()


def test_the_stores_give_the_same_figures_on_the_same_rows(all_three) -> None:
    """DuckDB, chDB in process and a ClickHouse server over HTTP (the front): the same receipts, and every
    query shape the same figures of the same types."""
    duck, *clickhouses = all_three
    for number, seed in enumerate((10, 11)):
        rows = random_rows(seed)
        receipt = duck.ingest(f"same-{number}", rows, source="test")
        assert all(other.ingest(f"same-{number}", rows, source="test") == receipt for other in clickhouses)
    shapes: list[dict[str, object]] = [{}, {"dimensions": ("hour",)}, {"dimensions": ("advertiser_id", "date")},
                                       {"dimensions": ("campaign_id", "exchange", "os", "country")},
                                       {"dimensions": ("app",), "order_by": "ecpm", "descending": True, "limit": 2},
                                       {"dimensions": ("creative_id",), "order_by": "cpa"},
                                       {"dimensions": ("device_type",), "filters": {"country": ("DE", "IN")}},
                                       {"dimensions": ("date",), "metrics": ("ctr", "spend")}]
    for shape in shapes:
        for time_zone, events in (("UTC", EVENTS), ("UTC", ()), ("Europe/Berlin", EVENTS), ("Asia/Kolkata", ())):
            for scope in (None, (9,)):
                answer = ask(duck, **shape, time_zone=time_zone, advertiser_ids=scope, events=events)
                assert answer
                for other in clickhouses:
                    theirs = ask(other, **shape, time_zone=time_zone, advertiser_ids=scope, events=events)
                    assert theirs == answer
                    assert all(type(v) is type(w) for r, s in zip(answer, theirs, strict=True)
                               for v, w in zip(r.values(), s.values(), strict=True) if v is not None)
    for other in clickhouses:
        assert duck.event_names(None) == other.event_names(None)
        assert duck.first_and_last_hour([7]) == other.first_and_last_hour([7])


def test_a_top_n_with_ties_is_the_same_on_every_store(all_three) -> None:
    """The dashboard's top campaigns by spend: campaigns that spent the same, to the micro-dollar, over two days
    and two batches come in id order on every store, for everyone and within a scope, with custom events asked
    and without, so a top 3 is the same three campaigns in the same order wherever the figures live."""
    day = datetime(START.year, START.month, START.day, 10)
    spend = {70: (2_500_000, 2_500_000), 71: (1_000_000, 4_000_000), 72: (3, 0), 80: (5_000_000, 0),
             81: (3_500_000, 3_500_000), 90: (0, 5_000_000), 91: (4_999_999, 0)}  # 70, 71, 80, 90 tie at $5
    batches = [[FactRow(hour=day + timedelta(days=index, hours=campaign % 3), advertiser_id=campaign // 10,
                        campaign_id=campaign, creative_id=campaign * 10, exchange="Magnite", os="iOS", country="US",
                        app="com.example.game", device_type="phone", impressions=1000 + campaign, clicks=campaign,
                        spend_micros=amounts[index], conversions=campaign % 2, events={"install": campaign % 4})
                for campaign, amounts in spend.items()] for index in (0, 1)]
    for number, rows in enumerate(batches):
        for one in all_three:
            one.ingest(f"ties-{number}", rows, source="test")
    duck, *clickhouses = all_three
    for scope, events, top in ((None, EVENTS, [81, 70, 71, 80, 90]), (None, (), [81, 70, 71, 80, 90]),
                               ((8, 9), EVENTS, [81, 80, 90, 91]), ((7, 9), ("install",), [70, 71, 90, 91, 72])):
        answer = ask(duck, dimensions=("campaign_id",), order_by="spend", descending=True, limit=5,
                     advertiser_ids=scope, events=events)
        assert [r["campaign_id"] for r in answer] == top
        for other in clickhouses:
            assert ask(other, dimensions=("campaign_id",), order_by="spend", descending=True, limit=5,
                       advertiser_ids=scope, events=events) == answer
    cheapest = ask(duck, dimensions=("campaign_id",), order_by="spend", limit=3)  # ascending: 72's $0.000003 first
    assert [r["campaign_id"] for r in cheapest] == [72, 91, 70]
    assert all(ask(other, dimensions=("campaign_id",), order_by="spend", limit=3) == cheapest for other in clickhouses)


def fact_tuples(rows: list[FactRow], tag: int) -> list[tuple[object, ...]]:
    return [(r.hour.replace(tzinfo=UTC), r.advertiser_id, r.campaign_id, r.creative_id, r.exchange, r.os, r.country,
             r.app, r.device_type, tag, r.impressions, r.clicks, r.spend_micros, r.conversions, r.device) for r in rows]


def test_a_clickhouse_batch_cut_short_counts_nowhere(tmp_path) -> None:
    """ClickHouse writes a batch's facts, then its marker: facts whose marker never came (a process killed in
    between) count in no read, and the retried batch counts once."""
    chdb = ClickHouseStore(ChDBExecutor(tmp_path / "cut.chdb"))
    try:
        rows = random_rows(12, 50)
        chdb._executor.insert("dsp.delivery", clickhouse_store._FACT_COLUMNS, fact_tuples(rows, 12345))  # no marker
        assert chdb.first_and_last_hour(None) is None and ask(chdb)[0]["impressions"] == 0
        assert ask(chdb, dimensions=("campaign_id",)) == ask(chdb, dimensions=("campaign_id",), time_zone="Etc/UTC") == []
        receipt = chdb.ingest("cut", rows, source="test")
        assert receipt.duplicate is False
        assert ask(chdb)[0]["impressions"] == expected(rows, lambda _: ())[()][0]
        assert ask(chdb, dimensions=("campaign_id",)) == ask(chdb, dimensions=("campaign_id",), time_zone="Etc/UTC")
    finally:
        chdb.close()


def test_a_clickhouse_batch_marked_but_not_rolled_up_is_rolled_up_by_the_next_process(tmp_path) -> None:
    """A process that dies between a batch's marker and its rollup rows: its hours count, its days not yet; the
    next store opened on the data (or the next batch) writes them, once however often it is asked."""
    chdb = ClickHouseStore(ChDBExecutor(tmp_path / "roll.chdb"))
    try:
        rows = random_rows(13, 80)
        chdb._executor.insert("dsp.delivery", clickhouse_store._FACT_COLUMNS, fact_tuples(rows, 777))
        chdb._executor.command("INSERT INTO dsp.batches (batch_id, tag, source, received_at, rows) "
                               "VALUES ('died', 777, 'test', now64(6, 'UTC'), 80)")  # and no rollup rows
        hourly = ask(chdb, dimensions=("campaign_id",), time_zone="Etc/UTC")
        assert hourly and ask(chdb, dimensions=("campaign_id",)) != hourly
        again = ClickHouseStore(chdb._executor)  # the next process to open the store
        assert ask(again, dimensions=("campaign_id",)) == hourly
        again._roll_up("died", 777)  # two processes both rolling it up: ClickHouse drops the repeat
        more = random_rows(14, 10)
        again.ingest("next", more, source="test")
        assert ask(again, dimensions=("campaign_id",)) == ask(again, dimensions=("campaign_id",), time_zone="Etc/UTC")
        assert ask(again)[0]["impressions"] == expected(rows + more, lambda _: ())[()][0]  # each batch once
    finally:
        chdb.close()


def test_a_clickhouse_store_from_before_untagged_rollups_has_them_made_again(tmp_path) -> None:
    """A store whose rollups carried each batch's tag, fed by materialized views: opened by this release, its
    views are dropped and its rollups made again from the marked batches' facts (the layout table says so once)."""
    chdb = ClickHouseStore(ChDBExecutor(tmp_path / "old.chdb"))
    try:
        rows = random_rows(15, 120)
        chdb.ingest("old", rows, source="test")
        executor = chdb._executor
        executor.command("TRUNCATE TABLE dsp.layout")  # as a store made before the layout table
        executor.command("CREATE MATERIALIZED VIEW dsp.daily_by_os_view TO dsp.daily_by_os AS SELECT toStartOfDay(hour) "
                         "AS hour, advertiser_id, campaign_id, os, impressions, clicks, spend_micros, conversions "
                         "FROM dsp.delivery")
        executor.insert("dsp.daily_by_os", ("hour", "advertiser_id", "campaign_id", "os", "impressions", "clicks",
                                            "spend_micros", "conversions"),
                        [(datetime(2026, 11, 1, tzinfo=UTC), 7, 70, "iOS", 10**9, 0, 0, 0)])  # a row no fact backs
        by_os = {"dimensions": ("os",), "events": ()}  # no custom events: read from daily_by_os
        assert ask(chdb, **by_os) != ask(chdb, **by_os, time_zone="Etc/UTC")
        upgraded = ClickHouseStore(executor)
        assert ask(upgraded, **by_os) == ask(upgraded, **by_os, time_zone="Etc/UTC")
        assert executor.select("SELECT name FROM system.tables WHERE database = 'dsp' AND "
                               "engine = 'MaterializedView'") == (["name"], [])
        ClickHouseStore(executor)  # once: a store already made again is left as it is
        assert ask(upgraded)[0]["impressions"] == expected(rows, lambda _: ())[()][0]
    finally:
        chdb.close()


def device_rows(seed: int, count: int = 900) -> list[FactRow]:
    """random_rows, most of them one device's delivery (a device id out of a pool of 300), some without one."""
    rng = random.Random(seed)
    return [replace(row, device=f"{rng.randrange(300):016x}" if rng.random() < 0.8 else "")
            for row in random_rows(seed, count)]


def history(store: StatisticsStore, **options: object) -> DeliveryHistory:
    return store.delivery_history(HistoryQuery(**{"start": START, "end": END, "advertiser_ids": (7, 8), **options}))  # type: ignore[arg-type]


def close_enough(counted: int, exact: int) -> bool:
    """A distinct count from an approximate counter: within 8 % (DuckDB's approx_count_distinct was up to 5 % off
    on these hundred-odd devices, ClickHouse's uniqCombined exact; two stores' counts differ by both errors)."""
    return abs(counted - exact) <= max(2, exact * 0.08)


def test_the_history_sums_the_days_and_counts_devices_and_what_a_bid_won(store) -> None:
    """A forecast's history read: per UTC day the scope's impressions and spend (exact) and distinct devices
    (approximately), all of it and the rows whose eCPM was at most the bid, inside the filters and outside the
    excluded values; over all the days a device seen on several counts once."""
    rows = device_rows(20)
    store.ingest("devices", rows, source="test")
    bid = 2_000_000  # $2 CPM
    kept = [r for r in rows if r.advertiser_id in (7, 8) and START <= r.hour.date() <= END and r.country != "IN"
            and r.os == "iOS"]
    answer = history(store, filters={"os": ("iOS",)}, excluded={"country": ("IN",)}, bid_micros=bid)
    assert [d.day for d in answer.days] == sorted({r.hour.date() for r in kept})
    for day in answer.days:
        of_day = [r for r in kept if r.hour.date() == day.day]
        won = [r for r in of_day if r.spend_micros * 1000 <= bid * r.impressions]
        assert (day.impressions, day.spend_micros) == (sum(r.impressions for r in of_day), sum(r.spend_micros for r in of_day))
        assert (day.won_impressions, day.won_spend_micros) == (sum(r.impressions for r in won), sum(r.spend_micros for r in won))
        assert close_enough(day.devices, len({r.device for r in of_day if r.device}))
        assert close_enough(day.won_devices, len({r.device for r in won if r.device}))
    assert close_enough(answer.devices, len({r.device for r in kept if r.device}))
    assert answer.devices < sum(d.devices for d in answer.days)  # devices come back on other days
    assert answer.identified_impressions == sum(r.impressions for r in kept if r.device)
    assert answer.clicks == sum(r.clicks for r in kept)  # what prices a CPC bid's cleared price
    by_click = history(store, bid_micros=50_000, priced_by="clicks")  # $0.05 CPC: rows whose spend per click is below
    assert sum(d.won_impressions for d in by_click.days) == sum(
        r.impressions for r in rows if r.advertiser_id in (7, 8) and START <= r.hour.date() <= END
        and r.spend_micros <= 50_000 * r.clicks)
    nothing = history(store, advertiser_ids=(7,), filters={"country": ("FR",)})
    assert nothing.days == [] and nothing.devices == 0 and nothing.identified_impressions == 0 and nothing.clicks == 0


def test_the_stores_count_the_same_history_within_the_counters_error(all_three) -> None:
    rows = device_rows(21, 3000)
    for one in all_three:
        one.ingest("devices", rows, source="test")
    duck, *clickhouses = all_three
    for options in ({}, {"bid_micros": 3_000_000}, {"filters": {"device_type": ("phone", "ctv")}, "bid_micros": 1}):
        answer = history(duck, **options)
        for other in clickhouses:
            theirs = history(other, **options)
            assert [(d.day, d.impressions, d.spend_micros, d.won_impressions, d.won_spend_micros) for d in theirs.days] \
                == [(d.day, d.impressions, d.spend_micros, d.won_impressions, d.won_spend_micros) for d in answer.days]
            assert all(close_enough(a.devices, b.devices) and close_enough(a.won_devices, b.won_devices)
                       for a, b in zip(answer.days, theirs.days, strict=True))
            assert close_enough(theirs.devices, answer.devices) and theirs.identified_impressions == answer.identified_impressions
            assert theirs.clicks == answer.clicks


def test_a_store_from_before_device_ids_opens_with_the_column_added(tmp_path) -> None:
    """DuckDB and chDB stores made before fact rows carried a device id: opened by this release, the column is
    added (empty), the old figures read as before, and new rows carry their device ids."""
    old, new = random_rows(22, 60), device_rows(23, 60)
    duck = DuckDBStore(tmp_path / "old.duckdb")
    duck.ingest("old", old, source="test")
    before = ask(duck, dimensions=("campaign_id",))
    duck._connection.execute("ALTER TABLE delivery DROP COLUMN device")  # as the file was
    duck.close()
    chdb = ClickHouseStore(ChDBExecutor(tmp_path / "old.chdb"))
    chdb.ingest("old", old, source="test")
    chdb._executor.command("ALTER TABLE dsp.delivery DROP COLUMN device")
    for upgraded in (DuckDBStore(tmp_path / "old.duckdb"), ClickHouseStore(chdb._executor)):
        try:
            assert ask(upgraded, dimensions=("campaign_id",)) == before
            assert history(upgraded).identified_impressions == 0
            upgraded.ingest("new", new, source="test")
            assert history(upgraded).identified_impressions == sum(
                r.impressions for r in new if r.device and r.advertiser_id in (7, 8) and START <= r.hour.date() <= END)
        finally:
            upgraded.close()


def test_chdb_answers_plain_python_values(tmp_path) -> None:
    """chDB's answers come as Arrow, where a DateTime is a bare number of seconds: the executor still gives
    the wall time in the column's zone, and a count stays a count."""
    executor = ChDBExecutor(tmp_path / "values.chdb")
    try:
        names, rows = executor.select(
            "SELECT toDateTime('2026-03-29 03:30:00', 'Europe/Berlin') AS berlin, toDateTime({utc:DateTime('UTC')}, 'UTC') "
            "AS utc, toDate('2026-01-02') AS day, toUInt32(7) AS count, CAST(NULL AS Nullable(Float64)) AS ratio, "
            "toLowCardinality('iOS') AS os", {"utc": "2026-10-25 01:00:00"})
        assert names == ["berlin", "utc", "day", "count", "ratio", "os"]
        assert rows == [(datetime(2026, 3, 29, 3, 30), datetime(2026, 10, 25, 1), date(2026, 1, 2), 7, None, "iOS")]
        assert executor.select("SELECT 1 AS one WHERE 0") in (([], []), (["one"], []))
    finally:
        executor.close()


def test_the_clickhouse_store_reads_the_smallest_table_that_answers_it() -> None:
    def table(**options: object) -> str:
        query = StatsQuery(start=date(2026, 11, 1), end=date(2026, 11, 30), **options)  # type: ignore[arg-type]
        return clickhouse_store._report_sql(query, "dsp", "(SELECT 1)")[0]

    assert "FROM dsp.daily_by_campaign " in table(dimensions=("date",), advertiser_ids=(7,))
    assert "FROM dsp.daily_by_exchange " in table(dimensions=("exchange",), filters={"campaign_id": (1,)})
    assert "FROM dsp.delivery_daily " in table(dimensions=("campaign_id",), events=("purchase",))
    assert "FROM dsp.delivery " in table(dimensions=("hour",))
    assert "FROM dsp.delivery " in table(dimensions=("date",), time_zone="Europe/Berlin")
    # Everyone's totals and days: ClickHouse's own rollup, a row a day (the contract tests hold its figures).
    assert "FROM dsp.daily_totals " in table() and "FROM dsp.daily_totals " in table(dimensions=("date",))
    assert "FROM dsp.daily_totals " not in table(filters={"os": ("iOS",)}) + table(events=("purchase",))


def test_the_statistics_url_picks_the_store_and_refuses_an_unknown_one(tmp_path, monkeypatch) -> None:
    with pytest.raises(ValueError) as refused:
        Settings(statistics_url="postgresql://stats@db/stats")
    said = str(refused.value)
    assert "DSP_STATISTICS_URL" in said and all(s in said for s in ("duckdb:///", "chdb:///", "clickhouse://"))
    with pytest.raises(ValueError):
        Settings(statistics_url="statistics.duckdb")  # a path is not a URL
    settings = get_settings()
    default = get_store()
    assert isinstance(default, DuckDBStore) and default.path == settings.analytics_path  # empty: as before
    monkeypatch.setattr(settings, "statistics_url", "duckdb:///")
    assert get_store() is default
    monkeypatch.setattr(settings, "statistics_url", "duckdb:///elsewhere.duckdb")  # relative: in the data directory
    elsewhere = get_store()
    assert isinstance(elsewhere, DuckDBStore) and elsewhere.path == settings.data_dir / "elsewhere.duckdb"
    from app.warehouse import duckdb_store

    with duckdb_store._stores_lock:
        duckdb_store._stores.pop(elsewhere.path)
    elsewhere.close()
    monkeypatch.setattr(settings, "statistics_url", f"chdb:///{tmp_path / 'x.chdb'}")
    opened = get_store()
    assert isinstance(opened, ClickHouseStore) and get_store() is opened
    clickhouse_store.close_store(opened)


def test_a_second_process_on_a_held_chdb_directory_refuses_naming_the_setting(tmp_path) -> None:
    """chDB's engine, like a DuckDB file, is one process's: another process says so and names the setting that
    gives it a store of its own (or a shared server), instead of failing with chDB's bare error."""
    held = ClickHouseStore(ChDBExecutor(tmp_path / "held.chdb"))
    try:
        env = {**os.environ, "DSP_STATISTICS_URL": f"chdb:///{tmp_path / 'held.chdb'}", "DSP_DATA_DIR": str(tmp_path)}
        done = subprocess.run([sys.executable, "-m", "app", "simulate", "--if-empty"], cwd=REPO_ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    finally:
        held.close()
    assert done.returncode == 1, done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith(f"The statistics directory {tmp_path / 'held.chdb'} cannot be opened")
    assert "DSP_STATISTICS_URL=clickhouse://" in said


def test_a_clickhouse_server_url_reaches_clickhouse_connect(monkeypatch) -> None:
    """What the HTTP executor makes of a URL the test front is never started with (TLS, a default port, another
    database), shown by a stand-in client (the `clickhouse` store above runs the same executor on the front)."""
    import clickhouse_connect

    calls: list[tuple[str, object]] = []

    class Answer:
        column_names = ("rows", "tag")
        result_rows = [(3, 42)]

    class Client:
        def command(self, sql: str, parameters: dict[str, object]) -> None:
            calls.append(("command", sql))

        def query(self, sql: str, parameters: dict[str, object], query_tz: str) -> Answer:
            calls.append(("query", parameters))
            answer = Answer()
            if "system.tables" in sql or ".rolled" in sql:  # no views of an older layout, no batch to roll up
                answer.column_names, answer.result_rows = (), []
            if "FROM figures.delivery " in sql:  # the receipt's spend split
                answer.column_names, answer.result_rows = ("advertiser_id", "campaign_id", "spend"), [(7, 70, 5)]
            return answer

        def close(self) -> None:
            calls.append(("close", None))

    opened: dict[str, object] = {}
    monkeypatch.setattr(clickhouse_connect, "get_client", lambda **options: opened.update(options) or Client())
    store = clickhouse_store.open_server_store("clickhouse://stats:p%40ss@ch.internal:8124/figures?secure=true")
    try:
        assert opened.pop("settings")["use_uncompressed_cache"] == 1  # small reads from the server's cache
        settings = get_settings()  # as many connections kept as to the database, not clickhouse-connect's 8
        assert opened.pop("pool_mgr").connection_pool_kw["maxsize"] == settings.db_pool_size + settings.db_max_overflow
        assert opened == {"host": "ch.internal", "port": 8124, "username": "stats", "password": "p@ss", "secure": True,
                          "autogenerate_session_id": False}  # no HTTP session: threads may query at once
        assert store.database == "figures" and calls[0] == ("command", "CREATE DATABASE IF NOT EXISTS figures")
        assert all("figures." in sql for kind, sql in calls[1:] if kind == "command")
        receipt = store.ingest("seen", [], source="test")  # the stand-in knows every batch
        assert (receipt.duplicate, receipt.rows, receipt.spend_by_campaign) == (True, 3, {7: {70: 5}})
        assert calls[-2:] == [("query", {"batch": "seen"}), ("query", {"tag": 42})]
        executor = clickhouse_store.HTTPExecutor("clickhouse://ch.internal")
        assert opened["port"] == 8123 and opened["username"] == "default"
        Answer.column_names = ("hour",)
        Answer.result_rows = [(datetime(2026, 11, 1, 1, tzinfo=ZoneInfo("America/New_York")),)]  # type: ignore[list-item]
        assert executor.select("SELECT 1") == (["hour"], [(datetime(2026, 11, 1, 1),)])  # the wall time
    finally:
        clickhouse_store.close_store(store)
    assert calls[-1] == ("close", None)
    with pytest.raises(ValueError):
        ClickHouseStore(Client(), "figures; DROP TABLE x")  # type: ignore[arg-type]
