"""The ClickHouse store on a server over HTTP (HTTPExecutor, through the test front tests/clickhouse_http.py), as
several server processes use it: stores that share one database count a batch sent to both once, threads of one
process read and write through one client at once, and wrong credentials or bad SQL come back as ClickHouse's
errors, named."""

from __future__ import annotations

import logging
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit, urlunsplit

import pytest
from clickhouse_connect.driver.exceptions import DatabaseError

from app.warehouse.base import StatsQuery
from app.warehouse.clickhouse_store import ClickHouseStore, HTTPExecutor
from app.warehouse.schema import MEASURES
from tests.test_store_contract import END, START, expected, random_rows


def _totals(store: ClickHouseStore) -> tuple[object, ...]:
    row = store.query(StatsQuery(start=START, end=END))[0]
    return tuple(row[m] for m in MEASURES if m in row)


def test_two_stores_on_one_database_count_a_batch_sent_to_both_once(clickhouse_server: str) -> None:
    """Two processes' stores (one each, here in threads) receive the same batch at once: one takes it, the other
    answers the same receipt as a duplicate, and both read it counted once."""
    database = f"shared_{uuid.uuid4().hex}"
    first, second = (ClickHouseStore(HTTPExecutor(clickhouse_server), database) for _ in range(2))
    try:
        rows = random_rows(21, 200)
        with ThreadPoolExecutor(2) as pool:
            receipts = list(pool.map(lambda store: store.ingest("same-batch", rows, source="test"), (first, second)))
        assert sorted(r.duplicate for r in receipts) == [False, True]
        assert receipts[0].spend_by_campaign == receipts[1].spend_by_campaign
        once = expected(rows, lambda _: ())[()][:len(MEASURES)]
        assert _totals(first) == _totals(second) == once
    finally:
        first.close()
        second.close()


def test_threads_write_and_read_through_one_client_at_once(clickhouse_server: str) -> None:
    store = ClickHouseStore(HTTPExecutor(clickhouse_server), f"threads_{uuid.uuid4().hex}")
    try:
        batches = {f"batch-{seed}": random_rows(seed, 100) for seed in range(30, 36)}
        with ThreadPoolExecutor(6) as pool:  # the store writes one batch at a time; reads run beside them
            writes = [pool.submit(store.ingest, batch, rows, source="test") for batch, rows in batches.items()]
            reads = [pool.submit(store.query, StatsQuery(start=START, end=END, dimensions=("date",)))
                     for _ in range(6)]
            receipts = [write.result() for write in writes]
            assert all(isinstance(read.result(), list) for read in reads)
        assert not any(r.duplicate for r in receipts)
        everything = [row for rows in batches.values() for row in rows]
        assert _totals(store) == expected(everything, lambda _: ())[()][:len(MEASURES)]
    finally:
        store.close()


def test_a_peak_of_reads_reuses_its_connections_instead_of_opening_one_a_read(
        clickhouse_server: str, caplog: pytest.LogCaptureFixture) -> None:
    """Sixteen threads read at once (pages and API calls of one busy server process; the front answers one at a
    time, so they all wait on their connections together): each connection goes back to the pool to be used again,
    none is dropped with urllib3's "Connection pool is full" (clickhouse-connect's default pool keeps 8)."""
    store = ClickHouseStore(HTTPExecutor(clickhouse_server, connections=16), f"peak_{uuid.uuid4().hex}")
    together = threading.Barrier(16)

    def read(_: int) -> list[dict[str, object]]:
        together.wait(timeout=60)
        return store.query(StatsQuery(start=START, end=END, dimensions=("date",)))

    try:
        store.ingest("peak", random_rows(37, 50), source="test")
        with caplog.at_level(logging.WARNING, logger="urllib3.connectionpool"), ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(read, range(16)))
        assert all(answer == answers[0] for answer in answers)
        assert not [r.message for r in caplog.records if "pool is full" in r.message]
    finally:
        store.close()


def test_wrong_credentials_and_bad_sql_come_back_as_clickhouse_errors(clickhouse_server: str) -> None:
    parts = urlsplit(clickhouse_server)
    wrong = urlunsplit(parts._replace(netloc=f"dsp:wrong@{parts.hostname}:{parts.port}"))
    with pytest.raises(DatabaseError) as refused:
        HTTPExecutor(wrong)
    assert refused.value.code == 516 and "Authentication failed" in str(refused.value)
    executor = HTTPExecutor(clickhouse_server)
    try:
        with pytest.raises(DatabaseError) as unknown:
            executor.select("SELECT count() FROM no_such_database.delivery")
        assert unknown.value.code == 81 and "no_such_database" in str(unknown.value)
    finally:
        executor.close()
