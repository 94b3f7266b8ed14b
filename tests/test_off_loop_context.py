"""A page's service call run off the event loop keeps the page's log context: fields a CPU-heavy call (a password
hash on its own threads) binds reach the request's log line, as they do from an ordinary call."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlmodel import Session

from app.kernel import log_context
from app.kernel.db import cpu_heavy, run_off_loop


def _binds(db: Session, *, value: str) -> str:
    log_context.bind(user_id=value)
    return value


@cpu_heavy
def _heavy_binds(db: Session, *, value: str) -> str:
    log_context.bind(user_id=value)
    return value


def test_fields_bound_off_the_loop_reach_the_callers_log_line(demo_ids: dict[str, int]) -> None:
    async def page_event() -> dict[str, Any]:
        line = log_context.start(route="/profile")
        await run_off_loop(_binds, value="7")
        await run_off_loop(_heavy_binds, value="8")
        return line

    # A loop of its own on a thread of its own: the browser tests' sync Playwright keeps a loop running here.
    with ThreadPoolExecutor(max_workers=1) as thread:
        line = thread.submit(asyncio.run, page_event()).result()
    assert line == {"route": "/profile", "user_id": "8"}
