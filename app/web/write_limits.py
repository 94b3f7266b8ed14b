"""The API's write-rate limits at its door (app/access/write_limits.py counts): a POST, PUT, PATCH or DELETE over
a limit answers 429 with Retry-After before any route runs, so it changes nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.access import write_limits
from app.access.sessions import SESSION_COOKIE
from app.kernel.config import get_settings
from app.kernel.db import on_threads, session_scope
from app.web.deps import bearer_token, client_address
from app.web.envelope import error_reply, fault_reply


def _credential(request: Request) -> str | None:
    """The call's bearer token or API key, else its browser session: what its writes count against."""
    return bearer_token(request) or request.cookies.get(SESSION_COOKIE)


PROCESS_COUNTS = write_limits.MemoryCounts()  # SQLite's one server process (app/access/write_limits.py)
# The shared counts are written on threads of their own, not in asyncio's default executor, which every page's
# service calls share (as the session checks, app/web/middleware.py): there a write queued behind slow page reads
# (bench/load_soak.py, two workers on PostgreSQL: a campaign rename's p50 1.25 s, most of it waiting for a thread).
# Two, so one slow answer does not hold every other write.
_SHARED_COUNTS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="write-limit")


def _count_shared(credential: str | None, address: str) -> write_limits.Refusal | None:
    with session_scope() as db:
        return write_limits.count_write(write_limits.DatabaseCounts(db), credential=credential, address=address)


class WriteLimits:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in write_limits.WRITE_METHODS:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        credential, address = _credential(request), client_address(request)
        try:
            if get_settings().is_sqlite:
                refusal = write_limits.count_write(PROCESS_COUNTS, credential=credential, address=address)
            else:  # a database write: off the loop
                refusal = await on_threads(_SHARED_COUNTS, _count_shared, credential, address)
        except Exception as error:
            # The database down or every connection in use: this middleware sits outside the API's error handlers,
            # so it answers the fault itself (503 and Retry-After) rather than ending the call with a server error.
            if (fault := fault_reply(error)) is None:
                raise
            await fault(scope, receive, send)
            return
        if refusal is None:
            await self.app(scope, receive, send)
            return
        refused = error_reply(429, refusal.message)
        refused.headers["Retry-After"] = str(refusal.retry_after_s)
        await refused(scope, receive, send)
