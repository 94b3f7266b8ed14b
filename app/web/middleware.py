"""ASGI guards around the whole server.

- HtmlShellHeaders: ReactPy sends its HTML shell as `cache-control: public` with
  `access-control-allow-origin: *`; authenticated pages must not be cached or shared. It also adds the
  security headers of app/web/csp.py to every response: the Content-Security-Policy (unless the route set its
  own), Permissions-Policy, Cross-Origin-Opener-Policy, and Strict-Transport-Security over https only.
- WebsocketGuard: ReactPy does not check a websocket's Origin, so a foreign page could open an
  authenticated socket; refuse those. It also re-checks the session on a page's events (SessionCheck): cookies
  are read only at the handshake, and a logout, disable or expiry must end the page: at once when it happens in
  this process or at its time, within DSP_SESSION_RECHECK_MS when another process makes it. A page is drawn for
  the session's grant at its handshake (who acts, through whom, in which role) and keeps that actor in its state,
  so a session that still lives under another grant ends the page too: a move that ended the impersonation it
  acts in, a role change. And it keeps ReactPy's first render from overtaking the handshake's accept
  (`accept_first`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from http.cookies import SimpleCookie
from typing import Any

from app.kernel.db import on_threads
from app.web import csp

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGE_POLICY = csp.PAGE_POLICY.encode()
PERMISSIONS_POLICY = csp.PERMISSIONS_POLICY.encode()
CROSS_ORIGIN_OPENER_POLICY = csp.CROSS_ORIGIN_OPENER_POLICY.encode()
STRICT_TRANSPORT_SECURITY = csp.STRICT_TRANSPORT_SECURITY.encode()

SESSION_ENDED_CLOSE_CODE = 4401
FOREIGN_ORIGIN_CLOSE_CODE = 4403
# Logged at each refusal: a foreign site's page, or (far more often) a proxy that does not pass the browser's Host on.
# The browser learns nothing from a refused handshake (uvicorn answers a close before the accept with a bare 403).
ORIGIN_REFUSED = ("refused a {what} from a page at {origin}: the server was asked for host {host!r}. Browsers send "
                  "the page's own address as Origin, so the two differ for a foreign site's page, or behind a proxy "
                  "that does not pass the browser's Host header on (nginx: proxy_set_header Host $http_host; "
                  "deploy/nginx/dsp-console.conf).")
_log = logging.getLogger("dsp.web")
# The per-event session checks run on threads of their own rather than in asyncio's default executor, which the
# services' to_thread calls share: a click's check never queues behind a slow export or report read there. Two, so
# one slow answer (a busy database) does not hold every other page's clicks.
_SESSION_CHECKS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="session-check")


def header(scope: Mapping[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


def cookie(scope: Scope, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header(scope, b"cookie"))
    except Exception:  # a malformed Cookie header is treated as no cookie
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


def same_origin(scope: Mapping[str, Any], what: str) -> bool:
    """Whether the request's Origin (the page's address) names the host the request was sent to; a refusal is
    logged, naming both and the proxy setting that usually causes it. `what` names the request in that note."""
    origin = header(scope, b"origin")
    if not origin:
        return True  # non-browser clients send none; browsers always send it on websockets and POSTs
    host = header(scope, b"host")
    if origin.split("://", 1)[-1].rstrip("/") == host:
        return True
    _log.warning(ORIGIN_REFUSED.format(what=what, origin=origin, host=host))
    return False


class HtmlShellHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        # uvicorn sets the scheme from X-Forwarded-Proto when the proxy is trusted (--forwarded-allow-ips).
        https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"access-control-allow-origin"]
                if any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers):
                    headers = [(k, v) for k, v in headers if k.lower() not in (b"cache-control", b"etag", b"last-modified")]
                    headers.append((b"cache-control", b"no-store"))
                headers += [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
                            (b"x-frame-options", b"SAMEORIGIN"), (b"permissions-policy", PERMISSIONS_POLICY),
                            (b"cross-origin-opener-policy", CROSS_ORIGIN_OPENER_POLICY)]
                if not any(k.lower() == b"content-security-policy" for k, _v in headers):
                    headers.append((b"content-security-policy", PAGE_POLICY))  # routes with their own keep it
                if https:
                    headers.append((b"strict-transport-security", STRICT_TRANSPORT_SECURITY))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def unless_gone(send: Send, message: Message) -> None:
    """Send `message`, dropping an update for a tab that has just closed. uvicorn raises ClientDisconnected (an
    OSError) when a render finishes after the browser went away; ReactPy then logs "Failed to send update" with
    a traceback, for something that happens whenever a tab closes mid-update (seen under bench/load_soak.py).
    The disconnect itself arrives on receive and ends the page's layout, so nothing is lost by dropping it."""
    try:
        await send(message)
    except OSError:
        if message["type"] != "websocket.send":
            raise


def accept_first(send: Send) -> Send:
    """`send` that holds messages back until the websocket is accepted. ReactPy starts rendering before
    it accepts the socket, so a first render that is quick (a spinner) would go out before the accept,
    which ASGI servers refuse."""
    accepted = False
    held: list[Message] = []

    async def ordered_send(message: Message) -> None:
        nonlocal accepted
        if message["type"] == "websocket.send" and not accepted:
            held.append(message)
            return
        await unless_gone(send, message)
        if message["type"] == "websocket.accept":
            accepted = True
            for waiting in held:
                await unless_gone(send, waiting)
            held.clear()

    return ordered_send


@dataclass(frozen=True)
class PageGrant:
    """What the session check answers for a session that may still act: its grant (any value that differs when the
    acting user, its chain or its role does) and when the session expires."""

    grant: Hashable
    expires: datetime


_NOT_PINNED = object()


class SessionCheck:
    """One page's session check, kept between events. The database is asked at the first event, then again only
    when this process has committed a session or user change since (`changes`: app/access/session_changes.py
    signals sign-outs, disables and role changes at once), after `recheck_seconds` (the bound for changes made by
    other processes), or when the session's own expiry has come. With the default bound, 0, it asks at every event:
    about 1-2 ms a click on a loaded machine (one narrow query on a kept connection, 0.6 ms, and the two thread hops;
    it was ~3 ms with ORM rows on a pooled connection: bench/session_check.py, bench/README.md)."""

    def __init__(self, token: str, *, live_until: Callable[[str], PageGrant | None], changes: Callable[[], int],
                 recheck_seconds: float) -> None:
        self.token = token
        self.live_until = live_until
        self.changes = changes
        self.recheck_seconds = recheck_seconds
        self.checked_at_change = -1
        self.trusted_until = 0.0  # time.monotonic()
        self.grant: Hashable = _NOT_PINNED  # the grant the page was drawn for (pinned by the first answer)

    async def alive(self) -> bool:
        change = self.changes()
        if change == self.checked_at_change and time.monotonic() < self.trusted_until:
            return True
        # The change number is read before the database: a change committed during the check moves it, and the
        # next event asks again.
        checked = time.monotonic()
        live = await on_threads(_SESSION_CHECKS, self.live_until, self.token)  # its log lines name the page's user
        if live is None:
            return False
        if self.grant is _NOT_PINNED:
            self.grant = live.grant
        elif live.grant != self.grant:
            return False  # the page's actor is not the session's any more: its next load draws the session's
        self.checked_at_change = change
        self.trusted_until = checked + min(self.recheck_seconds, (live.expires - datetime.now(UTC)).total_seconds())
        return True

    async def pin(self) -> None:
        """Take the session's grant before the page is drawn (the page reads its actor after this), so a change
        between the draw and the first event ends the page rather than becoming what it is checked against. A
        database that does not answer leaves it to the first event, as it leaves the page's own read to retry."""
        try:
            await self.alive()
        except Exception:  # noqa: BLE001 - the page's events are checked regardless; the operator has the log
            _log.warning("the session check at a page's handshake failed; its first event pins it", exc_info=True)


class WebsocketGuard:
    def __init__(self, app: ASGIApp, *, cookie_name: str, live_until: Callable[[str], PageGrant | None],
                 changes: Callable[[], int] = lambda: 0, recheck_seconds: float = 0.0) -> None:
        self.app = app
        self.cookie_name = cookie_name
        self.live_until = live_until
        self.changes = changes
        self.recheck_seconds = recheck_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        if not same_origin(scope, "websocket"):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": FOREIGN_ORIGIN_CLOSE_CODE})
            return
        send = accept_first(send)
        token = cookie(scope, self.cookie_name)
        if not token:
            return await self.app(scope, receive, send)
        session = SessionCheck(token, live_until=self.live_until, changes=self.changes,
                               recheck_seconds=self.recheck_seconds)
        await session.pin()

        async def checked_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive" and not await session.alive():
                # Closing makes the client reconnect; the new socket renders as logged out.
                await send({"type": "websocket.close", "code": SESSION_ENDED_CLOSE_CODE})
                return {"type": "websocket.disconnect", "code": SESSION_ENDED_CLOSE_CODE}
            return message

        await self.app(scope, checked_receive, send)
