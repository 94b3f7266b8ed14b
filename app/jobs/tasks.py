"""The app's background tasks, declared once: a name, the function, and its retry policy.

A domain module declares its tasks with `@task(...)` at import; the worker imports TASK_MODULES so every
process knows every task by name (a job row names its task; its arguments are JSON).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

# Modules whose import declares tasks. By name, so app/jobs imports no domain at module level.
TASK_MODULES = ("app.reports.jobs", "app.statistics.postback_ingest", "app.messaging.mail", "app.dsps.pushes",
                "app.alerts.jobs", "app.statistics.charge_reconciler")


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` runs at most (1 = never retried); before run n+1, wait backoff[n-1] seconds (the last value
    repeats). Only an exception raised by the task counts: a run cut short by a dead worker is run again."""

    attempts: int = 1
    backoff: tuple[float, ...] = (1.0,)

    def wait_before(self, next_attempt: int) -> float:
        """Seconds to wait before attempt `next_attempt` (2, 3, ...)."""
        return self.backoff[min(next_attempt - 2, len(self.backoff) - 1)] if self.backoff else 0.0


@dataclass(frozen=True)
class Task:
    name: str
    fn: Callable[..., Any]
    retry: RetryPolicy = field(default_factory=RetryPolicy)


TASKS: dict[str, Task] = {}
# A task's name is part of its PostgreSQL queue's name, which goes into a NOTIFY channel name of at most 63 bytes:
# "procrastinate_queue_v1#" (23) + DSP_JOBS_QUEUE (20 at most) + ":" + the name (app/jobs/pg_queue.py).
NAME_MAX_LENGTH = 19
F = TypeVar("F", bound=Callable[..., Any])


def task(name: str, *, attempts: int = 1, backoff: tuple[float, ...] = (1.0,)) -> Callable[[F], F]:
    """Declare `fn` as the task `name` (its keyword arguments must be JSON values)."""
    if not 0 < len(name) <= NAME_MAX_LENGTH or ":" in name:
        raise ValueError(f"Task name {name!r}: 1 to {NAME_MAX_LENGTH} characters, no colon.")

    def declare(fn: F) -> F:
        if name in TASKS and TASKS[name].fn is not fn:
            raise ValueError(f"Task {name} is declared twice.")
        TASKS[name] = Task(name, fn, RetryPolicy(attempts, backoff))
        return fn
    return declare


def load_all() -> dict[str, Task]:
    for module in TASK_MODULES:
        importlib.import_module(module)
    return TASKS


def get(name: str) -> Task:
    if name not in TASKS:
        load_all()
    return TASKS[name]


class Retry(Exception):  # noqa: N818 - it is an instruction, not an error
    """Raised by a task that wants the queue's retry policy applied with its own message (e.g. "HTTP 503");
    any other exception is retried the same way. After the last attempt the job is failed with the message."""
