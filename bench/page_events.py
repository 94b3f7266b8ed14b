"""What one click costs the server's event loop, page by page: the soak's pages and controls (bench/load_soak.py)
rendered in this process, without a browser or a socket, so the figure is the rendering alone.

For each demo role and each of its soak pages, the page is rendered settled, then each of its controls is
clicked `--rounds` times (a select moves to its next option); every layout update the click causes, its
query answer included, is timed and measured as the JSON that would cross the websocket. Printed per page:
milliseconds of rendering per click and kilobytes sent per click, with the total beside the budget that 200
tabs clicking every 2-5 s leave one event loop (about 57 clicks/s, so under ~17 ms a click).

    .venv/bin/python bench/page_events.py [--rounds 6]

It runs on a throwaway data directory with the demo data and 30 simulated days, as `make run` has them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

from app.accounts.console import console_state  # noqa: E402
from app.kernel.db import run  # noqa: E402
from bench.console_client import EMAILS, find_target  # noqa: E402
from bench.load_soak import CONTROLS, FULLSCREEN, PAGE_KINDS, event_data, page_path  # noqa: E402
from bench.render_shell import cookie_for  # noqa: E402
from components.pages import ROUTES, pages_for  # noqa: E402
from components.shell.frame import PageFrame  # noqa: E402
from components.ui.console import inert_console  # noqa: E402
from components.ui.hooks import in_flight  # noqa: E402
from tests.render import _layout, _render_scheduled, apply_update, settle  # noqa: E402

CLICKS_PER_S = 200 / 3.5  # 200 tabs, one click every 2-5 s each


async def measure(email: str, kind: str, rounds: int) -> tuple[float, float, int]:
    """(ms of rendering per click, KB sent per click, clicks) for one page."""
    console = inert_console(run(console_state, token=cookie_for(email), host=""), routes=ROUTES)
    path = page_path(email, kind)
    page = next(p for p in pages_for(console.role) if p.path == path)
    rendering, sent, clicks = 0.0, 0, 0
    async with _layout(lambda: PageFrame(page), console, path) as layout:
        model = await settle(layout, (await layout.render())["model"])
        controls = [c for c in (*CONTROLS[kind], FULLSCREEN) if find_target(model, c.event, c.within, **c.attrs)]
        for _ in range(rounds):
            for control in controls:
                target = find_target(model, control.event, control.within, **control.attrs)
                if target is None:  # not shown just now (a list being reloaded)
                    continue
                data = event_data(model, control)
                await layout.deliver({"type": "layout-event", "target": target, "data": data})
                clicks += 1
                while True:  # every update the click causes, until its reads have answered and rendered
                    started = time.perf_counter()
                    update = await asyncio.wait_for(layout.render(), 30)
                    rendering += time.perf_counter() - started
                    sent += len(json.dumps(update))
                    model = apply_update(model, update)
                    pending = in_flight()
                    if pending:
                        await asyncio.wait(pending, timeout=30)
                    if not _render_scheduled(layout) and not in_flight():
                        break
    return rendering * 1000 / max(clicks, 1), sent / 1024 / max(clicks, 1), clicks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    rounds = parser.parse_args().rounds
    python = sys.executable
    for step in (["migrate"], ["seed-demo"], ["simulate", "--days", "30", "--if-empty"]):
        subprocess.run([python, "-m", "app", *step], cwd=ROOT, check=True, capture_output=True)
    weighted = 0.0
    for email in EMAILS:
        for kind in PAGE_KINDS:
            ms, kb, clicks = asyncio.run(measure(email, kind, rounds))
            weighted += ms / (len(EMAILS) * len(PAGE_KINDS))
            print(f"{email:<26} {kind:<10} {ms:7.1f} ms/click {kb:7.1f} KB/click  ({clicks} clicks)", flush=True)
    print(f"mean over pages: {weighted:.1f} ms of rendering per click; at {CLICKS_PER_S:.0f} clicks/s that is "
          f"{weighted * CLICKS_PER_S / 10:.0f} % of one event loop (budget: 100 %)")


if __name__ == "__main__":
    main()
