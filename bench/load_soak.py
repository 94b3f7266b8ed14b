"""Load and soak: does one `make run` process keep up with many tabs and API clients for minutes, without errors
and without its memory growing? Two modes, each against a real server started as `make run` starts it
(migrate, seed-demo, simulate --days 30, serve) in a throwaway data directory, as a process of its own:

soak (default): `--sessions` signed-in tabs (200), each on a real page (dashboard, campaigns, creatives,
reports, funds; spread over the four demo roles; opened `--arrivals-per-s` (4) a second), click that page's own
controls at human pace (a date preset, a status or type filter, a menu, the full-screen switch; one every 2-5 s),
while `--api-clients` (20) call the API as fast as they can with bearer tokens (campaign list, dashboard
figures, statistics, and one call in ten renames a campaign back and forth). After `--warmup` seconds it takes
the server's RSS, then runs `--minutes` (10), printing RSS every minute. An event's round trip is from sending
it to the first layout update it causes. Errors: a websocket the server closed, a click with no update within
30 s, an API answer that is not 2xx, a traceback in the server's log.

cycles: `--cycles` (1,000) tabs each open a page's websocket with a signed-in cookie, wait for the first
render and close, `--parallel` (10) at a time; RSS after a warm-up of 100 cycles and after all of them.

    .venv/bin/python bench/load_soak.py [--minutes 10] [--sessions 200] [--api-clients 20] [--warmup 60]
    .venv/bin/python bench/load_soak.py --mode cycles [--cycles 1000] [--parallel 10]

Goals (issue 12): no errors, and RSS at the end within 10 % of RSS once warm, in both modes.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from app.demo.seed import DEMO_PASSWORD  # noqa: E402
from bench.console_client import (  # noqa: E402
    EMAILS,
    ROOT,
    Tab,
    browser_cookie,
    find_target,
    free_port,
    has_attributes,
    option_values,
    page_tab,
    percentile,
    rss_mb,
    start_server,
    ws_url,
)
from tests.render import walk  # noqa: E402

GROWTH_GOAL = 10.0  # percent
PAGE_KINDS = ("dashboard", "campaigns", "creatives", "reports", "funds")
PREFIXES = {"advertiser@demo.example": "", "agency@demo.example": "/agency", "admin@demo.example": "/admin",
            "coadmin@demo.example": "/co-admin"}


def page_path(email: str, kind: str) -> str:
    prefix = PREFIXES[email]
    name = {"dashboard": "dashboard", "campaigns": "campaign", "creatives": "creative" if prefix else "creatives",
            "reports": "report", "funds": "funds"}[kind]
    return f"{prefix}/{name}"


@dataclass(frozen=True)
class Control:
    """A control a user clicks on a page: a button (found by its attributes, or inside an element with the
    `within` attributes) or a <select> whose options are chosen in turn."""

    attrs: dict[str, Any] = field(default_factory=dict)
    within: dict[str, Any] | None = None
    select: str = ""  # a <select>'s name

    @property
    def event(self) -> str:
        return "onChange" if self.select else "onClick"


FULLSCREEN = Control({"data-fullscreen": "off"})
CONTROLS: dict[str, tuple[Control, ...]] = {
    "dashboard": (Control({"data-preset": 7}), Control({"data-preset": 90}), Control({"data-preset": 30})),
    "campaigns": (Control(select="status_filter"),),
    "creatives": (Control(select="type_filter"), Control(select="status_filter")),
    "reports": (Control(within={"data-dropdown": "new-report"}),),
    "funds": (Control(select="agency_filter"),),  # staff only; on the others only the top bar's switch
}


@dataclass
class Figures:
    connected: int = 0
    sessions_failed: int = 0
    events: int = 0
    round_trips: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    api_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        if len(self.errors) < 5:
            print(f"  error: {text}", flush=True)
        self.errors.append(text)


async def settled(tab: Tab, quiet: float = 2.0) -> None:
    """Until the page has sent nothing for `quiet` seconds: its queries answered and rendered."""
    while True:
        try:
            await tab.next_update(timeout=quiet)
        except TimeoutError:
            return


async def present(tab: Tab, kind: str) -> list[Control]:
    """The controls the settled page shows (the staff-only filters, for instance, only to staff)."""
    await asyncio.wait_for(tab.handler("onClick", **FULLSCREEN.attrs), 60)
    await settled(tab)
    return [control for control in (*CONTROLS[kind], FULLSCREEN)
            if find_target(tab.model, control.event, control.within, **control.attrs)]


async def event_for(tab: Tab, control: Control) -> tuple[str, list[Any]]:
    """(target, data) of a click on `control` as the page shows it now, waiting while it is not shown (a list
    being reloaded). A <select> moves to the option after the chosen one."""
    if control is FULLSCREEN:  # its attribute says whether it is on; the target is the same either way
        found = find_target(tab.model, "onClick", None, **{"data-fullscreen": "on"})
        if found:
            return found, [{}]
    target = await asyncio.wait_for(tab.handler(control.event, control.within, **control.attrs), 30)
    return target, event_data(tab.model, control)


def pressed(model: dict[str, Any], control: Control) -> bool:
    """Whether `control` is a toggle button that is on already (a dashboard's current date preset): clicking
    it changes no state, so the page rightly sends nothing and the click would read as lost."""
    if control.select or not control.attrs:
        return False
    return any(node.get("attributes", {}).get("aria-pressed") == "true" and has_attributes(node, control.attrs)
               for node in walk(model))


def event_data(model: dict[str, Any], control: Control) -> list[Any]:
    """The event's arguments: none for a button; for a <select>, a change to the option after the chosen one."""
    if not control.select:
        return [{}]
    select = next(node for node in walk(model) if node.get("tagName") == "select"
                  and node.get("attributes", {}).get("name") == control.select)
    values = option_values(select, control.select)
    current = str(select["attributes"].get("value"))
    chosen = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
    return [{"target": {"value": chosen}}]


async def session(url: str, origin: str, email: str, cookie: str, kind: str, figures: Figures,
                  stop: asyncio.Event, measuring: asyncio.Event) -> None:
    """One tab on one page. It keeps its model up to date, as a browser does, and finds each control's
    target in it just before the click."""
    try:
        async with page_tab(url, origin, page_path(email, kind), cookie) as tab:
            controls = itertools.cycle(await present(tab, kind))
            figures.connected += 1
            for _ in range(random.randrange(4)):
                next(controls)
            while not stop.is_set():
                await asyncio.sleep(random.uniform(2, 5))  # human pace
                control = next(controls)
                if pressed(tab.model, control):  # the period already shown: a click that changes nothing
                    control = next(controls)
                target, data = await event_for(tab, control)
                started = time.perf_counter()
                await tab.send(target, data)
                try:
                    await tab.next_update()
                except TimeoutError:
                    figures.error(f"{email} {kind}: no update for an event within 30 s")
                    continue
                if measuring.is_set():
                    figures.events += 1
                    figures.round_trips.append((time.perf_counter() - started) * 1000)
                    figures.by_kind.setdefault(kind, []).append(figures.round_trips[-1])
    except Exception as failed:  # noqa: BLE001 - every failure is a figure here (a closed socket included)
        figures.sessions_failed += 1
        figures.error(f"{email} {kind}: {failed!r}")


async def api_token(origin: str, email: str) -> str:
    async with httpx.AsyncClient(base_url=origin, timeout=60) as http:
        reply = await http.post("/api/auth/login", json={"email": email, "password": DEMO_PASSWORD})
        reply.raise_for_status()
        return str(reply.json()["data"]["token"])


async def api_client(origin: str, token: str, prefix: str, campaign: dict[str, Any] | None, figures: Figures,
                     stop: asyncio.Event, measuring: asyncio.Event) -> None:
    reads = ["/api/campaigns", f"/api/{prefix}/overview", f"/api/{prefix}/chart",
             f"/api/{prefix}/performanceByCampaign", "/api/statistics?dimensions=date",
             "/api/statistics?dimensions=campaign_id,exchange"]
    names = itertools.cycle([f"{campaign['name']} soak", campaign["name"]] if campaign else [""])
    async with httpx.AsyncClient(base_url=origin, headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
        for turn in itertools.count():
            if stop.is_set():
                return
            started = time.perf_counter()
            try:
                if campaign and turn % 10 == 9:
                    reply = await http.put(f"/api/campaigns/{campaign['id']}", json={"name": next(names)})
                else:
                    reply = await http.get(random.choice(reads))
            except httpx.HTTPError as failed:
                figures.error(f"API: {failed!r}")
                continue
            if not reply.is_success:
                figures.error(f"API {reply.request.method} {reply.request.url.path}: {reply.status_code} "
                              f"{reply.text[:200]}")
            elif measuring.is_set():
                figures.api_times.append((time.perf_counter() - started) * 1000)


async def cookies_for(url: str, origin: str, emails: list[str], parallel: int = 4) -> list[str]:
    """One browser sign-in per entry, a few at a time (each is a password hash on the server)."""
    gate = asyncio.Semaphore(parallel)

    async def one(email: str) -> str:
        async with gate:
            return await browser_cookie(url, origin, email)

    return list(await asyncio.gather(*(one(email) for email in emails)))


def growth_line(label: str, start: float, end: float) -> bool:
    growth = (end - start) / start * 100
    passed = growth <= GROWTH_GOAL
    print(f"{'PASS' if passed else 'FAIL'}  {label}: {start:.1f} MB -> {end:.1f} MB, {growth:+.1f} % "
          f"(goal: at most +{GROWTH_GOAL:.0f} %)")
    return passed


def log_tracebacks(log: Path) -> list[str]:
    text = log.read_text(errors="replace") if log.exists() else ""
    return [block.splitlines()[-1] if block.splitlines() else "" for block in text.split("Traceback (most recent")[1:]]


async def soak(args: argparse.Namespace, server_pid: int, url: str, origin: str, log: Path) -> bool:
    emails = [EMAILS[i % len(EMAILS)] for i in range(args.sessions)]
    kinds = [PAGE_KINDS[(i // len(EMAILS)) % len(PAGE_KINDS)] for i in range(args.sessions)]
    started = time.monotonic()
    cookies = await cookies_for(url, origin, emails)
    print(f"{args.sessions} browser sign-ins in {time.monotonic() - started:.0f} s", flush=True)

    advertiser = await api_token(origin, "advertiser@demo.example")
    async with httpx.AsyncClient(base_url=origin, headers={"Authorization": f"Bearer {advertiser}"}) as http:
        listed = (await http.get("/api/campaigns", params={"limit": 500})).json()["data"]["items"]
    campaigns = [c for c in listed if c.get("status") in ("active", "paused", "draft")] or listed
    api_tokens = {"advertiser@demo.example": advertiser, "agency@demo.example": await api_token(
        origin, "agency@demo.example")}

    figures, stop, measuring = Figures(), asyncio.Event(), asyncio.Event()
    tasks = []
    # Users arrive over a minute or so, not all in the same instant: 200 first renders at once took over 30 s
    # each on this busy machine, which is a thundering herd no real console sees.
    for email, cookie, kind in zip(emails, cookies, kinds, strict=True):
        tasks.append(asyncio.create_task(session(url, origin, email, cookie, kind, figures, stop, measuring)))
        await asyncio.sleep(1 / args.arrivals_per_s)
    while figures.connected + figures.sessions_failed < args.sessions:
        await asyncio.sleep(0.5)
    for i in range(args.api_clients):
        own = i % 2 == 0
        tasks.append(asyncio.create_task(api_client(
            origin, api_tokens["advertiser@demo.example" if own else "agency@demo.example"],
            "dashboard" if own else "agency/dashboard", campaigns[(i // 2) % len(campaigns)] if own else None,
            figures, stop, measuring)))
    while figures.connected + figures.sessions_failed < args.sessions:
        await asyncio.sleep(0.5)
    print(f"{figures.connected} of {args.sessions} sessions connected and settled; "
          f"{args.api_clients} API clients running; warming up {args.warmup:.0f} s", flush=True)
    await asyncio.sleep(args.warmup)
    rss_start = rss_mb(server_pid)
    errors_before = len(figures.errors)
    measuring.set()
    print(f"RSS at start (warm): {rss_start:.1f} MB", flush=True)
    begun = time.monotonic()
    for minute in range(1, int(args.minutes) + 1):
        await asyncio.sleep(max(0.0, begun + minute * 60 - time.monotonic()))
        events, api = figures.events, len(figures.api_times)
        print(f"  minute {minute:2d}: RSS {rss_mb(server_pid):7.1f} MB, {events} events, {api} API calls, "
              f"{len(figures.errors)} errors", flush=True)
    if args.minutes % 1:
        await asyncio.sleep(args.minutes % 1 * 60)
    elapsed = time.monotonic() - begun
    rss_end = rss_mb(server_pid)
    measuring.clear()
    stop.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(5)
    rss_closed = rss_mb(server_pid)

    tracebacks = log_tracebacks(log)
    for line in tracebacks[:5]:
        figures.error(f"server log traceback: {line}")
    trips, api = sorted(figures.round_trips), sorted(figures.api_times)
    print(f"\n{args.sessions} sessions ({figures.connected} connected), {args.api_clients} API clients, "
          f"{elapsed / 60:.1f} min measured after {args.warmup:.0f} s warm-up")
    print(f"events sent: {figures.events} ({figures.events / elapsed:.1f}/s); round trip p50 "
          f"{percentile(trips, 0.5):.1f} ms, p95 {percentile(trips, 0.95):.1f} ms, "
          f"p99 {percentile(trips, 0.99):.1f} ms, max {trips[-1] if trips else float('nan'):.1f} ms")
    for kind, times in sorted(figures.by_kind.items()):
        times.sort()
        print(f"  {kind:<10} {len(times):6d} events, p50 {percentile(times, 0.5):7.1f} ms, "
              f"p95 {percentile(times, 0.95):7.1f} ms")
    print(f"API calls: {len(api)} ({len(api) / elapsed:.1f}/s); p50 {percentile(api, 0.5):.1f} ms, "
          f"p95 {percentile(api, 0.95):.1f} ms")
    print(f"errors: {len(figures.errors)} ({errors_before} before measuring; {len(tracebacks)} server tracebacks)")
    print(f"RSS: start {rss_start:.1f} MB, end {rss_end:.1f} MB, after every session closed {rss_closed:.1f} MB")
    no_errors = not figures.errors and figures.connected == args.sessions
    print(f"{'PASS' if no_errors else 'FAIL'}  errors: {len(figures.errors)} (goal: 0)")
    return growth_line("memory under load", rss_start, rss_end) and no_errors


async def cycles(args: argparse.Namespace, server_pid: int, url: str, origin: str, log: Path) -> bool:
    cookies = dict(zip(EMAILS, await cookies_for(url, origin, list(EMAILS)), strict=True))
    plan = [(email, kind) for kind in PAGE_KINDS for email in EMAILS]
    figures = Figures()

    async def one(n: int) -> None:
        email, kind = plan[n % len(plan)]
        started = time.perf_counter()
        try:
            async with page_tab(url, origin, page_path(email, kind), cookies[email]) as tab:
                await tab.next_update()
            figures.round_trips.append((time.perf_counter() - started) * 1000)
        except Exception as failed:  # noqa: BLE001 - every failure is a figure here
            figures.error(f"{email} {kind}: {failed!r}")

    async def run(count: int) -> None:
        gate = asyncio.Semaphore(args.parallel)

        async def gated(n: int) -> None:
            async with gate:
                await one(n)

        await asyncio.gather(*(gated(n) for n in range(count)))

    await run(100)
    await asyncio.sleep(5)  # the warm-up's queries finish
    rss_before = rss_mb(server_pid)
    figures.round_trips.clear()
    print(f"RSS after 100 warm-up cycles: {rss_before:.1f} MB", flush=True)
    started = time.monotonic()
    await run(args.cycles)
    elapsed = time.monotonic() - started
    await asyncio.sleep(5)  # page queries still running for closed tabs finish
    rss_after = rss_mb(server_pid)
    tracebacks = log_tracebacks(log)
    for line in tracebacks[:5]:
        figures.error(f"server log traceback: {line}")
    firsts = sorted(figures.round_trips)
    print(f"{args.cycles} connect/first render/close cycles, {args.parallel} at a time, in {elapsed:.0f} s "
          f"({args.cycles / elapsed:.1f}/s); first render p50 {percentile(firsts, 0.5):.0f} ms, "
          f"p95 {percentile(firsts, 0.95):.0f} ms")
    print(f"errors: {len(figures.errors)}")
    print(f"{'PASS' if not figures.errors else 'FAIL'}  errors: {len(figures.errors)} (goal: 0)")
    return growth_line("memory after the cycles", rss_before, rss_after) and not figures.errors


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("soak", "cycles"), default="soak")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--api-clients", type=int, default=20)
    parser.add_argument("--arrivals-per-s", type=float, default=4, help="tabs opened per second at the start")
    parser.add_argument("--warmup", type=float, default=60, help="seconds of full load before RSS at start")
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=10)
    parser.add_argument("--port", type=int, default=0, help="serve on this port (default: a free one)")
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    args = parser.parse_args()
    port = args.port or free_port()
    log = Path(os.environ["DSP_DATA_DIR"]) / "server.log"
    prepared = time.monotonic()
    server = start_server(args.app_dir.resolve(), port, simulate_days=30, log=log)
    print(f"server pid {server.pid} on port {port} (data {os.environ['DSP_DATA_DIR']}, ready in "
          f"{time.monotonic() - prepared:.0f} s); load average {os.getloadavg()[0]:.1f}", flush=True)
    try:
        url, origin = ws_url(port)
        passed = await (soak if args.mode == "soak" else cycles)(args, server.pid, url, origin, log)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate()
        server.wait(timeout=20)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    asyncio.run(main())
