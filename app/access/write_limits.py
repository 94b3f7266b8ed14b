"""How many changes one credential and one network may make to the API a minute (issue 26: "rate limits on every
write"): POST, PUT, PATCH and DELETE, counted per API key or sign-in token (or browser session) and per client
address, each in its own fixed one-minute window. Over either limit the call answers 429 with Retry-After and does
nothing. Reads are not counted. The signed-out calls that can be guessed at or that mail a code keep their own,
stricter limits beside these (app/access/throttle.py).

The counts live in the entity database (rate_counts: one row per bucket and minute, added to with one upsert), so
every server process and machine of a fleet counts the same calls. Written here rather than taken from the
`limits` package: its shared storages are Redis, Memcached, MongoDB and etcd, none of which this console runs;
its in-memory storage would give each process its own count (N processes, N times the limit).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

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


def _count(db: Session, bucket: str, window: datetime) -> int:
    """This call added to the bucket's count for the window; the count after it."""
    table = table_of(RateCount)
    insert = (postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert)(table)
    statement = insert.values(bucket=bucket, window_start=window, count=1).on_conflict_do_update(
        index_elements=["bucket", "window_start"], set_={"count": table.c.count + 1}).returning(table.c.count)
    return int(db.execute(statement).scalar_one())


def count_write(db: Session, *, credential: str | None, address: str) -> Refusal | None:
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
        count = _count(db, bucket, window)
        if count == 1:  # a bucket's first call of a minute: its earlier minutes are no longer read
            db.execute(delete(RateCount).where(RateCount.bucket == bucket,  # type: ignore[arg-type]
                                               RateCount.window_start < window))  # type: ignore[arg-type]
        if count > allowed and refusal is None:
            refusal = Refusal(message.format(n=allowed, s=wait), wait)
    return refusal
