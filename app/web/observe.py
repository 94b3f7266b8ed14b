"""RequestObserver: the outermost ASGI layer. For every HTTP request and page session (websocket) it

- takes the request id from an incoming X-Request-ID when it is sane (a proxy's or a client's own), else makes one,
  and returns it in the X-Request-ID response header;
- starts the request's log fields (app/kernel/log_context.py), so every line logged while it runs names it;
- writes one access line (logger dsp.access) when the request ends or the page closes: route template, status,
  duration, user id;
- counts it in the Prometheus metrics (app/kernel/metrics.py), by route template rather than raw path (an id in a
  path would make a new series per record).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from starlette.routing import Mount

from app.kernel import log_context, metrics
from app.kernel.logging_setup import ACCESS_LOGGER
from app.web.middleware import ASGIApp, Message, Receive, Scope, Send, header

REQUEST_ID_HEADER = b"x-request-id"
# What an incoming request id may be: the characters of UUIDs, trace ids and proxies' $request_id, bounded; anything
# else (a header injected into logs, a megabyte of text) is replaced by our own.
SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
UNMATCHED = "unmatched"  # a path no route answers: one series, however many paths are tried

_access = logging.getLogger(ACCESS_LOGGER)


def request_id_of(scope: Scope) -> str:
    given = header(scope, REQUEST_ID_HEADER)
    return given if SANE_REQUEST_ID.match(given) else uuid.uuid4().hex


def route_template(scope: Scope, root_path: str) -> str:
    """The matched route's path template (`/api/campaigns/{campaign_id}`), read from the scope the routers filled
    in (Starlette and FastAPI record the matched route in scope["route"]; a Mount adds its path to root_path)."""
    route = scope.get("route")
    if route is None:
        return UNMATCHED
    if isinstance(route, Mount):  # a mounted app that is no router: static files, the pages' HTML shell
        return route.path + "/{path}"
    prefix = str(scope.get("root_path", ""))[len(root_path):]
    return prefix + str(getattr(route, "path_format", getattr(route, "path", UNMATCHED)))


class RequestObserver:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            return await self._http(scope, receive, send)
        if scope["type"] == "websocket":
            return await self._websocket(scope, receive, send)
        return await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        request_id = request_id_of(scope)
        fields = log_context.start(request_id=request_id)
        root_path = str(scope.get("root_path", ""))
        status = 500  # unless a response starts: an exception that escaped every handler
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [*message.get("headers", []), (REQUEST_ID_HEADER, request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            route = route_template(scope, root_path)
            method = str(scope.get("method", ""))
            metrics.HTTP_REQUESTS.labels(method, route, str(status)).inc()
            metrics.HTTP_SECONDS.labels(method, route).observe(seconds)
            fields.update(route=route, status=status, duration_ms=round(seconds * 1000, 1))
            _access.info("%s %s %s", method, scope.get("path", ""), status,
                         extra={"method": method, "path": scope.get("path", ""), "client": _client(scope)})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        fields = log_context.start(request_id=request_id_of(scope), route="websocket")
        started = time.perf_counter()
        opened = False
        events = 0
        close_code: Any = None

        async def counting_receive() -> Message:
            nonlocal events, close_code
            message = await receive()
            if message["type"] == "websocket.receive":
                events += 1
                metrics.PAGE_EVENTS.inc()
            elif message["type"] == "websocket.disconnect":
                close_code = message.get("code")
            return message

        async def counting_send(message: Message) -> None:
            nonlocal opened, close_code
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                metrics.WEBSOCKET_SESSIONS.inc()
            elif message["type"] == "websocket.close":
                close_code = message.get("code", 1000)
            await send(message)

        try:
            await self.app(scope, counting_receive, counting_send)
        finally:
            if opened:
                metrics.WEBSOCKET_SESSIONS.dec()
            seconds = time.perf_counter() - started
            fields.update(status=close_code, duration_ms=round(seconds * 1000, 1))
            _access.info("page session ended: %s, %d events", scope.get("path", ""), events,
                         extra={"path": scope.get("path", ""), "events": events, "client": _client(scope)})


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""
