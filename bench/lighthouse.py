"""Lighthouse performance of every role's dashboard and of the campaign list, signed in, against a baseline.

Two servers are started as `make run` starts them (migrate, seed-demo, simulate --days 30, serve), each in a
throwaway data directory: one from this checkout, one from `--baseline` (a git ref, `main` by default,
extracted with `git archive`). Each page is then measured `--runs` times (3) on each, interleaved, so load
from whatever else the machine runs falls on both alike. Printed per page: the median performance score, first
and largest contentful paint, cumulative layout shift, total blocking time and bytes transferred, the
baseline's beside this checkout's, and the goals (score >= 0.95, CLS <= 0.02, LCP <= 1.5 s).

Lighthouse is the npm package pinned in bench/lighthouse/package.json (12.2.3: 13 wants Node 22), with its
desktop preset (no mobile emulation; simulated throttling of a 40 ms, 10 Mbit/s link, CPU unthrottled), run on
Debian's chromium. The session cookie is got as a browser gets it (sign in on /login, trade the ticket) and
handed to Lighthouse as an extra header, which Chromium sends with every request, the websocket's included.

    cd bench/lighthouse && npm ci   # once
    .venv/bin/python bench/lighthouse.py [--runs 3] [--baseline main | --no-baseline] [--details]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.console_client import browser_cookie, free_port, start_server, ws_url  # noqa: E402

LIGHTHOUSE_CLI = ROOT / "bench" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_PATH = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
                "--disable-sync --no-first-run")
# (label, who signs in, path): every role's dashboard and the campaign list (staff's and an advertiser's).
PAGES = (
    ("admin dashboard", "admin@demo.example", "/admin/dashboard"),
    ("co-admin dashboard", "coadmin@demo.example", "/co-admin/dashboard"),
    ("agency dashboard", "agency@demo.example", "/agency/dashboard"),
    ("advertiser dashboard", "advertiser@demo.example", "/dashboard"),
    ("admin campaign list", "admin@demo.example", "/admin/campaign"),
    ("advertiser campaign list", "advertiser@demo.example", "/campaign"),
)
GOALS = {"score": 0.95, "cls": 0.02, "lcp_ms": 1500}


@dataclass
class Run:
    score: float
    fcp_ms: float
    lcp_ms: float
    cls: float
    tbt_ms: float
    kib: float
    lcp_element: str
    shifts: list[str]


@dataclass
class Server:
    name: str
    origin: str
    process: subprocess.Popen[bytes]
    cookies: dict[str, str]


def lighthouse(url: str, cookie: str, attempts: int = 3) -> Run:
    """One Lighthouse run; tried again when Lighthouse itself fails (on a loaded machine its trace sometimes
    misses the navigation start: NO_NAVSTART)."""
    with tempfile.TemporaryDirectory(prefix="dsp-lighthouse-") as scratch:
        report_path = Path(scratch) / "report.json"
        for attempt in range(attempts):
            done = subprocess.run(
                ["node", str(LIGHTHOUSE_CLI), url, "--preset=desktop", "--only-categories=performance",
                 "--output=json", f"--output-path={report_path}", f"--chrome-flags={CHROME_FLAGS}",
                 f"--extra-headers={json.dumps({'Cookie': f'dsp_session={cookie}'})}", "--quiet"],
                env={**os.environ, "CHROME_PATH": CHROME_PATH}, cwd=scratch, timeout=300, check=False)
            if done.returncode == 0:
                break
            print(f"  Lighthouse failed on {url} (attempt {attempt + 1} of {attempts})", file=sys.stderr, flush=True)
        else:
            raise SystemExit(f"Lighthouse failed {attempts} times on {url}")
        report = json.loads(report_path.read_text())
    final_url = report.get("finalDisplayedUrl", "")
    if not final_url.endswith(url.split("/", 3)[-1]):
        raise SystemExit(f"{url} ended on {final_url}: not signed in?")
    audits = report["audits"]

    def value(name: str) -> float:
        return float(audits[name]["numericValue"])

    lcp_items = audits.get("largest-contentful-paint-element", {}).get("details", {}).get("items", [])
    lcp_node = next((item for table in lcp_items for item in table.get("items", []) if "node" in item), {})
    shift_items = audits.get("layout-shifts", {}).get("details", {}).get("items", [])
    shifts = [f"{item.get('score', 0):.3f} {item.get('node', {}).get('selector', '?')}" for item in shift_items]
    return Run(score=float(report["categories"]["performance"]["score"]), fcp_ms=value("first-contentful-paint"),
               lcp_ms=value("largest-contentful-paint"), cls=value("cumulative-layout-shift"),
               tbt_ms=value("total-blocking-time"), kib=value("total-byte-weight") / 1024,
               lcp_element=lcp_node.get("node", {}).get("selector", "?"), shifts=shifts)


def middle(values: list[float]) -> float:
    """The median (the upper one of an even count). By hand: `import statistics` would find bench/statistics.py,
    the script's own folder being first on the path."""
    return sorted(values)[len(values) // 2]


def median(runs: list[Run]) -> Run:
    """Each figure's median over the runs (the LCP element and the shifts from the run with the median score)."""
    typical = sorted(runs, key=lambda r: r.score)[len(runs) // 2]
    return Run(score=middle([r.score for r in runs]), fcp_ms=middle([r.fcp_ms for r in runs]),
               lcp_ms=middle([r.lcp_ms for r in runs]), cls=middle([r.cls for r in runs]),
               tbt_ms=middle([r.tbt_ms for r in runs]), kib=middle([r.kib for r in runs]),
               lcp_element=typical.lcp_element, shifts=typical.shifts)


def describe(run: Run) -> str:
    return (f"score {run.score:4.2f}  FCP {run.fcp_ms / 1000:4.2f} s  LCP {run.lcp_ms / 1000:4.2f} s  "
            f"CLS {run.cls:5.3f}  TBT {run.tbt_ms:4.0f} ms  {run.kib:5.0f} KiB")


def verdict(run: Run) -> str:
    misses = [name for name, ok in (("score", run.score >= GOALS["score"]), ("CLS", run.cls <= GOALS["cls"]),
                                    ("LCP", run.lcp_ms <= GOALS["lcp_ms"])) if not ok]
    return "goals met" if not misses else "MISSED: " + ", ".join(misses)


@contextlib.contextmanager
def baseline_checkout(ref: str) -> Iterator[Path]:
    """`ref` extracted into a temporary directory (committed files only, built bundles included)."""
    with tempfile.TemporaryDirectory(prefix="dsp-baseline-") as target:
        archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", target], input=archive, check=True)
        yield Path(target)


def serve(name: str, app_dir: Path, log_dir: Path) -> Server:
    """A server of `app_dir` on demo data with 30 simulated days, in a data directory of its own."""
    port = free_port()
    os.environ["DSP_DATA_DIR"] = tempfile.mkdtemp(prefix=f"dsp-lighthouse-{name}-")
    process = start_server(app_dir, port, simulate_days=30, log=log_dir / f"server-{name}.log")
    url, origin = ws_url(port)
    emails = sorted({email for _label, email, _path in PAGES})
    cookies = {email: asyncio.run(browser_cookie(url, origin, email)) for email in emails}
    return Server(name=name, origin=origin, process=process, cookies=cookies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", default="main", help="git ref measured beside this checkout")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--details", action="store_true", help="the LCP element and the layout shifts too")
    parser.add_argument("--pages", default="", help="only pages whose label contains this text")
    args = parser.parse_args()
    if not LIGHTHOUSE_CLI.exists():
        raise SystemExit("Lighthouse is not installed: cd bench/lighthouse && npm ci")
    pages = [page for page in PAGES if args.pages in page[0]]
    log_dir = Path(tempfile.mkdtemp(prefix="dsp-lighthouse-logs-"))
    with contextlib.ExitStack() as stack:
        servers: list[Server] = []
        if not args.no_baseline:
            servers.append(serve("baseline", stack.enter_context(baseline_checkout(args.baseline)), log_dir))
        servers.append(serve("current", ROOT, log_dir))
        for server in servers:
            stack.callback(server.process.terminate)
        print(f"Lighthouse 12.2.3, desktop preset, median of {args.runs} runs; server logs in {log_dir}", flush=True)
        results: dict[tuple[str, str], list[Run]] = {}
        for _ in range(args.runs):  # interleaved: a burst of load elsewhere falls on both servers alike
            for label, email, path in pages:
                for server in servers:
                    run = lighthouse(server.origin + path, server.cookies[email])
                    print(f"  {label} on {server.name}: {describe(run)}", file=sys.stderr, flush=True)
                    results.setdefault((label, server.name), []).append(run)
        for label, _email, path in pages:
            print(f"\n{label} ({path})")
            for server in servers:
                result = median(results[(label, server.name)])
                name = f"{args.baseline} (baseline)" if server.name == "baseline" else "this checkout"
                print(f"  {name:<22} {describe(result)}  {verdict(result)}")
                if args.details:
                    print(f"      LCP element: {result.lcp_element}")
                    for shift in result.shifts:
                        print(f"      shift {shift}")


if __name__ == "__main__":
    main()
