"""Running one job, the same on every backend: look the task up, tell it which attempt this is, call it."""

from __future__ import annotations

import contextvars
import logging
from typing import Any

from app.jobs import tasks

_log = logging.getLogger("dsp.jobs")
_attempt: contextvars.ContextVar[tuple[int, int]] = contextvars.ContextVar("job_attempt", default=(1, 1))


def attempt() -> tuple[int, int]:
    """(this attempt, the task's last attempt) of the job running in this thread: a task records its final
    outcome itself when this attempt is the last (postback forwards write postback_deliveries)."""
    return _attempt.get()


def run(task: tasks.Task, kwargs: dict[str, Any], number: int) -> None:
    """Run `task` as attempt `number`; an exception propagates (the backend applies the retry policy)."""
    token = _attempt.set((number, task.retry.attempts))
    try:
        task.fn(**kwargs)
    finally:
        _attempt.reset(token)


def message_of(error: BaseException) -> str:
    return (str(error) if isinstance(error, tasks.Retry) else f"{type(error).__name__}: {error}")[:500]
