"""What app/web/observe.py adds to one HTTP request: request id, access log line (JSON, as in production) and
metrics, measured around a trivial ASGI app in process (no socket, no server), so the difference is the layer's
own cost. Prints microseconds per request, with and without it, median of several runs."""

from __future__ import annotations

import asyncio
import io
import logging
import statistics
import time
from typing import Any

from app.kernel.config import get_settings
from app.kernel.logging_setup import configure_logging
from app.web.observe import RequestObserver

REQUESTS = 5_000
RUNS = 5


async def plain(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


async def one_run(app: Any) -> float:
    scope = {"type": "http", "method": "GET", "path": "/api/health", "root_path": "", "headers": [],
             "client": ("127.0.0.1", 1)}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(_message: Any) -> None:
        return None

    started = time.perf_counter()
    for _ in range(REQUESTS):
        await app(dict(scope), receive, send)
    return (time.perf_counter() - started) / REQUESTS * 1e6


def main() -> None:
    settings = get_settings().model_copy(update={"log_format": "json"})
    configure_logging(settings)
    for handler in logging.getLogger().handlers:  # the lines are formatted and written, to memory
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(io.StringIO())
    for name, app in (("without RequestObserver", plain), ("with RequestObserver", RequestObserver(plain))):
        times = [asyncio.run(one_run(app)) for _ in range(RUNS)]
        print(f"{name}: {statistics.median(times):.1f} µs a request (runs {min(times):.1f}-{max(times):.1f})")


if __name__ == "__main__":
    main()
