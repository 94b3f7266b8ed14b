"""The Python client (clients/python) reading every campaign of bench/campaign_list.py's seed (10,000, of which
8,012 are not archived and listed) from a live server, pages of 500: the whole list through
`client.campaigns.iterate()` (typed models) beside the same pages read with bare httpx (JSON only), so the
difference is what the client's models cost; and the time to validate one page already fetched. SQLite in a
throwaway data directory.

    .venv/bin/python bench/python_client.py
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
import campaign_list  # noqa: E402  # picks a throwaway data directory on import, before the app reads its settings
import httpx  # noqa: E402
from dsp_console_client import Campaign, DspConsole, Page  # noqa: E402

from app.demo.seed import DEMO_PASSWORD  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from tests.faults import Server  # noqa: E402

ROUNDS = 5
LIMIT = 500


def timed(read: object) -> tuple[float, int]:
    """Median seconds of ROUNDS reads of the whole list, and the rows read."""
    times, rows = [], 0
    for _ in range(ROUNDS):
        started = time.perf_counter()
        rows = read()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times), rows


def main() -> None:
    migrate()
    with session_scope() as db:
        campaign_list.seed(db)
    server = Server(Path(tempfile.mkdtemp(prefix="dsp-bench-client-"))).start()
    try:
        with DspConsole.sign_in(server.url, "admin@demo.example", DEMO_PASSWORD) as client:
            headers = {"Authorization": f"Bearer {client.transport.token}"}

            def typed() -> int:
                return sum(1 for _ in client.campaigns.iterate(limit=LIMIT))

            def bare() -> int:
                rows, cursor = 0, None
                with httpx.Client(base_url=server.url, headers=headers, timeout=60) as http:
                    while True:
                        params = {"limit": LIMIT, **({"cursor": cursor} if cursor else {})}
                        page = http.get("/api/campaigns", params=params).json()["data"]
                        rows += len(page["items"])
                        if not (cursor := page["next_cursor"]):
                            return rows

            bare_s, bare_rows = timed(bare)
            typed_s, typed_rows = timed(typed)
            data = httpx.get(f"{server.url}/api/campaigns", params={"limit": LIMIT}, headers=headers).json()["data"]
            started = time.perf_counter()
            for _ in range(20):
                Page[Campaign].model_validate(data)
            validate_ms = (time.perf_counter() - started) / 20 * 1000
        print(f"{bare_rows:,} campaigns, pages of {LIMIT}, median of {ROUNDS} reads of the whole list:")
        print(f"  bare httpx (JSON only)      {bare_s:6.2f} s")
        print(f"  client.campaigns.iterate()  {typed_s:6.2f} s  ({typed_rows:,} typed rows)")
        print(f"  validating one page of {LIMIT} into models: {validate_ms:.1f} ms")
    finally:
        server.stop()
        shutil.rmtree(campaign_list.DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
