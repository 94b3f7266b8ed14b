"""What a keystroke and a click cost in the browser, with ReactPy's client as it ships ("stock") and with the
console's fixes to it (static/shell/lean-events.js, "lean"): issue 24's goals of at most 1 KB a keystroke and a
click reaching the DOM in at most 12 ms p50 on /admin/users.

Against one server started as `make run` starts it (migrate, seed-demo, serve; a throwaway data directory), Debian's
chromium (Playwright, never `playwright install`) signs in as the admin and, for each mode in turn, `--runs` times:

- types 40 characters at 20 keys a second into the campaign form's name (/admin/campaignForm) and the brand settings'
  footer text (/admin/settings), and divides the bytes the websocket sent by the keystrokes (and counts the
  characters missing from the field once it has settled: the stock client drops some);
- clicks the topbar's language menu open and shut `--clicks` times on /admin/users (a real mouse click each, the next
  once the last has shown), timing in the page from the click event's time stamp to the event leaving on the
  websocket ("client ms") and to the DOM changing ("click->DOM ms"); "apply ms" is from the server's first message
  after the click to that change (the client applying the update). The rest is the server and the loopback.

"Stock" serves an empty lean-events.js to the page (Playwright routes the request), which leaves ReactPy's client as
it ships. Printed: each run, then the median over runs of each figure, stock beside lean, against the goals.

    .venv/bin/python bench/client_events.py [--runs 3] [--clicks 40] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and its statistics.py would hide the standard library's.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager, nullcontext, suppress  # noqa: E402
from difflib import SequenceMatcher  # noqa: E402

import httpx  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
PASSWORD = "demo-Pass-2026"
TYPED = "Winter launch 2027 - northern markets 01"  # 40 characters
KEYSTROKE_GOAL_BYTES = 1024
CLICK_GOAL_MS = 12.0
FIELDS = {"campaign name": ("/admin/campaignForm", "#field-name"),
          "brand footer": ("/admin/settings", "#field-footer_text")}
STOCK_CLIENT = "export function installLeanEvents() {}"

# Installed in the page before its scripts: the time each websocket message leaves and arrives. DevTools adds it, so the page's
# Content-Security-Policy does not apply to it.
WATCH_SENDS = """
window.__sends = [];
window.__receives = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.__sends.push(performance.now()); return send.call(this, data); };
// Listening from the socket's creation puts this listener before the client's own onmessage.
window.WebSocket = class extends WebSocket {
    constructor(...args) {
        super(...args);
        this.addEventListener('message', () => window.__receives.push(performance.now()));
    }
};
"""
# Click -> DOM: from the click event's time stamp to the mutation that flips the toggle's aria-expanded.
WATCH_CLICKS = """toggle => {
    window.__clicks = [];
    let pending = null;
    window.addEventListener('click', event => {
        pending = {at: event.timeStamp, sends: window.__sends.length, receives: window.__receives.length};
    }, true);
    new MutationObserver(() => {
        if (!pending) return;
        const now = performance.now();
        const sent = window.__sends[pending.sends];
        const received = window.__receives[pending.receives];
        window.__clicks.push({dom: now - pending.at, client: sent === undefined ? null : sent - pending.at,
                              apply: received === undefined ? null : now - received});
        pending = null;
    }).observe(toggle, {attributes: true, attributeFilter: ['aria-expanded']});
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def demo_server() -> Iterator[str]:
    env = {**os.environ, "DSP_DATA_DIR": tempfile.mkdtemp(prefix="dsp-bench-events-")}
    for step in (["migrate"], ["seed-demo"]):
        subprocess.run([sys.executable, "-m", "app", *step], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "app", "serve"], cwd=ROOT, env={**env, "PORT": str(port)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            raise RuntimeError("the server did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def wait_until(page: Page, expression: str, timeout_s: float = 15) -> None:
    """Until `expression` is truthy in the page (page.wait_for_function would need eval, which the CSP forbids)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        page.wait_for_timeout(10)


def open_page(browser: Browser, url: str, mode: str) -> Page:
    context = browser.new_context(base_url=url, viewport={"width": 1440, "height": 900})
    context.set_default_timeout(30_000)
    if mode == "stock":
        context.route("**/static/shell/lean-events.js",
                      lambda route: route.fulfill(content_type="text/javascript", body=STOCK_CLIENT))
    context.add_init_script(WATCH_SENDS)
    page = context.new_page()
    page.goto("/login")
    page.fill("#field-email", "admin@demo.example")
    page.fill("#field-password", PASSWORD)
    page.click("form[name=login] button[type=submit]")
    page.wait_for_url("**/admin/dashboard")
    page.wait_for_selector(".dsp-shell")
    return page


def bytes_per_keystroke(page: Page, path: str, selector: str) -> tuple[float, float]:
    """(bytes sent per keystroke, typed characters missing from the field afterwards, in order)."""
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(
        len(frame.encode() if isinstance(frame, str) else frame))))
    page.goto(path)
    page.wait_for_selector(selector)
    page.fill(selector, "")
    page.focus(selector)
    page.wait_for_timeout(500)  # past the page's own start-up messages
    before = len(sent)
    page.keyboard.type(TYPED, delay=50)  # 20 keys a second
    with suppress(TimeoutError):  # the stock client can lose keys: then the field never shows the whole text
        wait_until(page, f"document.querySelector('{selector}').value === {TYPED!r}", timeout_s=5)
    page.wait_for_timeout(300)
    shown = page.input_value(selector)
    kept = sum(block.size for block in SequenceMatcher(None, TYPED, shown, autojunk=False).get_matching_blocks())
    return sum(sent[before:]) / len(TYPED), float(len(TYPED) - kept)


def click_timings(page: Page, clicks: int) -> tuple[float, float, float]:
    """p50s in ms on /admin/users: click -> event sent, update received -> DOM, click -> DOM."""
    page.goto("/admin/users")
    page.wait_for_selector("#field-role_filter")
    toggle = page.locator("[data-dropdown=language] > button")
    page.evaluate(WATCH_CLICKS, toggle.element_handle())
    for done in range(clicks):
        # A mouse click at the toggle's centre; when the menu is open, its backdrop there takes it and closes it.
        toggle.click(force=True)
        wait_until(page, f"window.__clicks.length > {done}")
        page.wait_for_timeout(60)  # a pause, as between a person's clicks
    rows = page.evaluate("window.__clicks")
    return (statistics.median(r["client"] for r in rows if r["client"] is not None),
            statistics.median(r["apply"] for r in rows if r["apply"] is not None),
            statistics.median(r["dom"] for r in rows))


def run(browser: Browser, url: str, mode: str, clicks: int) -> dict[str, float]:
    page = open_page(browser, url, mode)
    figures: dict[str, float] = {}
    for name, (path, selector) in FIELDS.items():
        figures[name], figures[f"{name} keys lost"] = bytes_per_keystroke(page, path, selector)
    figures["client ms"], figures["apply ms"], figures["click->DOM ms"] = click_timings(page, clicks)
    page.context.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--url", help="a running console (with the demo data) instead of starting one")
    args = parser.parse_args()
    with (nullcontext(args.url) if args.url else demo_server()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        results: dict[str, list[dict[str, float]]] = {"stock": [], "lean": []}
        open_page(browser, url, "lean").context.close()  # warm-up: the server's first pages, imports, caches
        for number in range(args.runs):
            for mode in results:  # alternated, so both see the same machine
                figures = run(browser, url, mode, args.clicks)
                results[mode].append(figures)
                print(f"run {number + 1} {mode:<5} " + "  ".join(f"{name} {value:,.{1 if 'ms' in name else 0}f}"
                                                              for name, value in figures.items()), flush=True)
        browser.close()
    print(f"\nmedian of {args.runs} runs           stock        lean   goal")
    for name in results["lean"][0]:
        stock, lean = (statistics.median(r[name] for r in results[mode]) for mode in ("stock", "lean"))
        if "lost" in name:
            print(f"{name:<26} {stock:8.0f}    {lean:8.0f}      0  {'met' if lean == 0 else 'NOT met'}")
        elif "ms" in name:
            goal = f"<= {CLICK_GOAL_MS:.0f} ms" if name.startswith("click") else ""
            met = "" if not goal else ("  met" if lean <= CLICK_GOAL_MS else "  NOT met")
            print(f"{name:<26} {stock:8.1f} ms {lean:8.1f} ms  {goal}{met}")
        else:
            met = "met" if lean <= KEYSTROKE_GOAL_BYTES else "NOT met"
            print(f"{name + ' per keystroke':<26} {stock:8,.0f} B  {lean:8,.0f} B   <= 1 KB  {met}")


if __name__ == "__main__":
    main()
