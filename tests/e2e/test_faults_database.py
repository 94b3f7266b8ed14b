"""PostgreSQL stopped and started while the console is in use: API calls answer 503 in the envelope saying the
database is not answering (not a 500, not a hang), a page says so too, and both recover by themselves once it is
back, without a restart of the server (pool_pre_ping, app/kernel/faults.py).

It stops a cluster of its own (never the suite's shared one), made like tests/run_all.sh makes it
(tests/pg_cluster.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.faults import DATABASE_DOWN
from tests.faults import Server, wait_until
from tests.pg_cluster import Cluster

pytestmark = pytest.mark.skipif(
    not get_settings().sqlalchemy_url.startswith("postgresql"),
    reason="SQLite is a file, with no server that could stop; this runs in the PostgreSQL pass (DATABASE_URL)")


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    made = Cluster("dsp_faults")
    try:
        made.create()
        env = {**os.environ, "DATABASE_URL": made.url}
        for command in ("migrate", "seed-demo"):
            subprocess.run([sys.executable, "-m", "app", command], cwd=REPO_ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        yield made
    finally:
        made.remove()


def test_the_database_going_away_answers_503_and_the_console_recovers_by_itself(cluster: Cluster, tmp_path: Path,
                                                                                 browser: Browser) -> None:
    server = Server(tmp_path / "data", database_url=cluster.url).start()
    try:
        headers = server.login()
        funds = f"{server.url}/api/funds"
        assert httpx.get(funds, headers=headers, timeout=60).status_code == 200
        pid = server.pid

        cluster.stop("fast")
        for method, url, body in (("GET", funds, None), ("POST", f"{server.url}/api/auth/login/",
                                                          {"email": "admin@demo.example", "password": "x"})):
            reply = httpx.request(method, url, headers=headers, json=body, timeout=60)
            assert reply.status_code == 503, reply.text
            assert reply.json() == {"success": False, "code": 503, "message": DATABASE_DOWN, "data": None}
        # The process itself is alive (a supervisor must not restart it); readiness names what is down.
        assert httpx.get(f"{server.url}/api/health", timeout=60).status_code == 200
        ready = httpx.get(f"{server.url}/api/ready", timeout=60)
        assert ready.status_code == 503 and ready.json()["message"].startswith("Not ready: database"), ready.text

        # The suite's one browser: a second sync_playwright() in this process fails once the browser tests
        # have started theirs (its loop is running).
        page = browser.new_page(base_url=server.url)
        page.goto("/login")
        expect(page.get_by_role("alert")).to_contain_text(DATABASE_DOWN, timeout=60_000)

        cluster.start()
        # The same process, no restart: its pool finds its dead connections and makes new ones.
        wait_until(lambda: httpx.get(funds, headers=headers, timeout=60).status_code == 200,
                   "the API to answer again", every_s=0.2)
        assert server.process is not None and server.process.poll() is None and server.pid == pid
        expect(page.locator("#field-email")).to_be_visible(timeout=60_000)  # the page opened by itself
        page.close()
    finally:
        server.stop()
