"""A local DSP that speaks the generic HTTP/JSON connector's protocol (app/dsps/connectors/http_json.py)
over real HTTP on 127.0.0.1, with a switch for each way a real one fails: too slow, 5xx, a non-JSON answer, JSON
without an id, a refused key, and a count of next answers that are busy (503) or failing (500). Like Stripe and
most APIs that take one, it answers a create repeated with the same Idempotency-Key with what the first made;
"lost_answer" makes a create and then answers too late, as a DSP whose answer a network lost."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.loopback_server import loopback_server

MODES = ("ok", "slow", "lost_answer", "error_500", "not_json", "no_id")
PREFIX = "/v1"  # the endpoint has a path of its own, as real ones do


class FakeDsp:
    def __init__(self, api_key: str) -> None:
        self.api_key = api_key
        self.mode = "ok"
        self.busy_answers = 0  # this many next requests are answered 503 (busy), whatever the mode
        self.failing_answers = 0  # this many next requests are answered 500 (which the connector does not retry)
        self.slow_s = 3.0  # beyond the connector timeout the tests set
        self.requests: list[dict[str, Any]] = []  # {method, path, authorization, body}
        self.objects: dict[str, dict[str, Any]] = {}  # remote id -> last body pushed
        self.created_by_key: dict[str, str] = {}  # Idempotency-Key -> the remote id its create made
        self.url = ""
        self._counter = 0
        self._lock = threading.Lock()
        self.release = threading.Event()  # set at shutdown: a slow answer stops waiting

    def next_id(self, collection: str) -> str:
        with self._lock:
            self._counter += 1
            return f"{collection[:3]}-{self._counter:04d}"

    def _answer(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        key = handler.headers.get("Idempotency-Key", "")
        self.requests.append({"method": method, "path": handler.path, "idempotency_key": key,
                              "authorization": handler.headers.get("Authorization", ""), "body": body})
        if handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            return self._send(handler, 401, b'{"error": "unauthorized"}')
        if self.busy_answers > 0:
            self.busy_answers -= 1
            return self._send(handler, 503, b'{"error": "busy, try again"}')
        if self.failing_answers > 0:
            self.failing_answers -= 1
            return self._send(handler, 500, b'{"error": "internal error"}')
        if self.mode == "slow":
            self.release.wait(self.slow_s)
            return self._send(handler, 200, b'{"id": "too-late", "status": "ok"}')
        if self.mode == "error_500":
            return self._send(handler, 503, b'{"error": "overloaded"}')
        path = handler.path.removeprefix(PREFIX)
        if path == "/health" and method == "GET":
            return self._send(handler, 200, b'{"status": "ok"}')
        parts = path.strip("/").split("/")
        if parts[0] not in ("campaigns", "creatives") or len(parts) > 2 or (method == "POST") != (len(parts) == 1):
            return self._send(handler, 404, b'{"error": "no such path"}')
        if self.mode == "not_json":
            return self._send(handler, 200, b"<html>Service temporarily unavailable</html>", "text/html")
        if self.mode == "no_id":
            return self._send(handler, 200, b'{"status": "accepted"}')
        if method == "POST" and key in self.created_by_key:  # the same create again: what it made the first time
            return self._send(handler, 201, json.dumps({"id": self.created_by_key[key]}).encode())
        remote = parts[1] if len(parts) == 2 else self.next_id(parts[0])
        self.objects[remote] = body or {}
        if method == "POST" and key:
            self.created_by_key[key] = remote
        if self.mode == "lost_answer":  # made, but the answer comes after the caller gave up
            self.mode = "ok"
            self.release.wait(self.slow_s)
        return self._send(handler, 201 if method == "POST" else 200, json.dumps({"id": remote}).encode())

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: bytes,
              content_type: str = "application/json") -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        with suppress(BrokenPipeError, ConnectionResetError):  # the client gave up waiting (the timeout tests)
            handler.wfile.write(payload)


@contextmanager
def running_fake_dsp(api_key: str = "fake-dsp-key-0123456789") -> Iterator[FakeDsp]:
    fake = FakeDsp(api_key)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            fake._answer(self, "GET")

        def do_POST(self) -> None:  # noqa: N802
            fake._answer(self, "POST")

        def do_PUT(self) -> None:  # noqa: N802
            fake._answer(self, "PUT")

        def log_message(self, *_args: Any) -> None:
            pass

    with loopback_server(Handler, on_stop=fake.release.set) as base_url:
        fake.url = base_url + PREFIX
        yield fake
