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

from websockets.asyncio.client import connect  # noqa: E402

from app.services.seed import DEMO_PASSWORD  # noqa: E402
from tests.helpers import browser_session  # noqa: E402
from tests.render import apply_update, walk  # noqa: E402

EMAILS = ("advertiser@demo.example", "agency@demo.example", "admin@demo.example", "coadmin@demo.example")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(app_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PORT": str(port), "DSP_ENVIRONMENT": "development"}
    python = sys.executable
    for command in ("migrate", "seed-demo"):
        subprocess.run([python, "-m", "app", command], cwd=app_dir, env=env, check=True, capture_output=True)
    server = subprocess.Popen([python, "-m", "app", "serve"], cwd=app_dir, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    """One page's websocket: keeps the page's model up to date as layout updates arrive."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url, self.headers = url, headers
        self.model: dict[str, Any] = {}
        self.updates: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def __aenter__(self) -> Tab:
        self.socket = await connect(self.url, additional_headers=self.headers, max_size=None, open_timeout=30)
        self.reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_: Any) -> None:
        self.reader.cancel()
        await self.socket.close()

    async def _read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            if message.get("type") == "layout-update":
                self.model = apply_update(self.model, message)
                await self.updates.put(message)

    async def handler(self, name: str, **attributes: Any) -> str:
        """The event target of the first element with these attributes that handles `name`, waiting for it
        to be rendered."""
        while True:
            for node in walk(self.model):
                attrs = node.get("attributes", {})
                handler = node.get("eventHandlers", {}).get(name)
                if handler and all(attrs.get(k) == v for k, v in attributes.items()):
                    return str(handler["target"])
            await self.updates.get()

    async def send(self, target: str, data: list[Any]) -> None:
        while not self.updates.empty():
            self.updates.get_nowait()
        await self.socket.send(json.dumps({"type": "layout-event", "target": target, "data": data}))


async def clicking_tab(url: str, origin: str, cookie: str, stop: asyncio.Event, timings: list[float]) -> None:
    async with Tab(url + "/dashboard&qs=", {"Origin": origin, "Cookie": f"dsp_session={cookie}"}) as tab:
        target = await asyncio.wait_for(tab.handler("onClick", **{"data-fullscreen": "off"}), 30)
        await asyncio.sleep(random.uniform(0, 1.5))
        while not stop.is_set():
            started = time.perf_counter()
            await tab.send(target, [{}])
            await asyncio.wait_for(tab.updates.get(), 30)
            timings.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(random.uniform(0.8, 2.2))  # human pace: a click every 1.5 s on average


async def sign_in(url: str, origin: str, email: str) -> float:
    started = time.perf_counter()
    async with Tab(url + "/login&qs=", {"Origin": origin}) as tab:
        target = await asyncio.wait_for(tab.handler("onSubmit", name="login"), 30)
        elements = [{"name": "email", "type": "email", "value": email},
                    {"name": "password", "type": "password", "value": DEMO_PASSWORD}]
        await tab.send(target, [{"type": "submit", "target": elements}])
        while not any(n.get("attributes", {}).get("ticket") for n in walk(tab.model)):
            await asyncio.wait_for(tab.updates.get(), 30)
    return (time.perf_counter() - started) * 1000


async def phase(url: str, origin: str, cookies: list[str], seconds: float, signins_per_s: float) -> dict[str, Any]:
    stop, timings, signins = asyncio.Event(), [], []
    tabs = [asyncio.create_task(clicking_tab(url, origin, c, stop, timings)) for c in cookies]
    await asyncio.sleep(4)  # every tab connected and clicking
    timings.clear()
    running: set[asyncio.Task[float]] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if signins_per_s:
            task = asyncio.create_task(sign_in(url, origin, random.choice(EMAILS)))
            running.add(task)
            task.add_done_callback(lambda t: (running.discard(t), signins.append(t.result()) if not t.exception()
                                              else None))
            await asyncio.sleep(1 / signins_per_s)
        else:
            await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tabs, *running, return_exceptions=True)
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
        cookies = [browser_session(EMAILS[i % len(EMAILS)])[0] for i in range(args.tabs)]
        url, origin = f"ws://127.0.0.1:{port}/reactpy/?path=", f"http://127.0.0.1:{port}"
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
