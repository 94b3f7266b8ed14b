"""How many changes one credential and one network may make to the API a minute (issue 26: "rate limits on every
write"): POST, PUT, PATCH and DELETE, counted per API key or sign-in token (or browser session) and per client
address, each in its own fixed one-minute window. Over either limit the call answers 429 with Retry-After and does
nothing. Reads are not counted. The signed-out calls that can be guessed at or that mail a code keep their own,
stricter limits beside these (app/access/throttle.py).

On PostgreSQL the counts live in the entity database (rate_counts: one row per bucket and minute, added to with
one upsert), so every server process and machine of a fleet counts the same calls. On SQLite, the embedded rung of
one server process (app/cli.py refuses more), they are kept in that process's memory: a count written to SQLite
would wait on the database's one write lock behind any long write, and hold up the call it counts. Written here
rather than taken from the `limits` package: its shared storages are Redis, Memcached, MongoDB and etcd, none of
which this console runs, and the fixed window is the same few lines for both stores.
"""

from __future__ import annotations

import hashlib
import math
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from app.access.models import RateCount
from app.kernel.config import get_settings
from app.kernel.model_base import table_of, utcnow

WINDOW_S = 60
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEY_REFUSAL = "Too many changes with this API key or sign-in: at most {n} a minute. Try again in {s} seconds."
ADDRESS_REFUSAL = "Too many changes from your network: at most {n} a minute. Try again in {s} seconds."


@dataclass(frozen=True)
class Refusal:
    message: str
    retry_after_s: int


def credential_bucket(credential: str) -> str:
    """A credential's bucket: a digest, so the table never holds a usable token."""
    return "key:" + hashlib.sha256(credential.encode()).hexdigest()[:40]


def _window_start(now: datetime) -> datetime:
    return now.replace(second=0, microsecond=0)


class Counts(Protocol):
    def add(self, bucket: str, window: datetime) -> int:
        """One more call in the bucket's window; the window's count after it."""


class MemoryCounts:
    """This process's counts, the current minute's only (SQLite: one server process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, tuple[datetime, int]] = {}

    def add(self, bucket: str, window: datetime) -> int:
        with self._lock:
            seen, count = self._counts.get(bucket, (window, 0))
            count = count + 1 if seen == window else 1
            self._counts[bucket] = (window, count)
            if len(self._counts) > 100_000:  # buckets of clients gone quiet: a minute later they read 0 anyway
                self._counts = {key: value for key, value in self._counts.items() if value[0] == window}
            return count

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


class DatabaseCounts:
    """The counts every process shares (PostgreSQL), in the unit of work `db`."""

    def __init__(self, db: Session) -> None:
        self.db = db

    def add(self, bucket: str, window: datetime) -> int:
        table = table_of(RateCount)
        insert = (postgresql.insert if self.db.get_bind().dialect.name == "postgresql" else sqlite.insert)(table)
        statement = insert.values(bucket=bucket, window_start=window, count=1).on_conflict_do_update(
            index_elements=["bucket", "window_start"], set_={"count": table.c.count + 1}).returning(table.c.count)
        count = int(self.db.execute(statement).scalar_one())
        if count == 1:  # a bucket's first call of a minute: its earlier minutes are no longer read
            self.db.execute(delete(RateCount).where(RateCount.bucket == bucket,  # type: ignore[arg-type]
                                                    RateCount.window_start < window))  # type: ignore[arg-type]
        return count


def count_write(counts: Counts, *, credential: str | None, address: str) -> Refusal | None:
    """Count one write call; a Refusal (and the caller does nothing) when it is over a limit. Limits of 0 are off."""
    settings = get_settings()
    now = utcnow()
    window = _window_start(now)
    wait = max(1, math.ceil((window + timedelta(seconds=WINDOW_S) - now).total_seconds()))
    checks = []
    if credential and settings.api_writes_per_minute_per_key:
        checks.append((credential_bucket(credential), settings.api_writes_per_minute_per_key, KEY_REFUSAL))
    if address and settings.api_writes_per_minute_per_address:
        checks.append(("address:" + address[:64], settings.api_writes_per_minute_per_address, ADDRESS_REFUSAL))
    refusal = None
    for bucket, allowed, message in checks:
        count = counts.add(bucket, window)
        if count > allowed and refusal is None:
            refusal = Refusal(message.format(n=allowed, s=wait), wait)
    return refusal
