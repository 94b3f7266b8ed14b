"""The console behind deploy/nginx/dsp-console.conf, as an operator installs it: https on loopback in front of the
browser tests' server. Sign-in, the pages' websocket, an upload and static files work through it, and the sign-in
throttle counts each client's own address.

Clients connect to nginx from addresses of their own (127.0.0.3, 127.0.0.4: all of 127/8 is loopback), while
nginx reaches the server from 127.0.0.1, the one address the server trusts by default (DSP_FORWARDED_ALLOW_IPS).
Each client also sends a forged X-Forwarded-For naming the same address: believed, it would make the two one client.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, expect
from sqlmodel import col, select
from websockets.asyncio.client import connect

from app.access.models import LoginAttempt
from app.access.throttle import SIGN_IN_ACCOUNT
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import get_settings
from app.kernel.db import run
from tests import nginx_proxy
from tests.e2e.conftest import at_path, login, screenshot
from tests.media_files import image_bytes
from tests.render import apply_update, run_async, walk

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not nginx_proxy.installed(), reason=nginx_proxy.MISSING)]

FORGED = "203.0.113.9"
EMAIL = "agency@demo.example"


@pytest.fixture(scope="module")
def proxy(server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[nginx_proxy.Proxy]:
    upstream_port = int(urlsplit(server_url).port or 0)
    with nginx_proxy.running(tmp_path_factory.mktemp("nginx"), upstream_port=upstream_port) as running:
        yield running


def client(proxy: nginx_proxy.Proxy, address: str, base_url: str | None = None) -> httpx.Client:
    """An HTTP client connecting from `address`, trusting the proxy's certificate."""
    tls = ssl.create_default_context(cafile=str(proxy.certificate))
    return httpx.Client(base_url=base_url or proxy.url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address, verify=tls))


def _sign_in(http: httpx.Client, password: str) -> httpx.Response:
    return http.post("/api/auth/login", json={"email": EMAIL, "password": password},
                     headers={"X-Forwarded-For": FORGED})


def _addresses_counted() -> set[str]:
    return set(run(lambda db: db.exec(select(col(LoginAttempt.address)).where(LoginAttempt.email == EMAIL)).all()))


def test_the_throttle_counts_each_client_behind_the_proxy_not_the_proxy(proxy: nginx_proxy.Proxy,
                                                                          server_url: str, demo: dict[str, int]) -> None:
    limit = get_settings().login_max_failures_per_account
    with client(proxy, "127.0.0.3") as first, client(proxy, "127.0.0.4") as second:
        for _ in range(limit):
            assert _sign_in(first, "wrong-Pass-2026").status_code == 401
        refused = _sign_in(first, DEMO_PASSWORD)
        assert refused.status_code == 429
        assert refused.json()["message"].startswith(SIGN_IN_ACCOUNT.split("{n}")[0])
        # The other client, with the same forged header, is another address: it signs in.
        assert _sign_in(second, DEMO_PASSWORD).status_code == 200
    assert _addresses_counted() == {"127.0.0.3", "127.0.0.4"}
    # Straight to the server, not through the proxy, the header is not believed either.
    with client(proxy, "127.0.0.5", base_url=server_url) as direct:
        assert _sign_in(direct, "wrong-Pass-2026").status_code == 401
    assert _addresses_counted() == {"127.0.0.3", "127.0.0.4", "127.0.0.5"}


def _submit_target(model: dict[str, Any]) -> str | None:
    found = [node["eventHandlers"]["onSubmit"]["target"] for node in walk(model)
             if node.get("attributes", {}).get("name") == "login" and "onSubmit" in node.get("eventHandlers", {})]
    return str(found[0]) if found else None


async def _wrong_password_on_the_login_page(proxy: nginx_proxy.Proxy, address: str) -> None:
    """What a browser at `address` does on /login through the proxy, over the page's websocket: the form
    rendered, a wrong password submitted; returns once the server has counted the attempt."""
    tls = ssl.create_default_context(cafile=str(proxy.certificate))
    async with connect(f"wss://127.0.0.1:{proxy.https_port}/reactpy/?path=/login&qs=", ssl=tls,
                       local_addr=(address, 0), open_timeout=30,
                       additional_headers={"Origin": proxy.url, "X-Forwarded-For": FORGED}) as page:
        model: dict[str, Any] = {}
        while (submit := _submit_target(model)) is None:
            message = json.loads(await asyncio.wait_for(page.recv(), 30))
            if message.get("type") == "layout-update":
                model = apply_update(model, message)
        fields = [{"name": "email", "type": "email", "value": EMAIL},
                  {"name": "password", "type": "password", "value": "wrong-Pass-2026"}]
        await page.send(json.dumps({"type": "layout-event", "target": submit,
                                    "data": [{"type": "submit", "target": fields}]}))
        deadline = time.monotonic() + 30
        while address not in await asyncio.to_thread(_addresses_counted):
            assert time.monotonic() < deadline, f"no sign-in attempt from {address} counted"
            await asyncio.sleep(0.1)


def test_the_login_page_counts_the_client_behind_the_proxy(proxy: nginx_proxy.Proxy, demo: dict[str, int]) -> None:
    run_async(_wrong_password_on_the_login_page(proxy, "127.0.0.6"))
    assert _addresses_counted() == {"127.0.0.6"}


def test_an_upload_and_static_files_through_the_proxy(proxy: nginx_proxy.Proxy, demo: dict[str, int]) -> None:
    picture = image_bytes(300, 250)
    with client(proxy, "127.0.0.1") as http:
        signed_in = http.post("/api/auth/login", json={"email": "advertiser@demo.example", "password": DEMO_PASSWORD})
        token = signed_in.json()["data"]["token"]
        uploaded = http.post("/api/uploads/creative", headers={"Authorization": f"Bearer {token}"},
                             files={"file": ("banner.png", picture, "image/png")}, data={"purpose": "image"})
        assert uploaded.status_code == 201, uploaded.text
        stored = http.get(uploaded.json()["data"]["url"])
        assert (stored.status_code, stored.content) == (200, picture)
        # Static files come from the release folder through nginx: without the headers the console adds to
        # everything it serves itself.
        css = http.get("/static/css/console.css")
        assert css.status_code == 200 and "referrer-policy" not in css.headers
        assert css.headers["x-content-type-options"] == "nosniff"
    with httpx.Client(timeout=30) as plain:
        redirected = plain.get(f"http://127.0.0.1:{proxy.http_port}/login")
        assert redirected.status_code == 301 and redirected.headers["location"].startswith("https://")


def test_sign_in_and_pages_work_through_the_proxy(proxy: nginx_proxy.Proxy, browser: Browser,
                                                  demo: dict[str, int]) -> None:
    context = browser.new_context(base_url=proxy.url, ignore_https_errors=True, viewport={"width": 1440, "height": 900})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        shell = page.goto("/login")
        assert shell is not None and "strict-transport-security" in shell.headers  # X-Forwarded-Proto believed
        login(page, "advertiser@demo.example")  # the form's events and the session call, through the proxy
        assert sockets and all(url.startswith(f"wss://127.0.0.1:{proxy.https_port}/reactpy/") for url in sockets)
        page.locator(".dsp-sidebar a[href='/campaign']").click()
        expect(page.locator("[data-page='/campaign']")).to_be_visible()
        screenshot(page, "behind-nginx-campaigns")
        page.click("[data-dropdown=user] button")
        page.click("[data-action=logout]")
        page.wait_for_url(at_path("/login"))
    finally:
        context.close()
