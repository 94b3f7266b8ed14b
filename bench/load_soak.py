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

Rungs (issue 23), each in its own data directory under DSP_DATA_DIR: `embedded` (the default: SQLite and the DuckDB
file, one process, as `make run` starts it); `workers`: a throwaway PostgreSQL cluster (tests/pg_cluster.py, made as
tests/run_all.sh makes the suite's, stopped at the end), statistics shared by the `--workers` (2) server processes
through the test-only ClickHouse HTTP front over chDB (tests/clickhouse_http.py), the same make-run steps with
DATABASE_URL, DSP_STATISTICS_URL=clickhouse://... and DSP_WORKERS set. That front answers one request at a time (a
fixture, not a server), so the workers rung's statistics reads are pessimistic. RSS is each serving process's: with
workers, the supervisor's and each worker's (its children, from /proc) and their sum. `--rungs embedded,workers` runs
them in turn and ends with one table, a column a rung.

    .venv/bin/python bench/load_soak.py [--minutes 10] [--sessions 200] [--api-clients 20] [--warmup 60]
    .venv/bin/python bench/load_soak.py --rungs embedded,workers [--workers 2]
    .venv/bin/python bench/load_soak.py --mode cycles [--cycles 1000] [--parallel 10]

Goals (issue 12): no errors, and RSS at the end within 10 % of RSS once warm, in both modes (with workers: the sum
and each worker). Issue 23: with two workers, p95 <= 500 ms for page events and for API calls.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
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
    child_pids,
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
from tests import clickhouse_http  # noqa: E402
from tests.pg_cluster import Cluster  # noqa: E402
from tests.render import walk  # noqa: E402

GROWTH_GOAL = 10.0  # percent
P95_GOAL_MS = 500.0  # issue 23, for two workers: page events and API calls
RUNGS = ("embedded", "workers")
SERIALIZED_FRONT = ("note: the workers share statistics through tests/clickhouse_http.py, a test-only ClickHouse HTTP "
                    "front over chDB that answers one request at a time (a fixture, not a server): this rung's "
                    "statistics reads are pessimistic")
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
    api_by_call: dict[str, list[float]] = field(default_factory=dict)  # "GET statistics", "PUT campaigns", ...
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
                # By what it reads: the statistics ones go to the statistics store, the others only to the database.
                call = f"{reply.request.method} {reply.request.url.path.rstrip('/').rpartition('/')[2]}"
                figures.api_by_call.setdefault("PUT campaign" if call.startswith("PUT") else call, []).append(
                    figures.api_times[-1])


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


@dataclass
class Served:
    """One rung's running server: `serve`'s process (with workers, their supervisor), its log, and the worker
    processes it started, found once every one of them has said it is up."""

    rung: str
    pid: int
    log: Path
    workers: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{len(self.workers)} workers" if self.workers else self.rung

    def rss(self) -> dict[str, float]:
        """MB resident, by process: the one server; or the supervisor and each worker."""
        if not self.workers:
            return {"server": rss_mb(self.pid)}
        return {"supervisor": rss_mb(self.pid)} | {f"worker {n}": rss_mb(pid)
                                                   for n, pid in enumerate(self.workers, 1)}

    def restarted(self) -> bool:
        """Whether the supervisor has replaced a worker (one died): its RSS would start again from nothing."""
        return bool(self.workers) and [pid for pid in child_pids(self.pid) if pid in self.workers] != self.workers


def total(rss: dict[str, float]) -> float:
    return sum(rss.values())


def rss_detail(rss: dict[str, float]) -> str:
    """', worker 1 123.4 MB, ...' when there is more than the one process, else nothing (the embedded rung's lines
    stay as they were)."""
    return "" if len(rss) == 1 else "".join(f", {name} {mb:.1f} MB" for name, mb in rss.items())


async def ready(served: Served, workers: int, timeout: float = 180) -> None:
    """Until each of `workers` processes has logged that its app is up (the supervisor's socket accepts before
    they have: the first tabs would otherwise wait out their first render on a busy machine)."""
    deadline = time.monotonic() + timeout
    while served.log.read_text(errors="replace").count("Application startup complete.") < workers:
        if time.monotonic() > deadline:
            raise SystemExit(f"{workers} workers did not start in {timeout:.0f} s: see {served.log}")
        await asyncio.sleep(0.5)
    if workers > 1:
        served.workers = [pid for pid in child_pids(served.pid)
                          if "resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")]


@contextmanager
def serving(rung: str, args: argparse.Namespace, port: int) -> Iterator[Served]:
    """A rung's server, set up as `make run` sets it up, in a data directory of its own; everything it started is
    stopped and removed after."""
    data = Path(os.environ["DSP_DATA_DIR"]) / rung
    data.mkdir(parents=True, exist_ok=True)
    settings = {"DSP_DATA_DIR": str(data)}
    with ExitStack() as stack:
        if rung == "workers":
            cluster = Cluster("dsp_soak")
            stack.callback(cluster.remove)
            cluster.create()
            front = stack.enter_context(clickhouse_http.start(data / "clickhouse"))
            settings |= {"DATABASE_URL": cluster.url, "DSP_STATISTICS_URL": f"{front}/dsp_soak",
                         "DSP_WORKERS": str(args.workers)}
        server = start_server(args.app_dir.resolve(), port, simulate_days=30, log=data / "server.log",
                              settings=settings)
        try:
            yield Served(rung, server.pid, data / "server.log")
        finally:
            server.terminate()
            server.wait(timeout=30)


Rows = list[tuple[str, str]]  # one rung's column of the side-by-side table: (what, figure)


async def soak(args: argparse.Namespace, served: Served, url: str, origin: str) -> tuple[bool, Rows]:
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
    rss_start = served.rss()
    load_start = os.getloadavg()[0]
    errors_before = len(figures.errors)
    measuring.set()
    print(f"RSS at start (warm): {total(rss_start):.1f} MB{rss_detail(rss_start)}", flush=True)
    begun = time.monotonic()
    for minute in range(1, int(args.minutes) + 1):
        await asyncio.sleep(max(0.0, begun + minute * 60 - time.monotonic()))
        events, calls, now = figures.events, len(figures.api_times), served.rss()
        print(f"  minute {minute:2d}: RSS {total(now):7.1f} MB, {events} events, {calls} API calls, "
              f"{len(figures.errors)} errors{rss_detail(now)}", flush=True)
    if args.minutes % 1:
        await asyncio.sleep(args.minutes % 1 * 60)
    elapsed = time.monotonic() - begun
    rss_end = served.rss()
    load_end = os.getloadavg()[0]
    measuring.clear()
    stop.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(5)
    rss_closed = served.rss()

    tracebacks = log_tracebacks(served.log)
    for line in tracebacks[:5]:
        figures.error(f"server log traceback: {line}")
    if served.restarted():
        figures.error("a worker process died and was replaced")
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
    for call, times in sorted(figures.api_by_call.items()):
        times.sort()
        print(f"  {call:<30} {len(times):6d} calls, p50 {percentile(times, 0.5):7.1f} ms, "
              f"p95 {percentile(times, 0.95):7.1f} ms")
    print(f"errors: {len(figures.errors)} ({errors_before} before measuring; {len(tracebacks)} server tracebacks)")
    print(f"RSS: start {total(rss_start):.1f} MB, end {total(rss_end):.1f} MB, after every session closed "
          f"{total(rss_closed):.1f} MB")
    no_errors = not figures.errors and figures.connected == args.sessions
    print(f"{'PASS' if no_errors else 'FAIL'}  errors: {len(figures.errors)} (goal: 0)")
    flat = [growth_line(f"memory under load, {name}", rss_start[name], rss_end[name])
            for name in rss_start if name != "supervisor" and len(rss_start) > 1]
    flat.append(growth_line("memory under load" + (", every process" if len(rss_start) > 1 else ""),
                            total(rss_start), total(rss_end)))
    passed = all(flat) and no_errors
    if served.workers:  # issue 23's goal is for the workers rung
        for what, times in (("page events", trips), ("API calls", api)):
            fast = percentile(times, 0.95) <= P95_GOAL_MS
            print(f"{'PASS' if fast else 'FAIL'}  {what} p95: {percentile(times, 0.95):.0f} ms "
                  f"(goal: at most {P95_GOAL_MS:.0f} ms)")
            passed = passed and fast

    rows: Rows = [("load average (1 min) start / end", f"{load_start:.1f} / {load_end:.1f}"),
                  ("tabs connected", f"{figures.connected} of {args.sessions}"),
                  ("events/s", f"{figures.events / elapsed:.1f}"),
                  ("round trip p50 / p95 / p99 ms", " / ".join(f"{percentile(trips, share):.0f}"
                                                               for share in (0.5, 0.95, 0.99)))]
    rows += [(f"  {kind} p50 / p95 ms", f"{percentile(times, 0.5):.0f} / {percentile(times, 0.95):.0f}")
             for kind, times in sorted(figures.by_kind.items())]
    rows += [("API calls/s", f"{len(api) / elapsed:.1f}"),
             ("API p50 / p95 ms", f"{percentile(api, 0.5):.0f} / {percentile(api, 0.95):.0f}")]
    rows += [(f"  {call} p50 / p95 ms", f"{percentile(times, 0.5):.0f} / {percentile(times, 0.95):.0f}")
             for call, times in sorted(figures.api_by_call.items())]
    rows += [("errors (server tracebacks)", f"{len(figures.errors)} ({len(tracebacks)})"),
             ("RSS MB start -> end, all", f"{total(rss_start):.1f} -> {total(rss_end):.1f}")]
    rows += [(f"  {name}", f"{rss_start[name]:.1f} -> {rss_end[name]:.1f}") for name in rss_start
             if len(rss_start) > 1]
    return passed, rows


async def cycles(args: argparse.Namespace, served: Served, url: str, origin: str) -> tuple[bool, Rows]:
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
    rss_before = served.rss()
    figures.round_trips.clear()
    print(f"RSS after 100 warm-up cycles: {total(rss_before):.1f} MB{rss_detail(rss_before)}", flush=True)
    started = time.monotonic()
    await run(args.cycles)
    elapsed = time.monotonic() - started
    await asyncio.sleep(5)  # page queries still running for closed tabs finish
    rss_after = served.rss()
    tracebacks = log_tracebacks(served.log)
    for line in tracebacks[:5]:
        figures.error(f"server log traceback: {line}")
    if served.restarted():
        figures.error("a worker process died and was replaced")
    firsts = sorted(figures.round_trips)
    print(f"{args.cycles} connect/first render/close cycles, {args.parallel} at a time, in {elapsed:.0f} s "
          f"({args.cycles / elapsed:.1f}/s); first render p50 {percentile(firsts, 0.5):.0f} ms, "
          f"p95 {percentile(firsts, 0.95):.0f} ms")
    print(f"errors: {len(figures.errors)}")
    print(f"{'PASS' if not figures.errors else 'FAIL'}  errors: {len(figures.errors)} (goal: 0)")
    flat = growth_line("memory after the cycles", total(rss_before), total(rss_after))
    rows: Rows = [("cycles/s", f"{args.cycles / elapsed:.1f}"),
                  ("first render p50 / p95 ms", f"{percentile(firsts, 0.5):.0f} / {percentile(firsts, 0.95):.0f}"),
                  ("errors", str(len(figures.errors))),
                  ("RSS MB before -> after, all", f"{total(rss_before):.1f} -> {total(rss_after):.1f}")]
    return flat and not figures.errors, rows


def side_by_side(columns: dict[str, Rows]) -> None:
    """One table, a column a rung; a row only one rung has (a worker's RSS) is blank in the others."""
    labels = list(dict.fromkeys(label for rows in columns.values() for label, _ in rows))
    width = max(map(len, labels))
    cells = {rung: dict(rows) for rung, rows in columns.items()}
    wide = {rung: max(len(rung), *(len(value) for value in cells[rung].values())) for rung in columns}
    print("\n" + " " * width + "  " + "  ".join(rung.rjust(wide[rung]) for rung in columns))
    for label in labels:
        print(label.ljust(width) + "  " + "  ".join(cells[rung].get(label, "").rjust(wide[rung])
                                                   for rung in columns))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("soak", "cycles"), default="soak")
    parser.add_argument("--rung", choices=RUNGS, default="embedded")
    parser.add_argument("--rungs", help="several rungs in turn, comma-separated (embedded,workers): one table after")
    parser.add_argument("--workers", type=int, default=2, help="server processes of the workers rung")
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
    rungs = args.rungs.split(",") if args.rungs else [args.rung]
    if unknown := set(rungs) - set(RUNGS):
        parser.error(f"--rungs: unknown {', '.join(sorted(unknown))} (known: {', '.join(RUNGS)})")
    columns: dict[str, Rows] = {}
    passed = True
    for rung in rungs:
        port = args.port or free_port()
        print(f"\n== {rung} == load average {os.getloadavg()[0]:.1f}", flush=True)
        if rung == "workers":
            print(SERIALIZED_FRONT, flush=True)
        prepared = time.monotonic()
        with serving(rung, args, port) as served:
            await ready(served, args.workers if rung == "workers" else 1)
            url, origin = ws_url(port)
            print(f"server pid {served.pid}{''.join(f', worker {pid}' for pid in served.workers)} on port {port} "
                  f"(data {served.log.parent}, ready in {time.monotonic() - prepared:.0f} s); load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
            rung_passed, columns[served.label] = await (soak if args.mode == "soak" else cycles)(
                args, served, url, origin)
            passed = passed and rung_passed
            print(f"load average at the end {os.getloadavg()[0]:.1f}")
    if len(columns) > 1:
        side_by_side(columns)
        if "workers" in rungs:
            print(SERIALIZED_FRONT)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    asyncio.run(main())
