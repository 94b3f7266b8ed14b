"""One writer at a time on SQLite, queued in this process rather than in SQLite's busy handler.

SQLite lets one connection write at a time. Left to itself, every other writer polls for the lock in its busy handler
(sleeps of 1 to 100 ms, no order), holding a pooled connection while it waits: under a burst of writes (50 at once for
one advertiser) some writers lost every poll for the whole 30 s busy timeout and answered "database is busy", and the
requests queued behind them for a pooled connection timed out too (issue 38). The embedded rung is one server process
(app/cli.py refuses a second on the same data directory), so a lock in this process sees every writer that matters:
a connection takes the gate just before its transaction's first write (Python's sqlite3 opens the transaction there)
and gives it back when the transaction ends. Writers then wait their turn on a condition variable, woken as the one
before them commits, and SQLite's own lock is never contended by this process. Reads never touch the gate (outside a
write, sqlite3 reads in autocommit, from the last committed state).

A writer finding `DSP_DB_WRITE_QUEUE` others already waiting is refused at once, and one that waits longer than
`DSP_DB_WRITE_WAIT_S` is refused then, both with 503 and Retry-After: never left hanging. Hand-written: no library gates SQLAlchemy's SQLite writes; it is these events and a condition variable."""

from __future__ import annotations

import threading
import weakref
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from app.kernel.faults import DATABASE_BUSY, Unavailable

# The statements Python's sqlite3 (before 3.12's autocommit attribute) opens a transaction for: it sends BEGIN just
# before the first of them, and not before SELECT, PRAGMA or DDL.
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _is_write(statement: str) -> bool:
    head = statement.lstrip().upper()
    if head.startswith("WITH"):
        return any(f" {word} " in f" {head} " for word in _WRITES)
    return head.startswith(_WRITES)


class WriteGate:
    """Who may write now: one SQLite connection at a time, the others waiting in arrival order of their wake-ups."""

    def __init__(self, *, queue: int, wait_s: float) -> None:
        self.queue, self.wait_s = queue, wait_s
        self._turn = threading.Condition()
        self._waiting = 0
        self._holder: Any = None  # the sqlite3 connection writing now

    def enter(self, connection: Any) -> None:
        # The gate belongs to a connection, not a thread: an API call's unit of work moves between threads (FastAPI
        # runs its dependencies and the route each on a pool thread; app/web/deps.py commits on threads of its own).
        with self._turn:
            if self._holder is connection:
                return
            if self._holder is not None and self._waiting >= self.queue:
                raise Unavailable(DATABASE_BUSY)
            self._waiting += 1
            try:
                if not self._turn.wait_for(lambda: self._holder is None, timeout=self.wait_s):
                    raise Unavailable(DATABASE_BUSY)
            finally:
                self._waiting -= 1
            self._holder = connection

    def leave(self, connection: Any) -> None:
        with self._turn:
            if self._holder is connection:
                self._holder = None
                self._turn.notify()


def _raw(connection: Connection) -> Any:
    return connection.connection.dbapi_connection


_GATES: weakref.WeakKeyDictionary[Engine, WriteGate] = weakref.WeakKeyDictionary()


def gate_of(engine: Engine) -> WriteGate:
    return _GATES[engine]


def install(engine: Engine, *, queue: int, wait_s: float) -> WriteGate:
    """Gate `engine`'s writes (a SQLite engine of this process)."""
    gate = _GATES[engine] = WriteGate(queue=queue, wait_s=wait_s)

    @event.listens_for(engine, "before_cursor_execute")
    def _before_write(connection: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
        raw = _raw(connection)
        # An autocommit connection (isolation_level None) holds no transaction for a gate to span.
        if raw.isolation_level is not None and not raw.in_transaction and _is_write(statement):
            gate.enter(raw)

    # The transaction ends: committed or rolled back through SQLAlchemy, or by the pool as the connection comes back.
    @event.listens_for(engine, "commit")
    def _committing(connection: Connection) -> None:
        _finish(connection)

    @event.listens_for(engine, "rollback")
    def _rolling_back(connection: Connection) -> None:
        _finish(connection)

    def _finish(connection: Connection) -> None:
        # These events come just before the driver's commit or rollback: the next writer may wait a moment on
        # SQLite's lock for it (its busy handler's first sleeps are 1 to 5 ms), never on a stale snapshot (it
        # has read nothing in a transaction).
        gate.leave(_raw(connection))

    @event.listens_for(engine.pool, "checkin")
    def _returned(dbapi_connection: Any, _record: Any) -> None:
        gate.leave(dbapi_connection)

    @event.listens_for(engine.pool, "reset")
    def _reset(dbapi_connection: Any, _record: Any, _state: Any) -> None:
        gate.leave(dbapi_connection)

    return gate
