"""A local stand-in for the part of Stripe's API the console uses (Checkout Sessions), served over real HTTP on
127.0.0.1 so the stripe library runs its real request code against it; and Stripe's webhook signature scheme."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl

from tests.loopback_server import loopback_server


def _nest(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's form encoding (line_items[0][price_data][unit_amount]=500) back into nested dicts; list indexes
    stay dict keys ("0"), which is all the tests read."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = key.replace("]", "").split("[")
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return root


class FakeStripe:
    def __init__(self, secret_key: str) -> None:
        self.secret_key = secret_key
        self.sessions: dict[str, dict[str, Any]] = {}
        self.requests: list[dict[str, Any]] = []  # the decoded form of each create call
        self.base_url = ""

    def session_object(self, form: dict[str, Any]) -> dict[str, Any]:
        session_id = f"cs_test_{len(self.sessions) + 1:04d}{int(time.time() * 1000) % 100000}"
        price = form["line_items"]["0"]["price_data"]
        return {"id": session_id, "object": "checkout.session", "mode": form["mode"], "status": "open",
                "payment_status": "unpaid", "currency": price["currency"],
                "amount_total": int(price["unit_amount"]) * int(form["line_items"]["0"]["quantity"]),
                "metadata": form.get("metadata", {}), "client_reference_id": form.get("client_reference_id"),
                "success_url": form["success_url"], "cancel_url": form["cancel_url"],
                "url": f"https://checkout.stripe.test/c/pay/{session_id}"}

    def paid_event(self, session_id: str, *, event_id: str = "evt_1") -> bytes:
        session = {**self.sessions[session_id], "status": "complete", "payment_status": "paid"}
        event = {"id": event_id, "object": "event", "type": "checkout.session.completed",
                 "data": {"object": session}}
        return json.dumps(event).encode()


def sign(payload: bytes, secret: str, *, timestamp: int | None = None) -> str:
    """Stripe's Stripe-Signature header: t=<unix time>,v1=<HMAC-SHA256 of "t.payload" keyed by the secret>."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def _handler(fake: FakeStripe) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:  # quiet test output
            return

        def _reply(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", "req_fake")
            self.end_headers()
            self.wfile.write(data)

        def _authorized(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {fake.secret_key}":
                return True
            self._reply(401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}})
            return False

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            if not self._authorized():
                return
            if self.path != "/v1/checkout/sessions":
                self._reply(404, {"error": {"type": "invalid_request_error", "message": "Unrecognized request URL"}})
                return
            length = int(self.headers.get("Content-Length", 0))
            form = _nest(parse_qsl(self.rfile.read(length).decode(), keep_blank_values=True))
            fake.requests.append(form)
            session = fake.session_object(form)
            fake.sessions[session["id"]] = session
            self._reply(200, session)

        def do_GET(self) -> None:  # noqa: N802
            if not self._authorized():
                return
            session_id = self.path.removeprefix("/v1/checkout/sessions/")
            if session_id not in fake.sessions:
                self._reply(404, {"error": {"type": "invalid_request_error",
                                            "message": f"No such checkout.session: '{session_id}'"}})
                return
            self._reply(200, fake.sessions[session_id])

    return Handler


@contextmanager
def fake_stripe(secret_key: str) -> Iterator[FakeStripe]:
    fake = FakeStripe(secret_key)
    with loopback_server(_handler(fake)) as base_url:
        fake.base_url = base_url
        yield fake
