"""Logs, request ids, health and readiness, metrics (issue 25): what an operator reads and what a user quotes."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import create_engine
from starlette.testclient import TestClient

from app.kernel import metrics
from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.logging_setup import configure_logging
from app.main import create_app
from app.settings import company
from app.web import readiness
from tests.helpers import bearer_headers
from tests.test_ingestion import row
from tests.test_ingestion import setup as setup  # noqa: F401  (the fixture: an advertiser with a campaign)

LOOPBACK = ("127.0.0.1", 40000)


@pytest.fixture
def local(demo_ids: dict[str, int]) -> Iterator[TestClient]:
    """The app, called from the loopback address (allowed to read /metrics by default)."""
    with TestClient(create_app(), base_url="http://testserver", client=LOOPBACK, raise_server_exceptions=False) as http:
        yield http


def sample(client: TestClient, name: str, **labels: str) -> float:
    """One value of /metrics, read with prometheus-client's own parser (0 when the series does not exist yet)."""
    page = client.get("/metrics")
    assert page.status_code == 200
    for family in text_string_to_metric_families(page.text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return 0.0


# --- request ids ---

def test_a_sane_request_id_is_kept_and_a_bad_one_replaced(client: TestClient) -> None:
    assert client.get("/api/health", headers={"X-Request-ID": "lb-7f3a.42"}).headers["x-request-id"] == "lb-7f3a.42"
    for bad in ("a b", "x" * 200, "<script>"):
        given = client.get("/api/health", headers={"X-Request-ID": bad}).headers["x-request-id"]
        assert given != bad and re.fullmatch(r"[0-9a-f]{32}", given)
    assert client.get("/login").headers["x-request-id"]  # pages too, not only the API


def test_an_unexpected_api_error_shows_the_request_id(local: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(readiness, "check_all", broken)
    answer = local.get("/api/ready", headers={"X-Request-ID": "quote-me-1"})
    assert answer.status_code == 500
    assert answer.headers["x-request-id"] == "quote-me-1"
    assert answer.json()["data"] == {"request_id": "quote-me-1"}
    assert "quote-me-1" in answer.json()["message"]


# --- logs ---

@pytest.fixture
def log_lines(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The console's logging as production configures it (JSON), written to a buffer; restored afterwards."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level, logging.getLogger("dsp").level)
    monkeypatch.setattr(get_settings(), "log_format", "json")
    configure_logging(get_settings())
    buffer = io.StringIO()
    for handler in root.handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(buffer)
    yield buffer
    root.handlers[:], root.level = saved[0], saved[1]
    logging.getLogger("dsp").setLevel(saved[2])


def test_json_access_lines_carry_request_user_route_status_and_duration(local: TestClient,
                                                                       log_lines: io.StringIO) -> None:
    headers = bearer_headers(local, "advertiser@demo.example")
    local.get("/api/campaigns/999999", headers={**headers, "X-Request-ID": "trace-1"})
    lines = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    access = [line for line in lines if line.get("request_id") == "trace-1" and line["logger"] == "dsp.access"]
    assert len(access) == 1
    line = access[0]
    assert line["route"] == "/api/campaigns/{campaign_id}" and line["status"] == 404
    assert line["method"] == "GET" and isinstance(line["duration_ms"], float)
    assert isinstance(line["user_id"], int) and line["level"] == "info" and line["time"].endswith("Z")
    assert line["message"] == "GET /api/campaigns/999999 404"


# --- health and readiness ---

def test_health_answers_without_checking_anything(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readiness, "get_engine", lambda: create_engine("sqlite:////no/such/dir/x.db"))
    assert client.get("/api/health").json()["data"] == {"status": "ok"}


def test_ready_names_every_part(client: TestClient) -> None:
    answer = client.get("/api/ready")
    assert answer.status_code == 200, answer.text
    parts = {part["name"]: part["status"] for part in answer.json()["data"]["parts"]}
    assert parts == {"database": "ok", "statistics": "ok", "job queue": "ok", "disk": "ok"}


def not_ready(client: TestClient) -> tuple[str, dict[str, str]]:
    answer = client.get("/api/ready")
    assert answer.status_code == 503, answer.text
    return answer.json()["message"], {p["name"]: p["reason"] for p in answer.json()["data"]["parts"]
                                      if p["status"] == "failed"}


def test_ready_fails_naming_the_statistics_store(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def held() -> None:
        raise duckdb.IOException("Could not set lock on file analytics.duckdb")

    monkeypatch.setattr(readiness, "get_store", held)
    message, failed = not_ready(client)
    assert message == "Not ready: statistics." and "lock" in failed["statistics"]


def test_ready_fails_naming_the_disk(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "ready_min_free_disk_mb", 100)
    monkeypatch.setattr(readiness.shutil, "disk_usage", lambda _path: shutil._ntuple_diskusage(10**9, 10**9, 10 * 2**20))
    message, failed = not_ready(client)
    assert message == "Not ready: disk." and "10 MB free" in failed["disk"]


def test_ready_fails_naming_the_database(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readiness, "get_engine", lambda: create_engine("sqlite:////no/such/dir/x.db"))
    message, failed = not_ready(client)
    assert "database" in failed and message.startswith("Not ready: database")


# --- metrics ---

def test_metrics_count_requests_by_route_template(local: TestClient) -> None:
    labels = {"method": "GET", "route": "/api/campaigns/{campaign_id}", "status": "401"}
    before = sample(local, "dsp_http_requests_total", **labels)
    for number in (1, 2, 3):
        assert local.get(f"/api/campaigns/{number}").status_code == 401
    assert sample(local, "dsp_http_requests_total", **labels) == before + 3
    page = local.get("/metrics").text
    assert 'route="/api/campaigns/1"' not in page  # the raw path never becomes a series
    assert "dsp_http_request_duration_seconds_bucket" in page
    assert "dsp_jobs_queued " in page and "dsp_jobs_failed " in page


def test_metrics_count_ingested_rows_and_statistics_queries(local: TestClient, setup: dict[str, Any]) -> None:
    rows_before = sample(local, "dsp_statistics_ingested_rows_total", source="api")
    queries_before = sample(local, "dsp_statistics_query_seconds_count")
    admin = bearer_headers(local, "admin@demo.example")
    rows = [row(setup, hour=f"2026-11-10T{hour:02d}:00:00Z") for hour in (10, 11)]
    stored = local.post("/api/statistics/batches", json={"batch_id": "metrics-1", "rows": rows}, headers=admin)
    assert stored.status_code == 200, stored.text
    assert local.get("/api/statistics?start=2026-11-10&end=2026-11-10", headers=admin).status_code == 200
    assert sample(local, "dsp_statistics_ingested_rows_total", source="api") == rows_before + 2
    assert sample(local, "dsp_statistics_query_seconds_count") > queries_before


def test_metrics_count_page_sessions_and_events(local: TestClient) -> None:
    events_before = sample(local, "dsp_page_events_total")
    with local.websocket_connect("/reactpy/?path=/login&qs=", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "layout-update"
        assert sample(local, "dsp_websocket_sessions_open") >= 1
        ws.send_json({"type": "layout-event", "target": "nothing", "data": []})
    assert sample(local, "dsp_page_events_total") >= events_before + 1


def test_metrics_are_hidden_from_other_addresses(demo_ids: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(), client=("203.0.113.9", 40000)) as outside:
        assert outside.get("/metrics").status_code == 404
        monkeypatch.setattr(get_settings(), "metrics_allow", "203.0.113.0/24")
        assert outside.get("/metrics").status_code == 200


def test_several_processes_metrics_add_up(tmp_path: Path) -> None:
    """DSP_WORKERS>1: each process writes its values under PROMETHEUS_MULTIPROC_DIR, and /metrics of any one of
    them answers the sum (two writer processes, then a reader, each a fresh interpreter as uvicorn's workers are)."""
    env = {**os.environ, metrics.MULTIPROC_ENV: str(tmp_path)}
    write = ("from app.kernel import metrics; metrics.HTTP_REQUESTS.labels('GET', '/api/x', '200').inc(2); "
             "metrics.WEBSOCKET_SESSIONS.inc()")
    for _ in range(2):
        subprocess.run([sys.executable, "-c", write], env=env, check=True, cwd=REPO_ROOT)
    read = ("from prometheus_client import generate_latest; from app.web.metrics import _registry; "
            "print(generate_latest(_registry()).decode())")
    page = subprocess.run([sys.executable, "-c", read], env=env, check=True, cwd=REPO_ROOT, capture_output=True,
                          text=True).stdout
    values = {(s.name, tuple(sorted(s.labels.items()))): s.value
              for family in text_string_to_metric_families(page) for s in family.samples}
    assert values[("dsp_http_requests_total", (("method", "GET"), ("route", "/api/x"), ("status", "200")))] == 4


def test_the_server_error_page_shows_the_request_id(demo_ids: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_name: str) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(company, "branding_file", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        page = client.get("/files/branding/logo.png", headers={"X-Request-ID": "quote-me-2"})
    assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
    assert "<code>quote-me-2</code>" in page.text and "a bug" not in page.text
