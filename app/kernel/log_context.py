"""What every log line of one request or page session carries: its request id, route, user id.

One dict per request, held in a ContextVar and set by the request middleware (app/web/observe.py). A dict rather
than a ContextVar per field: code deeper down (the API's actor dependency, a page's session check) runs in tasks
and threads whose context is a copy, so a value it set in a ContextVar of its own would never reach the
middleware's access-log line; it adds to the same dict instead.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

_fields: ContextVar[dict[str, Any] | None] = ContextVar("dsp_log_fields", default=None)


def start(**fields: Any) -> dict[str, Any]:
    """A new request's fields (the returned dict is the one later bind() calls add to)."""
    current: dict[str, Any] = dict(fields)
    _fields.set(current)
    return current


def bind(**fields: Any) -> None:
    """Add fields to the current request's lines (nothing outside a request: a job, a command)."""
    current = _fields.get()
    if current is not None:
        current.update(fields)


def current() -> dict[str, Any]:
    return dict(_fields.get() or {})
