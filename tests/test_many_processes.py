"""Two server processes on one PostgreSQL and one shared statistics store (issue 23, "many processes, proven"):
what one process writes, the other reads; a session and a sign-out hold on both; failed sign-ins count across
both. The shared store is ClickHouse's engine behind the test-only ClickHouse HTTP front (tests/clickhouse_http.py),
reached by both servers through DSP_STATISTICS_URL=clickhouse://…, the production path of a fleet (why not a
third, PostgreSQL, statistics store: bench/README.md).

Runs in the PostgreSQL pass: several processes on one SQLite file is the embedded rung, which refuses them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from sqlmodel import col, select

from app.access.preferences import settings_of
from app.accounts import service as accounts
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import get_settings
from app.kernel.db import run, session_scope
from app.messaging.models import EmailOutbox
from app.reports import service as reports
from app.reports.models import ReportRun, RunStatus
from app.reports.schemas import ReportSettings
from app.settings import postbacks
from app.settings.models import PostbackDelivery
from tests.conftest import reset_database
from tests.faults import Server, wait_until
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.skipif(not get_settings().sqlalchemy_url.startswith("postgresql"),
                                reason="several server processes share PostgreSQL (the PostgreSQL pass)")
FAILURES_ALLOWED = 4  # per account, counted by the database both processes share
LEASE_S = 2  # a worker silent this long is dead: its job goes to another process


@pytest.fixture(scope="module")
def seeded() -> dict[str, int]:
    return reset_database()


@pytest.fixture(scope="module")
def fleet_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data directory every server of this module shares (one machine's disk; a fleet shares a bucket): a
    job may run in any of them, so each must read the files another wrote (a report's CSV, to mail it)."""
    return tmp_path_factory.mktemp("fleet")


@pytest.fixture(scope="module")
def servers(seeded: dict[str, int], clickhouse_server: str, fleet_dir: Path) -> Iterator[tuple[Server, Server]]:
    """Two `serve` processes on one data directory, the test's PostgreSQL database and the ClickHouse front."""
    data_dir = fleet_dir
    env = {"DSP_STATISTICS_URL": f"{clickhouse_server}/fleet", "DSP_WORKERS": "1",
           "DSP_LOGIN_MAX_FAILURES_PER_ACCOUNT": str(FAILURES_ALLOWED), "DSP_JOBS_LEASE_SECONDS": str(LEASE_S)}
    first, second = Server(data_dir, env=env, name="a"), Server(data_dir, env=env, name="b")
    try:
        yield first.start(), second.start()
    finally:
        first.stop()
        second.stop()


def _login(server: Server, email: str, password: str = DEMO_PASSWORD) -> httpx.Response:
    return httpx.post(f"{server.url}/api/auth/login/", json={"email": email, "password": password}, timeout=60)


def _bearer(reply: httpx.Response) -> dict[str, str]:
    assert reply.status_code == 200, reply.text
    return {"Authorization": f"Bearer {reply.json()['data']['token']}"}


def test_a_batch_ingested_through_one_process_is_read_through_the_other(servers: tuple[Server, Server],
                                                                        seeded: dict[str, int]) -> None:
    first, second = servers
    advertiser = seeded["advertiser@demo.example"]
    campaign_id = run(lambda db: campaigns.create_campaign(
        db, actor=actor_of(db, "advertiser@demo.example"),
        data=CampaignUpdate.model_validate({**SETTINGS, "name": "Fleet"}))).id
    body = ("hour,advertiser_id,campaign_id,creative_id,exchange,os,country,app,device_type,impressions,clicks,"
            "spend_micros,conversions\n"
            f"2026-11-02T10:00:00Z,{advertiser},{campaign_id},0,Google AdX,Android,DE,com.example.app,phone,1000,7,"
            "2500000,1\n"
            f"2026-11-03T11:00:00Z,{advertiser},{campaign_id},0,Magnite,iOS,US,com.example.app,phone,500,3,1250000,0\n")
    admin_first = _bearer(_login(first, "admin@demo.example"))
    stored = httpx.post(f"{first.url}/api/statistics/batches/csv", params={"batch_id": "fleet-1"}, content=body,
                        headers=admin_first, timeout=120)
    assert stored.status_code == 200, stored.text
    read = httpx.get(f"{second.url}/api/statistics", headers=_bearer(_login(second, "admin@demo.example")),
                     params={"start": "2026-11-01", "end": "2026-11-05", "advertiser_id": advertiser,
                             "dimensions": "exchange", "metrics": "impressions,clicks,spend", "order_by": "exchange"},
                     timeout=60)
    assert read.status_code == 200, read.text
    rows = {row["exchange"]: (row["impressions"], row["clicks"], row["spend"]) for row in read.json()["data"]}
    assert rows == {"Google AdX": (1000, 7, "2.50"), "Magnite": (500, 3, "1.25")}  # to the cent
    again = httpx.post(f"{second.url}/api/statistics/batches/csv", params={"batch_id": "fleet-1"}, content=body,
                       headers=_bearer(_login(second, "admin@demo.example")), timeout=120)
    assert again.json()["data"]["duplicate"] is True  # the batch id is known to the other process too


def test_a_session_and_its_sign_out_hold_on_both_processes(servers: tuple[Server, Server]) -> None:
    first, second = servers
    headers = _bearer(_login(first, "agency@demo.example"))
    profile = httpx.get(f"{second.url}/api/auth/profile", headers=headers, timeout=60)
    assert profile.status_code == 200 and profile.json()["data"]["email"] == "agency@demo.example"
    assert httpx.post(f"{second.url}/api/auth/logout", headers=headers, timeout=60).status_code == 200
    assert httpx.get(f"{first.url}/api/auth/profile", headers=headers, timeout=60).status_code == 401
    # A browser's sign-in ticket (made as the login page makes it), redeemed for a cookie by one process, opens a
    # page on the other.
    with session_scope() as db:
        ticket = accounts.login(db, email="agency@demo.example", password=DEMO_PASSWORD,
                                kind="browser").new_session.secret
    cookie = httpx.post(f"{first.url}/api/auth/session", json={"ticket": ticket},
                        headers={"X-Requested-With": "dsp-console", "Origin": first.url}, timeout=60)
    assert cookie.status_code == 200, cookie.text
    browser = {"X-Requested-With": "dsp-console"}
    refreshed = httpx.post(f"{second.url}/api/auth/session/refresh", cookies=cookie.cookies, timeout=60,
                           headers={**browser, "Origin": second.url})
    assert refreshed.status_code == 200, refreshed.text
    ended = httpx.post(f"{second.url}/api/auth/session/logout", cookies=cookie.cookies, timeout=60,
                       headers={**browser, "Origin": second.url})
    assert ended.status_code == 200, ended.text
    after = httpx.post(f"{first.url}/api/auth/session/refresh", cookies=cookie.cookies, timeout=60,
                       headers={**browser, "Origin": first.url})
    assert after.status_code == 401


def test_failed_sign_ins_count_across_both_processes(servers: tuple[Server, Server]) -> None:
    first, second = servers
    email = "coadmin@demo.example"
    failures = [_login(server, email, "wrong-password").status_code
                for server in (first, second) * (FAILURES_ALLOWED // 2)]
    assert failures == [401] * FAILURES_ALLOWED
    for server in (first, second):  # the right password too: the account is held on both
        refused = _login(server, email)
        assert refused.status_code == 429, refused.text
        assert refused.json()["message"].startswith("Too many failed sign-ins for this account.")


class HoldingTracker:
    """A client's postback tracker on 127.0.0.1 that holds the first request it gets (until released) and answers
    the others at once; it notes which local port each request came from."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, int]] = []  # (path, the caller's port)
        self.first = threading.Event()
        self.release = threading.Event()
        tracker = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                tracker.requests.append((self.path, self.client_address[1]))
                if len(tracker.requests) == 1:
                    tracker.first.set()
                    tracker.release.wait(120)
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def _process_with_port(pids: list[int], port: int) -> int:
    """Which of these processes holds the TCP socket bound to 127.0.0.1:port (/proc: the socket's inode)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port:
            inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return pid
    raise AssertionError(f"no server process holds port {port}")


def test_a_process_killed_mid_job_loses_nothing(servers: tuple[Server, Server]) -> None:
    """A postback's forward is a job written with the postback; the process running it is killed while the
    client's tracker holds the request; the other process sees the dead worker and delivers it."""
    tracker = HoldingTracker()
    try:
        campaign = run(lambda db: campaigns.create_campaign(
            db, actor=actor_of(db, "advertiser@demo.example"),
            data=CampaignUpdate.model_validate({**SETTINGS, "name": "Forwarded"}))).id
        with session_scope() as db:
            advertiser = actor_of(db, "advertiser@demo.example")  # postbacks ENABLED in the demo seed
            chosen = settings_of(db, advertiser.id)
            # Set directly: the settings form takes only URLs with a domain name; the tracker is on 127.0.0.1.
            chosen.postback_url = tracker.url + "/pb?c={click_id}&e={event}"
            chosen.postback_events = ["install"]
            db.add(chosen)
            path = postbacks.postback_endpoint(db, actor=advertiser).path
        first, second = servers
        sent = httpx.get(f"{first.url}{path}", params={"click_id": "k1", "event": "install", "campaign_id": campaign,
                                                       "country": "DE"}, timeout=60)
        assert sent.status_code == 200 and sent.json()["data"]["forwarded"] is True, sent.text
        wait_until(tracker.first.is_set, "a worker to start the forward")
        running = _process_with_port([first.pid, second.pid], tracker.requests[0][1])
        (first if running == first.pid else second).kill()

        def delivered() -> PostbackDelivery | None:
            with session_scope() as db:
                return db.exec(select(PostbackDelivery).where(col(PostbackDelivery.url).contains("c=k1"))).first()

        done = wait_until(delivered, "the surviving process to deliver the forward")
        assert (done.status_code, done.error) == (200, "")
        assert [p for p, _port in tracker.requests] == ["/pb?c=k1&e=install"] * 2  # the killed try, then the retry
    finally:
        tracker.release.set()
        tracker.server.shutdown()
        tracker.server.server_close()


def test_a_scheduled_report_runs_and_mails_once_with_two_processes(seeded: dict[str, int], clickhouse_server: str,
                                                                   fleet_dir: Path) -> None:
    """Both processes keep the schedule clock and both fire the report's slot; it is claimed once, so one run is
    generated and one mail sent. The time of day is set so the slot falls a minute or so after the servers
    start (DSP_REPORT_SCHEDULE_AT); the report exists before they start, so both register it."""
    with session_scope() as db:
        report = reports.create_report(db, actor=actor_of(db, "advertiser@demo.example"), report_type="performance",
                                       data=ReportSettings.model_validate({
                                           "name": "Fleet digest", "period": "last_7_days", "schedule": "daily",
                                           "time_zone": "UTC", "recipients": ["boss@example.com"],
                                           "metrics": ["impressions", "clicks"]}))
    slot = (datetime.now(UTC) + timedelta(seconds=150)).replace(second=0, microsecond=0)
    env = {"DSP_STATISTICS_URL": f"{clickhouse_server}/fleet", "DSP_WORKERS": "1",
           "DSP_REPORT_SCHEDULE_AT": slot.strftime("%H:%M"), "DSP_JOBS_LEASE_SECONDS": str(LEASE_S)}
    first, second = Server(fleet_dir, env=env, name="c"), Server(fleet_dir, env=env, name="d")
    try:
        first.start()
        second.start()
        assert datetime.now(UTC) < slot, "the servers took too long to start for this slot"

        def runs() -> list[ReportRun]:
            with session_scope() as db:
                return list(db.exec(select(ReportRun).where(ReportRun.report_id == report.id)))

        def mailed() -> list[EmailOutbox]:
            with session_scope() as db:
                return list(db.exec(select(EmailOutbox).where(col(EmailOutbox.subject).startswith("Report: Fleet"))))

        wait_until(lambda: [r for r in runs() if r.status == RunStatus.COMPLETED] and mailed(),
                   "the scheduled run to be generated and mailed", limit_s=300)
        # Both clocks fired at the slot (within milliseconds of it); whatever either did is done well before this.
        wait_until(lambda: datetime.now(UTC) > slot + timedelta(seconds=20), "the slot's minute to be well past",
                   limit_s=120, every_s=0.5)
        assert [(r.scheduled_for.replace(tzinfo=None), r.status) for r in runs()] == [
            (slot.replace(tzinfo=None), RunStatus.COMPLETED)]
        assert len(mailed()) == 1
        for server in (first, second):  # each process registered the schedule: both clocks were running it
            assert "schedules registered: 1" in server.log_path.read_text(), server.log_tail()
    finally:
        first.stop()
        second.stop()


def test_dsp_workers_serves_one_port_from_several_processes(seeded: dict[str, int], clickhouse_server: str,
                                                            fleet_dir: Path) -> None:
    """The one-server rung: DSP_WORKERS=2 starts two server processes under one supervisor, both answering on
    the one port (uvicorn's workers share its socket), each logging in the configured format."""
    server = Server(fleet_dir, env={"DSP_STATISTICS_URL": f"{clickhouse_server}/fleet", "DSP_WORKERS": "2",
                                    "DSP_LOG_FORMAT": "json"}, name="workers")
    try:
        server.start()

        # Each worker process starts the app itself and says so, under its own process id.
        wait_until(lambda: server.log_path.read_text().count("Application startup complete.") == 2,
                   "both worker processes to start the app")
        started = re.findall(r"Started server process \[(\d+)\]", server.log_path.read_text())
        assert len(set(started)) == 2 and str(server.pid) not in started
        headers = _bearer(_login(server, "admin@demo.example"))
        for _ in range(6):
            assert httpx.get(f"{server.url}/api/auth/profile", headers=headers, timeout=60).status_code == 200

        # Every process logs in the one configured format (app/kernel/logging_setup.py: here JSON, a line each),
        # the worker processes too: their start-up, the console's own INFO lines (logger "dsp", dropped by a
        # child left with Python's defaults) and an access line per request, each with its process id.
        def lines() -> list[dict[str, object]]:
            return [json.loads(line) for line in server.log_path.read_text().splitlines() if line.startswith("{")]

        def profile_reads() -> list[dict[str, object]]:
            return [line for line in lines() if line["logger"] == "dsp.access" and line.get("path") ==
                    "/api/auth/profile" and line.get("status") == 200]

        wait_until(lambda: len(profile_reads()) >= 6, "the requests' log lines")
        logged = lines()
        for pid in {int(p) for p in started}:
            assert any(line["process"] == pid and line["message"] == "Application startup complete."
                       for line in logged), logged
            assert any(line["process"] == pid and line["logger"] == "dsp.reports" and
                       str(line["message"]).startswith("schedules registered: ") for line in logged), logged
        assert len(profile_reads()) == 6 and {line["process"] for line in profile_reads()} <= {int(p) for p in started}
        assert any(line["process"] == server.pid and str(line["message"]).startswith("Started parent process")
                   for line in logged), logged
    finally:
        server.stop()
