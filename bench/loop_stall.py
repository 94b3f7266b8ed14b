"""Do sign-ins stall other users' clicks? 100 signed-in tabs click at human pace against one real server
(`python -m app serve`), first alone, then while 10 sign-ins per second go through the login page. Prints
the clicks' round-trip p50/p95/max for both phases and their ratio.

A click is a real ReactPy event (the top bar's fullscreen toggle) over the page's websocket; its round
trip ends with the layout update it causes. A sign-in is the login page's own submit event, so the
password check runs where a browser's would. Blocking work on the server's event loop shows up here as
click latency; the goal is a loaded p95 under 50 ms.

    .venv/bin/python bench/loop_stall.py [--tabs 100] [--signins-per-s 10] [--seconds 20] [--app-dir DIR]

`--app-dir` serves another checkout (e.g. a worktree of an older commit) for a before/after comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from app.services.seed import DEMO_PASSWORD  # noqa: E402
from tests.render import apply_update, walk  # noqa: E402

TICKET = re.compile(r'"ticket":"([^"]+)"')

HOMES = {"advertiser@demo.example": "/dashboard", "agency@demo.example": "/agency/dashboard",
         "admin@demo.example": "/admin/dashboard", "coadmin@demo.example": "/co-admin/dashboard"}
EMAILS = tuple(HOMES)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(app_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PORT": str(port), "DSP_ENVIRONMENT": "development"}
    python = sys.executable
    for command in ("migrate", "seed-demo"):
        subprocess.run([python, "-m", "app", command], cwd=app_dir, env=env, check=True, capture_output=True)
    log = open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "w")  # noqa: SIM115
    server = subprocess.Popen([python, "-m", "app", "serve"], cwd=app_dir, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


class Tab:
    """One page's websocket. It keeps the page's model up to date until `handler` has found its target;
    after that it only queues the raw updates, so the bench's own CPU use stays out of the figures."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url, self.headers = url, headers
        self.model: dict[str, Any] = {}
        self.following = True
        self.updates: asyncio.Queue[str] = asyncio.Queue()

    async def __aenter__(self) -> Tab:
        self.socket = await connect(self.url, additional_headers=self.headers, max_size=None, open_timeout=30)
        self.reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_: Any) -> None:
        self.reader.cancel()
        await self.socket.close()

    async def _read(self) -> None:
        async for raw in self.socket:
            if self.following:
                message = json.loads(raw)
                if message.get("type") == "layout-update":
                    self.model = apply_update(self.model, message)
            await self.updates.put(str(raw))

    async def handler(self, event: str, **attributes: Any) -> str:
        """The event target of the first element with these attributes that handles `event`, waiting for it
        to be rendered."""
        while True:
            for node in walk(self.model):
                attrs = node.get("attributes", {})
                handler = node.get("eventHandlers", {}).get(event)
                if handler and all(attrs.get(k) == v for k, v in attributes.items()):
                    return str(handler["target"])
            await self.updates.get()

    async def send(self, target: str, data: list[Any]) -> None:
        while not self.updates.empty():
            self.updates.get_nowait()
        await self.socket.send(json.dumps({"type": "layout-event", "target": target, "data": data}))


async def clicking_tab(url: str, origin: str, email: str, cookie: str, stop: asyncio.Event, timings: list[float],
                       ready: list[bool]) -> None:
    async with Tab(f"{url}{HOMES[email]}&qs=", {"Origin": origin, "Cookie": f"dsp_session={cookie}"}) as tab:
        target = await asyncio.wait_for(tab.handler("onClick", **{"data-fullscreen": "off"}), 60)
        tab.following = False  # its target found, the tab stops parsing what it receives
        ready.append(True)
        await asyncio.sleep(random.uniform(0, 1.5))
        while not stop.is_set():
            started = time.perf_counter()
            await tab.send(target, [{}])
            await asyncio.wait_for(tab.updates.get(), 30)
            timings.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(random.uniform(0.8, 2.2))  # human pace: a click every 1.5 s on average


async def sign_in(url: str, origin: str, email: str) -> tuple[float, str]:
    """(milliseconds, the one-time ticket the page hands its session agent) of one sign-in on /login."""
    started = time.perf_counter()
    async with Tab(url + "/login&qs=", {"Origin": origin}) as tab:
        # Typed first, each keystroke's render awaited, then submitted: so an older build whose form reads
        # only its state signs in too, and the two can be compared (--app-dir).
        fields = {"email": email, "password": DEMO_PASSWORD}
        targets = {name: await asyncio.wait_for(tab.handler("onChange", name=name), 30) for name in fields}
        submit = await asyncio.wait_for(tab.handler("onSubmit", name="login"), 30)
        for name, value in fields.items():
            await tab.send(targets[name], [{"target": {"value": value}}])
            await asyncio.wait_for(tab.updates.get(), 30)
        elements = [{"name": name, "type": name, "value": value} for name, value in fields.items()]
        await tab.send(submit, [{"type": "submit", "target": elements}])
        while (found := TICKET.search(await asyncio.wait_for(tab.updates.get(), 30))) is None:
            pass  # the update that gives the session agent its ticket ends the sign-in
    return (time.perf_counter() - started) * 1000, found.group(1)


async def browser_cookie(url: str, origin: str, email: str) -> str:
    """A session cookie got the way a browser gets one: sign in on /login, then trade the ticket (as the
    session agent does). The bench touches the server only over HTTP, whatever code it serves."""
    _ms, ticket = await sign_in(url, origin, email)
    async with httpx.AsyncClient(base_url=origin) as http:
        reply = await http.post("/api/auth/session", json={"ticket": ticket},
                                 headers={"X-Requested-With": "dsp-console", "Origin": origin})
        reply.raise_for_status()
        return reply.cookies["dsp_session"]


async def phase(url: str, origin: str, cookies: list[tuple[str, str]], seconds: float,
                signins_per_s: float) -> dict[str, Any]:
    stop, timings, signins, ready = asyncio.Event(), [], [], []
    tabs = [asyncio.create_task(clicking_tab(url, origin, email, cookie, stop, timings, ready))
            for email, cookie in cookies]
    while len(ready) < len(cookies):  # every tab connected and showing its dashboard
        failed = [t for t in tabs if t.done()]
        if failed:
            raise SystemExit(f"a tab failed: {failed[0].exception()!r}")
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)
    timings.clear()
    running: set[asyncio.Task[float]] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if signins_per_s:
            task = asyncio.create_task(sign_in(url, origin, random.choice(EMAILS)))
            running.add(task)
            task.add_done_callback(running.discard)
            task.add_done_callback(lambda t: signins.append(t.exception() or t.result()[0]))
            await asyncio.sleep(1 / signins_per_s)
        else:
            await asyncio.sleep(0.5)
    stop.set()
    outcomes = await asyncio.gather(*tabs, *running, return_exceptions=True)
    errors = [o for o in [*outcomes, *signins] if isinstance(o, BaseException)]
    signins[:] = [s for s in signins if not isinstance(s, BaseException)]
    if errors:
        print(f"  {len(errors)} tabs or sign-ins failed, e.g. {errors[0]!r}")
    return {"clicks": sorted(timings), "signins": signins}


def summary(label: str, result: dict[str, Any], seconds: float) -> float:
    clicks = result["clicks"]
    p95 = clicks[int(len(clicks) * 0.95) - 1]
    signins = result["signins"]
    extra = (f"; {len(signins) / seconds:4.1f} sign-ins/s done, median {statistics.median(signins):6.0f} ms"
             if signins else "")
    print(f"{label:<22} {len(clicks):5d} clicks  p50 {statistics.median(clicks):6.1f} ms  p95 {p95:6.1f} ms  "
          f"max {clicks[-1]:7.1f} ms{extra}")
    return p95


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=100)
    parser.add_argument("--signins-per-s", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    args = parser.parse_args()
    port = free_port()
    server = start_server(args.app_dir.resolve(), port)
    try:
        url, origin = f"ws://127.0.0.1:{port}/reactpy/?path=", f"http://127.0.0.1:{port}"
        emails = [EMAILS[i % len(EMAILS)] for i in range(args.tabs)]
        cookies = [(email, await browser_cookie(url, origin, email)) for email in emails]
        print(f"{args.tabs} tabs clicking at human pace, {args.seconds:.0f} s a phase, serving {args.app_dir}")
        alone = summary("clicks alone", await phase(url, origin, cookies, args.seconds, 0), args.seconds)
        loaded = summary(f"+ {args.signins_per_s:g} sign-ins/s", await phase(url, origin, cookies, args.seconds,
                                                                        args.signins_per_s), args.seconds)
        print(f"p95 with sign-ins / alone: {loaded / alone:4.1f}x   (goal: loaded p95 under 50 ms)")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    asyncio.run(main())
