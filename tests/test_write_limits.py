"""API write-rate limits (issue 26): per API key or sign-in and per client address, a fixed minute each; over a
limit a write answers 429 with Retry-After and changes nothing; reads are not counted; another key keeps its own
count; and the counts are in the database, so every server process counts the same calls."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import select

from app.access import write_limits
from app.access.models import RateCount
from app.kernel.config import get_settings
from app.kernel.model_base import utcnow
from tests.helpers import bearer_headers
from tests.render import run_async


@pytest.fixture
def limits(monkeypatch):  # type: ignore[no-untyped-def]
    def set_limits(per_key: int, per_address: int) -> None:
        monkeypatch.setattr(get_settings(), "api_writes_per_minute_per_key", per_key)
        monkeypatch.setattr(get_settings(), "api_writes_per_minute_per_address", per_address)
    return set_limits


def rename(client, headers, name):  # type: ignore[no-untyped-def]
    return client.patch("/api/auth/profile", json={"companyName": name}, headers=headers)


def test_a_key_over_its_limit_is_refused_with_retry_after_and_changes_nothing(client, limits) -> None:
    advertiser = bearer_headers(client, "advertiser@demo.example")
    agency = bearer_headers(client, "agency@demo.example")
    limits(3, 100)
    assert [rename(client, advertiser, f"Name {n}").status_code for n in range(3)] == [200, 200, 200]
    refused = rename(client, advertiser, "One too many")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.json()["success"] is False and "at most 3 a minute" in refused.json()["message"]
    profile = client.get("/api/auth/profile", headers=advertiser)  # reads are not counted
    assert profile.status_code == 200 and profile.json()["data"]["company_name"] == "Name 2"
    assert rename(client, agency, "Agency's own").status_code == 200  # another key: its own count


def test_one_network_over_its_limit_is_refused_whatever_key_it_uses(client, limits) -> None:
    keys = [bearer_headers(client, email) for email in ("advertiser@demo.example", "agency@demo.example")]
    limits(100, 5)  # the two sign-ins were writes from this network too
    answers = [rename(client, keys[n % 2], f"Name {n}").status_code for n in range(4)]
    assert answers == [200, 200, 200, 429]
    assert "from your network" in rename(client, keys[1], "again").json()["message"]


def _stores(db):  # type: ignore[no-untyped-def]
    """Both stores of the counts: the database's (PostgreSQL's processes share it) and one process's memory
    (SQLite's single server process); each is tried whatever this pass's database is."""
    return [write_limits.DatabaseCounts(db), write_limits.MemoryCounts()]


def test_a_new_minute_starts_a_new_count_and_the_old_ones_are_dropped(db, limits, monkeypatch) -> None:
    limits(2, 0)
    for counts in _stores(db):
        assert write_limits.count_write(counts, credential="dsp_key", address="10.0.0.1") is None
        assert write_limits.count_write(counts, credential="dsp_key", address="10.0.0.1") is None
        assert write_limits.count_write(counts, credential="dsp_key", address="10.0.0.1") is not None
    later = utcnow() + timedelta(seconds=61)
    monkeypatch.setattr(write_limits, "utcnow", lambda: later)
    for counts in _stores(db)[:1]:  # the database's rows outlive the call; a new MemoryCounts would prove nothing
        assert write_limits.count_write(counts, credential="dsp_key", address="10.0.0.1") is None
    bucket = write_limits.credential_bucket("dsp_key")
    rows = db.exec(select(RateCount).where(RateCount.bucket == bucket)).all()
    assert [(r.count, r.window_start == later.replace(second=0, microsecond=0)) for r in rows] == [(1, True)]
    assert "dsp_key" not in bucket  # the table never holds a usable credential


def test_one_process_counts_start_again_each_minute(limits, monkeypatch) -> None:
    limits(1, 0)
    counts = write_limits.MemoryCounts()
    assert write_limits.count_write(counts, credential="k", address="") is None
    assert write_limits.count_write(counts, credential="k", address="") is not None
    later = utcnow() + timedelta(seconds=61)
    monkeypatch.setattr(write_limits, "utcnow", lambda: later)
    assert write_limits.count_write(counts, credential="k", address="") is None


def test_limits_of_zero_count_nothing(db, limits) -> None:
    limits(0, 0)
    counts = write_limits.MemoryCounts()
    for _ in range(5):
        assert write_limits.count_write(write_limits.DatabaseCounts(db), credential="dsp_key", address="10.0.0.1") is None
        assert write_limits.count_write(counts, credential="dsp_key", address="10.0.0.1") is None
    assert db.exec(select(RateCount)).all() == [] and counts._counts == {}


@pytest.mark.skipif(get_settings().is_sqlite, reason="SQLite's one process counts in memory, without a thread")
def test_a_write_is_counted_while_every_thread_the_pages_share_is_busy(db, limits) -> None:  # type: ignore[no-untyped-def]
    """The shared count is a database write on a thread: one that waited for asyncio's default executor queued
    behind every page's slow reads there. Here each of those threads is held until the write has gone through."""
    from app.web.write_limits import WriteLimits

    limits(100, 100)
    reached: list[str] = []

    async def route(scope: dict[str, Any], _receive: Any, _send: Any) -> None:
        reached.append(scope["method"])

    async def nothing() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def ignored(_message: dict[str, Any]) -> None:
        return None

    async def write_while_busy() -> None:
        loop, release = asyncio.get_running_loop(), threading.Event()
        busy = [loop.run_in_executor(None, release.wait) for _ in range(64)]  # more than the executor's threads
        try:
            scope = {"type": "http", "method": "PUT", "path": "/api/campaigns/1", "query_string": b"",
                     "headers": [(b"authorization", b"Bearer a-token")], "client": ("10.0.0.9", 5000)}
            await asyncio.wait_for(WriteLimits(route)(scope, nothing, ignored), 60)  # a bound on a hang, not a timing
        finally:
            release.set()
            await asyncio.gather(*busy)

    run_async(write_while_busy())  # on a thread of its own: a browser test's loop may run on this one
    assert reached == ["PUT"]
