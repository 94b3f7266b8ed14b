"""An in-process signal that something which decides whether a session may act has changed.

The websocket guard (app/web/middleware.py) re-checks a page's session on its events. Asking the database on
every event costs about 1-2 ms a click (a worker thread and one query: bench/session_check.py), so an operator may
let the guard keep its last answer while this process's `epoch()` is unchanged, for at most
`DSP_SESSION_RECHECK_MS` (default 0: every event asks). The epoch moves
when a unit of work that wrote a session row (sign-in, sign-out, refresh, impersonation) or a user row (disable,
delete, role or agency change, password change) commits in this process: every open page then asks the database
again at its next event, so a sign-out here cuts the other tabs at once. Changes made by another process (a
second server on the same PostgreSQL, a command-line tool) reach a page within the recheck bound.

Hooked on SQLAlchemy's session events rather than on each service that revokes: a new way of ending a session
or disabling a user cannot forget to signal.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.access.models import AuthSession, User

_WATCHED = (AuthSession, User)
_FLAG = "dsp_session_changes"
_counter = itertools.count(1)
_lock = threading.Lock()
_epoch = 0


def epoch() -> int:
    """A number that changes whenever a session or user change has committed in this process."""
    return _epoch


def bump() -> None:
    global _epoch
    with _lock:  # commits happen on worker threads
        _epoch = next(_counter)


@event.listens_for(Session, "after_flush")
def _note_watched_writes(session: Session, _flush_context: Any) -> None:
    if any(isinstance(row, _WATCHED) for row in (*session.new, *session.dirty, *session.deleted)):
        session.info[_FLAG] = True


@event.listens_for(Session, "after_commit")
def _signal_after_commit(session: Session) -> None:
    if session.info.pop(_FLAG, False):
        bump()


@event.listens_for(Session, "after_rollback")
def _forget_after_rollback(session: Session) -> None:
    session.info.pop(_FLAG, None)
