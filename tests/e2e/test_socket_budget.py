"""A client flooding its page's websocket (app/web/socket_budget.py) is closed, while a person's page on the same
session keeps working in the browser."""

from __future__ import annotations

import asyncio
import json
import uuid
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.access.sessions import SESSION_COOKIE
from app.web.socket_budget import EVENT_BURST, FLOOD_CLOSE_CODE
from tests.e2e.conftest import login, screenshot
from tests.render import run_async

pytestmark = pytest.mark.e2e


async def _flood(server_url: str, cookie: str) -> int | None:
    """Twice the burst of events at once on a page socket of the same session; the close code it gets."""
    host = urlsplit(server_url).netloc
    async with connect(f"ws://{host}/reactpy/?path=/campaign&qs=", open_timeout=30,
                       additional_headers={"Origin": server_url, "Cookie": f"{SESSION_COOKIE}={cookie}"}) as socket:
        await asyncio.wait_for(socket.recv(), 30)  # the first render
        for _ in range(EVENT_BURST * 2):
            await socket.send(json.dumps({"type": "layout-event", "target": uuid.uuid4().hex, "data": [{}]}))
        try:
            while True:
                await asyncio.wait_for(socket.recv(), 30)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def test_a_flooding_client_is_closed_and_the_persons_page_keeps_working(page: Page, server_url: str) -> None:
    login(page, "advertiser@demo.example")
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == SESSION_COOKIE)
    assert run_async(_flood(server_url, cookie)) == FLOOD_CLOSE_CODE
    # The person's own tab, on the same session, still answers clicks.
    page.locator(".dsp-sidebar a[href='/campaign']").click()
    page.wait_for_url("**/campaign")
    expect(page.locator(".dsp-content")).not_to_be_empty()
    page.locator(".dsp-sidebar a[href='/dashboard']").click()
    page.wait_for_url("**/dashboard")
    expect(page.locator("[data-dashboard]")).to_be_visible()
    screenshot(page, "socket-budget-dashboard-after-flood")
