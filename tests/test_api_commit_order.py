"""A call's writes are committed before its answer leaves: a client's next request (a browser going on to
the page its new session opens) must never outrun them. FastAPI ends a dependency with yield after the
response unless told otherwise; this watches the order on the wire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.main import create_app
from app.web import deps
from tests.helpers import bearer_headers
from tests.render import run_async


def test_the_unit_of_work_commits_before_the_response_starts(client, monkeypatch) -> None:
    headers = bearer_headers(client, "advertiser@demo.example")
    events: list[str] = []
    original = deps._ending

    async def recorded(step: Callable[[], None]) -> None:
        await original(step)
        events.append(step.__name__)  # commit, rollback, close

    monkeypatch.setattr(deps, "_ending", recorded)
    app = create_app()
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": "/api/campaigns", "raw_path": b"/api/campaigns", "query_string": b"", "root_path": "",
        "headers": [(b"host", b"testserver"), *[(k.lower().encode(), v.encode()) for k, v in headers.items()]],
        "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            events.append(f"response {message['status']}")

    run_async(app(scope, receive, send))
    assert events == ["commit", "close", "response 200"]
