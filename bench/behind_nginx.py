"""What the nginx sample (deploy/nginx/dsp-console.conf) adds to a request: one server started as `make run` starts
it (a throwaway data directory), the sample in front of it on loopback (https, as tests/nginx_proxy.py runs it),
and the same calls made straight to the server and through the proxy, alternated: GET /api/health over a kept-alive
connection, and a whole sign-in on /login over the page's websocket (connect, type, submit, ticket).

Prints p50/p95 in milliseconds of each, direct and proxied.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from bench.console_client import ROOT, free_port, percentile, sign_in, start_server  # noqa: E402
from tests import nginx_proxy  # noqa: E402


def _health_ms(http: httpx.Client, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        http.get("/api/health").raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)


async def _sign_ins(ways: dict[str, tuple[str, str]], rounds: int) -> dict[str, list[float]]:
    """Sign-ins alternated between the ways, after two of each to warm them (the first pays for imports)."""
    for url, origin in list(ways.values()) * 2:
        await sign_in(url, origin, "advertiser@demo.example")
    times: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(rounds):
        for way, (url, origin) in ways.items():
            times[way].append((await sign_in(url, origin, "advertiser@demo.example"))[0])
    return {way: sorted(found) for way, found in times.items()}


def _line(name: str, times: list[float]) -> str:
    return f"{name:<28} p50 {percentile(times, 0.5):7.1f} ms   p95 {percentile(times, 0.95):7.1f} ms   (n={len(times)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--health", type=int, default=300, help="health calls each way (default 300)")
    parser.add_argument("--sign-ins", type=int, default=20, help="sign-ins each way (default 20)")
    args = parser.parse_args()
    if not nginx_proxy.installed():
        sys.exit(nginx_proxy.MISSING)
    port = free_port()
    server = start_server(ROOT, port)
    try:
        with tempfile.TemporaryDirectory(prefix="dsp-bench-nginx-") as folder, \
                nginx_proxy.running(Path(folder), upstream_port=port) as proxy:
            # The websocket client verifies the proxy's self-signed certificate through the default context.
            os.environ["SSL_CERT_FILE"] = str(proxy.certificate)
            tls = ssl.create_default_context(cafile=str(proxy.certificate))
            direct_url = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=direct_url) as direct, httpx.Client(base_url=proxy.url, verify=tls) as proxied:
                _health_ms(direct, 20)  # warm both paths
                _health_ms(proxied, 20)
                health: dict[str, list[float]] = {"direct": [], "proxied": []}
                for _ in range(5):  # alternated, so both see the machine's same moments
                    health["direct"] += _health_ms(direct, args.health // 5)
                    health["proxied"] += _health_ms(proxied, args.health // 5)
            ways = {"direct": (f"ws://127.0.0.1:{port}/reactpy/?path=", direct_url),
                    "proxied": (f"wss://127.0.0.1:{proxy.https_port}/reactpy/?path=", proxy.url)}
            sign_ins = asyncio.run(_sign_ins(ways, args.sign_ins))
        for way in ("direct", "proxied"):
            print(_line(f"GET /api/health, {way}", sorted(health[way])))
        for way in ("direct", "proxied"):
            print(_line(f"sign-in on /login, {way}", sorted(sign_ins[way])))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
