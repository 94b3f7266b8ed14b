"""What the websocket benches share: a real server in a throwaway data directory, and a client that speaks
ReactPy's protocol to it the way a browser tab does (sign in on /login, open a page's websocket, find an
element's event target in the rendered model, send events, wait for the layout updates they cause).

The benches touch the server only over HTTP and websockets, so the same client can drive an older checkout
(`--app-dir`) for a before/after comparison.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from app.demo.seed import DEMO_PASSWORD  # noqa: E402
from tests.render import apply_update, walk  # noqa: E402

TICKET = re.compile(r'"ticket":"([^"]+)"')

HOMES = {"advertiser@demo.example": "/dashboard", "agency@demo.example": "/agency/dashboard",
         "admin@demo.example": "/admin/dashboard", "coadmin@demo.example": "/co-admin/dashboard"}
EMAILS = tuple(HOMES)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(app_dir: Path, port: int, *, simulate_days: int = 0, log: Path | None = None,
                 settings: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`make run`'s steps (migrate, seed-demo, and `simulate --days N` when asked), then `python -m app serve`
    on `port` as a process of its own, its output in `log` (or BENCH_SERVER_LOG, or nowhere); `settings` are
    environment variables over this process's (DATABASE_URL, DSP_WORKERS, ...) for every step."""
    env = {**os.environ, "PORT": str(port), "DSP_ENVIRONMENT": "development", **(settings or {})}
    python = sys.executable
    steps = [["migrate"], ["seed-demo"]] + ([["simulate", "--days", str(simulate_days), "--if-empty"]]
                                            if simulate_days else [])
    for step in steps:
        subprocess.run([python, "-m", "app", *step], cwd=app_dir, env=env, check=True, capture_output=True)
    out: TextIO = open(log or os.environ.get("BENCH_SERVER_LOG", os.devnull), "w")  # noqa: SIM115
    server = subprocess.Popen([python, "-m", "app", "serve"], cwd=app_dir, env=env, stdout=out, stderr=out)
    deadline = time.monotonic() + 180  # a busy machine (load average 14) took over 30 s to import the app
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def rss_mb(pid: int) -> float:
    """A process's resident set size in MB, from /proc (psutil is not among the project's dependencies)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is `pid` (a `serve` supervisor's workers), from /proc, oldest first."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()  # after the command name, which may hold spaces
        except OSError:  # it ended while we looked
            continue
        if int(fields[1]) == pid:
            children.append((int(fields[19]), int(stat.parent.name)))  # (start time, pid)
    return [child for _started, child in sorted(children)]


def percentile(ordered: list[float], share: float) -> float:
    """The value below which `share` of the sorted values lie (nearest rank)."""
    if not ordered:
        return float("nan")
    return ordered[max(0, min(len(ordered) - 1, int(len(ordered) * share + 0.5) - 1))]


def find_target(model: dict[str, Any], event: str, within: dict[str, Any] | None = None,
                **attributes: Any) -> str | None:
    """The event target of the first element with these attributes that handles `event` (inside the first
    element with the `within` attributes, when given), or None while the page has none."""
    roots = [model]
    if within:
        roots = [node for node in walk(model) if has_attributes(node, within)][:1]
    for root in roots:
        for node in walk(root):
            handler = node.get("eventHandlers", {}).get(event)
            if handler and has_attributes(node, attributes):
                return str(handler["target"])
    return None


def has_attributes(node: dict[str, Any], attributes: dict[str, Any]) -> bool:
    attrs = node.get("attributes", {})
    return all(str(attrs.get(key)) == str(value) for key, value in attributes.items())


def option_values(model: dict[str, Any], select_name: str) -> list[str]:
    """The option values of the <select name=select_name> in a rendered model."""
    for node in walk(model):
        if node.get("tagName") == "select" and node.get("attributes", {}).get("name") == select_name:
            return [str(child["attributes"]["value"]) for child in walk(node)
                    if child.get("tagName") == "option" and "value" in child.get("attributes", {})]
    return []


class Tab:
    """One page's websocket. It keeps the page's model up to date while `following` (until the bench has found
    its targets); after that it only queues the raw updates, so the bench's own CPU use stays out of the
    figures. `closed` is set when the server ends the connection."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url, self.headers = url, headers
        self.model: dict[str, Any] = {}
        self.following = True
        self.updates: asyncio.Queue[str] = asyncio.Queue()
        self.closed = asyncio.Event()

    async def __aenter__(self) -> Tab:
        self.socket = await connect(self.url, additional_headers=self.headers, max_size=None, open_timeout=30)
        self.reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_: Any) -> None:
        self.reader.cancel()
        await self.socket.close()

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                if self.following:
                    message = json.loads(raw)
                    if message.get("type") == "layout-update":
                        self.model = apply_update(self.model, message)
                await self.updates.put(str(raw))
        finally:
            self.closed.set()

    async def next_update(self, timeout: float = 30) -> str:
        """The next message from the server; raises ConnectionError if the server closed the socket first."""
        getting = asyncio.ensure_future(self.updates.get())
        closing = asyncio.ensure_future(self.closed.wait())
        try:
            done, _ = await asyncio.wait({getting, closing}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
        if getting in done:
            return getting.result()
        getting.cancel()
        if closing in done:
            raise ConnectionError(f"the server closed the websocket ({self.socket.close_code})")
        raise TimeoutError(f"no update within {timeout:.0f} s")

    async def handler(self, event: str, within: dict[str, Any] | None = None, **attributes: Any) -> str:
        """The event target of the first element with these attributes that handles `event`, waiting for it
        to be rendered."""
        while (target := find_target(self.model, event, within, **attributes)) is None:
            await self.next_update()
        return target

    async def send(self, target: str, data: list[Any]) -> None:
        while not self.updates.empty():
            self.updates.get_nowait()
        await self.socket.send(json.dumps({"type": "layout-event", "target": target, "data": data}))


def ws_url(port: int) -> tuple[str, str]:
    """(the websocket URL a page path is appended to, the HTTP origin)."""
    return f"ws://127.0.0.1:{port}/reactpy/?path=", f"http://127.0.0.1:{port}"


def page_tab(url: str, origin: str, path: str, cookie: str | None = None) -> Tab:
    headers = {"Origin": origin} | ({"Cookie": f"dsp_session={cookie}"} if cookie else {})
    return Tab(f"{url}{path}&qs=", headers)


async def sign_in(url: str, origin: str, email: str) -> tuple[float, str]:
    """(milliseconds, the one-time ticket the page hands its session agent) of one sign-in on /login."""
    started = time.perf_counter()
    async with page_tab(url, origin, "/login") as tab:
        # Typed first, each keystroke's render awaited, then submitted: so an older build whose form reads
        # only its state signs in too, and the two can be compared (--app-dir).
        fields = {"email": email, "password": DEMO_PASSWORD}
        targets = {name: await asyncio.wait_for(tab.handler("onChange", name=name), 30) for name in fields}
        submit = await asyncio.wait_for(tab.handler("onSubmit", name="login"), 30)
        for name, value in fields.items():
            await tab.send(targets[name], [{"target": {"value": value}}])
            await tab.next_update()
        elements = [{"name": name, "type": name, "value": value} for name, value in fields.items()]
        await tab.send(submit, [{"type": "submit", "target": elements}])
        while (found := TICKET.search(await tab.next_update())) is None:
            pass  # the update that gives the session agent its ticket ends the sign-in
    return (time.perf_counter() - started) * 1000, found.group(1)


async def browser_cookie(url: str, origin: str, email: str) -> str:
    """A session cookie got the way a browser gets one: sign in on /login, then trade the ticket (as the
    session agent does)."""
    _ms, ticket = await sign_in(url, origin, email)
    async with httpx.AsyncClient(base_url=origin) as http:
        reply = await http.post("/api/auth/session", json={"ticket": ticket},
                                 headers={"X-Requested-With": "dsp-console", "Origin": origin})
        reply.raise_for_status()
        return reply.cookies["dsp_session"]
