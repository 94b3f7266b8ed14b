"""One statistics batch of a million rows through the API (issue 23: <= 20 s on DuckDB and on chDB).

For each store: a server started as `make run` starts it (migrate, seed-demo, serve) in a throwaway data directory
with `DSP_STATISTICS_URL` set for the store, an admin's API sign-in, then one `POST /api/statistics/batches/csv` of
ROWS lines over the demo's campaigns (hourly rows of the last 30 days, three exchanges, two systems, four
countries, 5,000 apps, one custom event on a tenth of the lines), timed from the first byte sent to the receipt,
and a read back of the stored total. Prints seconds and rows per second per store, and the figure a single
50,000-row JSON batch (the JSON call's limit) takes, as the baseline a client would otherwise have: twenty of them.

Usage: `.venv/bin/python bench/ingest_batch.py [rows] [--stores duckdb,chdb]`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.demo.seed import DEMO_PASSWORD  # noqa: E402
from bench.console_client import free_port, rss_mb, start_server  # noqa: E402

STORES = {"duckdb": "duckdb:///bench.duckdb", "chdb": "chdb:///bench.chdb"}
HEADER = ("hour,advertiser_id,campaign_id,creative_id,exchange,os,country,app,device_type,impressions,clicks,"
          "spend_micros,conversions,event_install")


def batch_csv(count: int, placements: list[tuple[int, int, int]], seed: int = 23) -> str:
    """`count` lines over the (advertiser, campaign, creative) placements, hours of the last 30 days."""
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    hours = [(now - timedelta(hours=h)).strftime("%Y-%m-%dT%H:00:00Z") for h in range(1, 30 * 24)]
    lines = [HEADER]
    for _ in range(count):
        advertiser, campaign, creative = rng.choice(placements)
        impressions = rng.randrange(1, 5000)
        clicks = rng.randrange(impressions // 40 + 1)
        lines.append(f"{rng.choice(hours)},{advertiser},{campaign},{creative},"
                     f"{rng.choice(('Google AdX', 'Magnite', 'PubMatic'))},{rng.choice(('Android', 'iOS'))},"
                     f"{rng.choice(('US', 'DE', 'IN', 'FR'))},app{rng.randrange(5000)}.example,"
                     f"{rng.choice(('phone', 'tablet'))},{impressions},{clicks},{impressions * rng.randrange(500, 3000)},"
                     f"{rng.randrange(clicks + 1)},{rng.randrange(1, 4) if rng.random() < 0.1 else ''}")
    return "\n".join(lines) + "\n"


def placements_of(client: httpx.Client) -> list[tuple[int, int, int]]:
    """(advertiser, campaign, creative or 0) for every demo campaign, through the API."""
    campaigns = client.get("/api/campaigns", params={"limit": 500}).json()["data"]["items"]
    creatives: dict[int, list[int]] = {}
    for creative in client.get("/api/creatives", params={"limit": 500}).json()["data"]["items"]:
        creatives.setdefault(int(creative["advertiser_id"]), []).append(int(creative["id"]))
    return [(int(c["advertiser_id"]), int(c["id"]), creative)
            for c in campaigns for creative in [0, *creatives.get(int(c["advertiser_id"]), [])]]


def run_store(name: str, rows: int) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix=f"dsp-ingest-{name}-"))
    os.environ.update(DSP_DATA_DIR=str(data_dir), DSP_STATISTICS_URL=STORES[name])
    port = free_port()
    server = start_server(ROOT, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            token = client.post("/api/auth/login/", json={"email": "admin@demo.example", "password": DEMO_PASSWORD}
                                ).json()["data"]["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            placements = placements_of(client)
            body = batch_csv(rows, placements).encode()
            small = batch_csv(50_000, placements, seed=5).encode()
            started = time.perf_counter()
            answer = client.post("/api/statistics/batches/csv", params={"batch_id": f"bench-{name}-big"},
                                 content=body, headers={"content-type": "text/csv"})
            took = time.perf_counter() - started
            if answer.status_code != 200:
                raise SystemExit(f"{name}: {answer.status_code} {answer.text[:500]}")
            started = time.perf_counter()
            client.post("/api/statistics/batches/csv", params={"batch_id": f"bench-{name}-small"}, content=small,
                        headers={"content-type": "text/csv"}).raise_for_status()
            small_took = time.perf_counter() - started
            stored = answer.json()["data"]
            print(f"{name:<7} {rows:>10,} rows  {len(body) / 2**20:6.1f} MB  {took:6.1f} s  "
                  f"{rows / took:>9,.0f} rows/s  goal <= 20 s: {'ok' if took <= 20 else 'MISS'}   "
                  f"50,000 rows: {small_took:5.2f} s (x20: {small_took * 20:5.1f} s)   "
                  f"stored {stored['rows']:,}  server RSS {rss_mb(server.pid):.0f} MB")
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int, nargs="?", default=1_000_000)
    parser.add_argument("--stores", default="duckdb,chdb")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name in args.stores.split(","):
        run_store(name, args.rows)


if __name__ == "__main__":
    main()
