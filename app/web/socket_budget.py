"""EventBudget: how much a page's websocket may send, checked before anything else looks at a frame.

ReactPy reads whatever a client sends: a frame that is not JSON, or not an object, crashed the page's handler with a
traceback in the log; and every frame, junk or not, became a task, and (for a signed-in page) a session check on
the database (app/web/middleware.py). Here each frame must be a layout event (a JSON object of type "layout-event"
with a text `target` and a list of `data`), and a page may send at most EVENT_BURST events at once, refilled at
EVENTS_PER_SECOND. A client past either is closed (JUNK_CLOSE_CODE, FLOOD_CLOSE_CODE) and the page's layout ends;
a browser's page would reconnect with fresh state, as after a restart. Which targets an event may name is checked
by the layout itself (components/reactpy_fixes.py: a target it never rendered allocates nothing).

The bound is one no person reaches: the fastest a person sends events is a key held down in a field, one event per
auto-repeat, about 30 a second, which the refill keeps up with for ever; the largest bursts are a form filled by a
password manager or a test, and the clicks the client replays after a reconnect, tens of events. A client sending
junk is closed within EVENT_BURST events plus EVENTS_PER_SECOND a second.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson

from app.web.middleware import ASGIApp, Message, Receive, Scope, Send

EVENT_BURST = 300
EVENTS_PER_SECOND = 30
JUNK_CLOSE_CODE = 4400
FLOOD_CLOSE_CODE = 4429
_log = logging.getLogger("dsp.web")


class TokenBucket:
    """EVENT_BURST tokens, refilled at EVENTS_PER_SECOND; each event takes one. One page's, used by one coroutine
    (no lock), and two numbers: a rate-limit library's shared stores are for counts across processes, which a
    websocket (kept in its process) does not need."""

    def __init__(self, burst: int, per_second: float, clock: Any = time.monotonic) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def is_layout_event(message: Message) -> bool:
    """Whether a websocket frame is what ReactPy's client sends: a JSON layout event."""
    text = message.get("text")
    if not isinstance(text, str):
        return False
    try:
        event = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return (isinstance(event, dict) and event.get("type") == "layout-event" and isinstance(event.get("target"), str)
            and isinstance(event.get("data"), list))


class EventBudget:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        bucket = TokenBucket(EVENT_BURST, EVENTS_PER_SECOND)
        closed: Message | None = None

        async def budgeted_receive() -> Message:
            nonlocal closed
            if closed is not None:
                return closed
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            if not is_layout_event(message):
                closed = await self._close(send, JUNK_CLOSE_CODE, "a frame that is not a layout event")
                return closed
            if not bucket.take():
                closed = await self._close(send, FLOOD_CLOSE_CODE,
                                           f"more than {EVENT_BURST} events at once ({EVENTS_PER_SECOND} a second)")
                return closed
            return message

        async def budgeted_send(message: Message) -> None:
            # Once closed here, what the page still had on its way (a render in flight, its own close) goes nowhere.
            if closed is None:
                await send(message)

        await self.app(scope, budgeted_receive, budgeted_send)

    @staticmethod
    async def _close(send: Send, code: int, why: str) -> Message:
        """Close the socket; the app is told the client went away, which ends the page's layout."""
        _log.warning("closed a page websocket that sent %s", why)
        await send({"type": "websocket.close", "code": code})
        return {"type": "websocket.disconnect", "code": code}
