"""Two server processes on one PostgreSQL and one shared statistics store (issue 23, "many processes, proven"):
what one process writes, the other reads; a session and a sign-out hold on both; failed sign-ins count across
both. The shared store is ClickHouse's engine behind the test-only ClickHouse HTTP front (tests/clickhouse_http.py),
reached by both servers through DSP_STATISTICS_URL=clickhouse://…, the production path of a fleet (why not a
third, PostgreSQL, statistics store: bench/README.md).

Runs in the PostgreSQL pass: several processes on one SQLite file is the embedded rung, which refuses them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.accounts import service as accounts
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import get_settings
from app.kernel.db import run, session_scope
from tests.conftest import reset_database
from tests.faults import Server
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.skipif(not get_settings().sqlalchemy_url.startswith("postgresql"),
                                reason="several server processes share PostgreSQL (the PostgreSQL pass)")
FAILURES_ALLOWED = 4  # per account, counted by the database both processes share


@pytest.fixture(scope="module")
def seeded() -> dict[str, int]:
    return reset_database()


@pytest.fixture(scope="module")
def servers(seeded: dict[str, int], clickhouse_server: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[Server, Server]]:
    """Two `serve` processes on one data directory (one machine's disk), the test's PostgreSQL database and the
    ClickHouse front."""
    data_dir: Path = tmp_path_factory.mktemp("fleet")
    env = {"DSP_STATISTICS_URL": f"{clickhouse_server}/fleet", "DSP_WORKERS": "1",
           "DSP_LOGIN_MAX_FAILURES_PER_ACCOUNT": str(FAILURES_ALLOWED)}
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
