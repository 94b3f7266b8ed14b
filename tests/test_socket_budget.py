"""What a page's websocket may send (app/web/socket_budget.py, components/reactpy_fixes.py), shown on a live server
(uvicorn in a thread, the console's own app) with a raw websocket client: events naming targets the page never
rendered leave nothing behind, a frame that is not a layout event and a flood each close the socket, and the page
goes on working for the next client. That the session is still checked at each event, junk or not, is shown by
tests/test_middleware.py, whose events name a target no page renders."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import threading
import time
import tracemalloc
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from reactpy.core.layout import Layout
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.main import create_app
from app.web import socket_budget
from app.web.socket_budget import EVENT_BURST, FLOOD_CLOSE_CODE, JUNK_CLOSE_CODE, TokenBucket
from tests.render import apply_update, run_async, walk

EMAIL_FIELD = "field-email"
JUNK_EVENTS = 5_000
JUNK_BURST = 250  # under EVENT_BURST: what a page may send at once


@contextmanager
def live_server() -> Iterator[str]:
    """The console on a free loopback port, served by uvicorn in a thread of this process; yields host:port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join()
        listener.close()


@pytest.fixture
def server(demo_ids: dict[str, int]) -> Iterator[str]:
    with live_server() as host:
        yield host


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[Layout]:
    """Every page layout the server opens from now on, to look inside."""
    opened: list[Layout] = []
    enter = Layout.__aenter__

    async def recorded(self: Layout) -> Layout:
        opened.append(self)
        return await enter(self)
    monkeypatch.setattr(Layout, "__aenter__", recorded)
    return opened


def _open_login(host: str) -> Any:
    return connect(f"ws://{host}/reactpy/?path=/login&qs=", additional_headers={"Origin": f"http://{host}"},
                   max_size=None, open_timeout=30)


def _email_field(model: dict[str, Any]) -> dict[str, Any] | None:
    return next((node for node in walk(model) if node.get("attributes", {}).get("id") == EMAIL_FIELD), None)


async def _rendered_login(page: ClientConnection) -> tuple[dict[str, Any], str]:
    """The login page's model once its e-mail field is drawn, and the field's change target."""
    model: dict[str, Any] = {}
    while (field := _email_field(model)) is None or "onChange" not in field.get("eventHandlers", {}):
        message = json.loads(await asyncio.wait_for(page.recv(), 30))
        if message.get("type") == "layout-update":
            model = apply_update(model, message)
    return model, str(field["eventHandlers"]["onChange"]["target"])


def _typed(target: str, value: str) -> str:
    element = {"tagName": "INPUT", "id": EMAIL_FIELD, "name": "email", "type": "email", "value": value}
    return json.dumps({"type": "layout-event", "target": target, "data": [{"type": "change", "target": element}]})


def _junk_event() -> str:
    return json.dumps({"type": "layout-event", "target": uuid.uuid4().hex, "data": [{}]})


async def _typing_shows(page: ClientConnection, model: dict[str, Any], target: str, value: str) -> None:
    """Types `value` into the e-mail field and waits until the server has rendered it there: every frame sent
    before has then been read and delivered (one socket, read in order; the layout takes them in turn)."""
    await page.send(_typed(target, value))
    while (field := _email_field(model)) is None or field.get("attributes", {}).get("value") != value:
        message = json.loads(await asyncio.wait_for(page.recv(), 30))
        if message.get("type") == "layout-update":
            model = apply_update(model, message)


def test_events_for_targets_the_page_never_rendered_leave_nothing_behind(server, layouts, monkeypatch):
    """Five thousand events with made-up targets, in bursts a page may send (the budget is raised for the test so
    the stream is never refused), each burst followed by a keystroke the page answers: the page keeps no queue or
    task for them and the server's memory does not grow with them (ReactPy kept a queue and a task each: 33 MB after
    these 5,000, until the tab closed)."""
    monkeypatch.setattr(socket_budget, "EVENT_BURST", JUNK_EVENTS * 2)

    async def junk_then_typing() -> tuple[int, dict[str, int]]:
        async with _open_login(server) as page:
            model, target = await _rendered_login(page)
            await _typing_shows(page, model, target, "a@example.com")  # the field's own queue exists from here
            before = _traced_after_collection()
            for burst in range(JUNK_EVENTS // JUNK_BURST):
                for _ in range(JUNK_BURST):
                    await page.send(_junk_event())
                await _typing_shows(page, model, target, f"a{burst}@example.com")
                await _no_event_waiting(layouts[-1])
            grown = _traced_after_collection() - before
            return grown, _per_target(layouts[-1])  # read while the page is open (its layout drops them at close)

    tracemalloc.start()
    try:
        grown, kept = run_async(junk_then_typing())
    finally:
        tracemalloc.stop()
    assert kept == {"queues": 1, "tasks": 1, "acknowledgements": 0}  # the e-mail field's
    assert grown < 500_000, f"the server kept {grown} bytes after {JUNK_EVENTS} events for targets it never rendered"


def _traced_after_collection() -> int:
    """The memory Python holds (tracemalloc), once garbage waiting for the cycle collector is gone: finished event
    tasks sit in reference cycles until it runs."""
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def _no_event_waiting(page: Layout) -> None:
    """Until the page has handed on or dropped every event that waited for its target (components/reactpy_fixes.py:
    an unknown target's events wait 30 ms for the handler, as upstream's did)."""
    deadline = time.monotonic() + 30
    while getattr(page, "_dsp_waiting_events", None):
        assert time.monotonic() < deadline, "events still wait for their targets"
        await asyncio.sleep(0.05)


def _per_target(page: Layout) -> dict[str, int]:
    """How many targets the page keeps a queue, a task and an acknowledged event number for."""
    return {"queues": len(page._event_queues), "tasks": len(page._event_processing_tasks),
            "acknowledgements": len(page._last_event_seq_by_target)}


def test_a_client_sending_more_than_a_person_can_is_closed_and_the_next_page_works(server):
    """Twice the burst, sent at once, then a keystroke: the socket is closed before the keystroke is answered. A
    page opened afterwards renders and answers typing as usual."""
    async def flood() -> int | None:
        async with _open_login(server) as page:
            model, target = await _rendered_login(page)
            for _ in range(EVENT_BURST * 2):
                await page.send(_junk_event())
            try:
                await _typing_shows(page, model, target, "late@example.com")
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
            return None

    async def next_page() -> None:
        async with _open_login(server) as page:
            model, target = await _rendered_login(page)
            await _typing_shows(page, model, target, "next@example.com")

    assert run_async(flood()) == FLOOD_CLOSE_CODE
    run_async(next_page())


@pytest.mark.parametrize("frame", ["not json", "[1, 2]", '{"type": "layout-event", "target": ["a"], "data": []}',
                                   '{"type": "layout-event", "target": "a"}', '{"type": "other"}', b"\x00\x01"],
                         ids=["text", "list", "list-target", "no-data", "other-type", "bytes"])
def test_a_frame_that_is_not_a_layout_event_closes_the_socket(server, frame):
    """ReactPy's handler crashed on these (a traceback in the log for each), or logged and kept going."""
    async def send_junk() -> int | None:
        async with _open_login(server) as page:
            model, target = await _rendered_login(page)
            await page.send(frame)
            try:
                await _typing_shows(page, model, target, "late@example.com")
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
            return None

    assert run_async(send_junk()) == JUNK_CLOSE_CODE


def test_a_person_at_full_speed_stays_within_the_budget():
    """A key held down (30 events a second) for ten minutes and bursts of a full form never run out; a burst past
    EVENT_BURST does."""
    clock = [0.0]
    held = TokenBucket(EVENT_BURST, socket_budget.EVENTS_PER_SECOND, clock=lambda: clock[0])
    for _ in range(30 * 600):
        clock[0] += 1 / 30
        assert held.take()
    burst = TokenBucket(EVENT_BURST, socket_budget.EVENTS_PER_SECOND, clock=lambda: clock[0])
    assert all(burst.take() for _ in range(EVENT_BURST)) and not burst.take()
    clock[0] += 1.0
    assert sum(burst.take() for _ in range(100)) == socket_budget.EVENTS_PER_SECOND
