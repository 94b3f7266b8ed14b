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
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.console_client import (  # noqa: E402
    EMAILS,
    HOMES,
    ROOT,
    browser_cookie,
    free_port,
    page_tab,
    percentile,
    sign_in,
    start_server,
    ws_url,
)


async def clicking_tab(url: str, origin: str, email: str, cookie: str, stop: asyncio.Event, timings: list[float],
                       ready: list[bool]) -> None:
    async with page_tab(url, origin, HOMES[email], cookie) as tab:
        target = await asyncio.wait_for(tab.handler("onClick", **{"data-fullscreen": "off"}), 60)
        tab.following = False  # its target found, the tab stops parsing what it receives
        ready.append(True)
        await asyncio.sleep(random.uniform(0, 1.5))
        while not stop.is_set():
            started = time.perf_counter()
            await tab.send(target, [{}])
            await tab.next_update()
            timings.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(random.uniform(0.8, 2.2))  # human pace: a click every 1.5 s on average


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
    p95 = percentile(clicks, 0.95)
    signins = result["signins"]
    extra = (f"; {len(signins) / seconds:4.1f} sign-ins/s done, median {percentile(sorted(signins), 0.5):6.0f} ms"
             if signins else "")
    print(f"{label:<22} {len(clicks):5d} clicks  p50 {percentile(clicks, 0.5):6.1f} ms  p95 {p95:6.1f} ms  "
          f"max {clicks[-1]:7.1f} ms{extra}")
    return p95


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=100)
    parser.add_argument("--signins-per-s", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--port", type=int, default=0, help="serve on this port (default: a free one)")
    args = parser.parse_args()
    port = args.port or free_port()
    server = start_server(args.app_dir.resolve(), port)
    try:
        url, origin = ws_url(port)
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
