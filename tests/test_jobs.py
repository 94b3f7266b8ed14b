"""The job queue (app/jobs), on the database the suite runs on (SQLite: our leased table; PostgreSQL:
procrastinate): a job is written with the caller's transaction and runs; a failing one is retried with backoff,
then failed for good and counted; a worker killed mid-job loses nothing (another runs the job); a report run a
dead process left running is failed with its reason while a live one's is untouched; a job of a task only a newer
release knows waits for a worker that knows it (a rolling upgrade); a schedule's slot fired
by two processes runs once; a postback forward is retried on 503 then delivered; a forward's host is resolved
once and the request goes to the address that was checked."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlmodel import Session, select

import tests.job_tasks  # noqa: F401  (declares the tests' tasks)
from app import jobs
from app.jobs import clock, tasks
from app.kernel import pinned_http
from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.db import session_scope
from app.reports import jobs as report_jobs
from app.reports import service as reports
from app.reports.models import ReportRun
from app.reports.schemas import ReportSettings
from app.settings.models import PostbackDelivery
from app.statistics import postback_ingest
from tests.helpers import actor_of, settle_jobs, wait_for_run
from tests.test_mail import smtp_server  # noqa: F401  (the fake SMTP server fixture)
from tests.test_postback_ingest import FakeTracker, client_setup, tracker  # noqa: F401  (fixtures)

LEASE_S = 1.0  # a dead worker's job is handed on after about this long (30 s in production)


@pytest.fixture(autouse=True)
def stopped_workers() -> Iterator[None]:
    yield
    clock.shutdown()
    jobs.stop()


@pytest.fixture
def short_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "jobs_lease_seconds", LEASE_S)
    monkeypatch.setenv("DSP_JOBS_LEASE_SECONDS", str(LEASE_S))  # for a worker subprocess


def _notes(folder: Path) -> list[str]:
    path = folder / "notes"
    return path.read_text().splitlines() if path.exists() else []


def _wait(condition: Any, what: str, timeout: float = 60) -> None:
    """A bound on a hang, not a timing check."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.02)


def test_a_job_exists_only_if_its_transaction_commits(db: Session, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), session_scope() as rolled_back:
        jobs.defer(rolled_back, "tests.note", folder=str(tmp_path), text="never")
        raise RuntimeError("the write that asked for the job fails")
    with session_scope() as committed:
        jobs.defer(committed, "tests.note", folder=str(tmp_path), text="once")
    jobs.start()  # this process's worker
    settle_jobs()
    assert _notes(tmp_path) == ["once"]
    assert (jobs.depth(), jobs.failures()) == (0, 0)


def test_a_failing_job_is_retried_with_backoff_then_failed_and_counted(db: Session, tmp_path: Path) -> None:
    with session_scope() as session:
        jobs.defer(session, "tests.always_fails", folder=str(tmp_path))
    settle_jobs()
    assert _notes(tmp_path) == ["attempt 1 of 3", "attempt 2 of 3", "attempt 3 of 3"]
    assert (jobs.depth(), jobs.failures()) == (0, 1)
    with pytest.raises(KeyError):  # an unknown task fails in the caller, not later in a worker
        jobs.defer(db, "tests.no_such_task")


def test_a_process_runs_only_its_own_queues_jobs(db: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DSP_JOBS_QUEUE keeps apart the jobs of processes that share a database but not their files or statistics
    (the suite's browser server shares this database)."""
    monkeypatch.setattr(get_settings(), "jobs_queue", "elsewhere")
    with session_scope() as session:
        jobs.defer(session, "tests.note", folder=str(tmp_path), text="theirs")
    monkeypatch.setattr(get_settings(), "jobs_queue", "default")
    with session_scope() as session:
        jobs.defer(session, "tests.note", folder=str(tmp_path), text="ours")
    settle_jobs()
    assert _notes(tmp_path) == ["ours"]
    monkeypatch.setattr(get_settings(), "jobs_queue", "elsewhere")
    assert jobs.depth() == 1  # still waiting for a worker of its own queue


def test_a_job_of_a_task_only_a_newer_release_knows_waits_for_a_worker_that_knows_it(
        db: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rolling upgrade: a newer release defers a job of a task it added while a worker of the older release
    still runs. That worker leaves the job queued (procrastinate would fail it: each task has a queue of its own,
    and a worker takes only the queues of the tasks it knows); a worker that knows the task runs it."""
    newer = tasks.Task("tests.newer", lambda folder: tests.job_tasks.note(folder, "run by a newer worker"))
    monkeypatch.setitem(tasks.TASKS, newer.name, newer)
    with session_scope() as session:
        jobs.defer(session, newer.name, folder=str(tmp_path))  # deferred by the newer release
    monkeypatch.delitem(tasks.TASKS, newer.name)  # this worker is of the older release
    jobs.drain()
    assert (jobs.depth(), jobs.failures(), _notes(tmp_path)) == (1, 0, []), "left queued, not failed"
    monkeypatch.setitem(tasks.TASKS, newer.name, newer)  # a worker of the newer release
    settle_jobs()
    assert (jobs.depth(), jobs.failures(), _notes(tmp_path)) == (0, 0, ["run by a newer worker"])


def test_due_jobs_can_be_run_from_a_thread_that_runs_an_event_loop(db: Session, tmp_path: Path) -> None:
    """jobs.drain() (tests, scripts) from a thread whose event loop is running: the browser tests' Playwright keeps
    one in the suite's main thread, and procrastinate's drain used asyncio.run there, which refuses."""
    with session_scope() as session:
        jobs.defer(session, "tests.note", folder=str(tmp_path), text="drained")

    async def inside_a_loop() -> None:
        jobs.drain()

    # A thread of the test's own whose loop is running (this one may run Playwright's already, in the full suite).
    with ThreadPoolExecutor(max_workers=1) as looping:
        looping.submit(asyncio.run, inside_a_loop()).result()
    assert _notes(tmp_path) == ["drained"]


def test_a_job_whose_worker_is_killed_is_run_by_another(db: Session, tmp_path: Path, short_leases: None) -> None:
    with session_scope() as session:
        jobs.defer(session, "tests.hangs_once", folder=str(tmp_path))
    worker = subprocess.Popen([sys.executable, "-m", "tests.job_worker"], cwd=REPO_ROOT, env=os.environ.copy(),
                              stdout=subprocess.DEVNULL)
    try:
        _wait(lambda: (tmp_path / "started").exists() or worker.poll() is not None, "the worker to start the job")
        assert (tmp_path / "started").read_text() == str(worker.pid)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    jobs.start()  # another process's worker: it gets the job once the dead one's lease / heartbeat has expired
    _wait(lambda: (tmp_path / "finished").exists(), "the job to run again")
    assert (tmp_path / "finished").read_text() == str(os.getpid())
    settle_jobs()
    assert jobs.failures() == 0


def _report(db: Session, **extra: Any) -> Any:
    actor = actor_of(db, "advertiser@demo.example")
    data = {"name": "Digest", "period": "last_7_days", "metrics": ["impressions"], **extra}
    report = reports.create_report(db, actor=actor, report_type="performance",
                                   data=ReportSettings.model_validate(data))
    db.commit()
    return actor, report


def test_start_up_fails_a_dead_processs_run_and_leaves_a_live_ones(db: Session, monkeypatch: pytest.MonkeyPatch,
                                                                   short_leases: None) -> None:
    actor, report = _report(db)
    release = threading.Event()
    real_run = report_jobs.statistics.run

    def slow_store(*args: Any, **kwargs: Any) -> Any:
        release.wait(60)  # the live run is held mid-generation until recovery has looked at it
        return real_run(*args, **kwargs)

    monkeypatch.setattr(report_jobs.statistics, "run", slow_store)
    jobs.start()
    live = reports.start_run(db, actor=actor, report_id=report.id).id
    db.commit()
    _wait(lambda: _status(live) == "running", "the live run to start")
    dead = ReportRun(report_id=report.id, requested_by=actor.id, status="running", attempts=1, progress=10,
                     period_start=live_period(live)[0], period_end=live_period(live)[1], columns=["impressions"])
    db.add(dead)  # left running by a process that was killed: no live worker holds its job
    db.commit()
    # Not a wait for something to happen: past one lease, only the live worker's renewals keep its job live.
    time.sleep(LEASE_S * 1.5)
    outcome = report_jobs.recover_interrupted()  # another process starting up
    assert outcome == [(dead.id, "failed")]
    assert _status(live) == "running"
    release.set()
    assert wait_for_run(live).status == "completed"
    db.expire_all()
    shown = {r.id: r for r in reports.list_runs(db, actor=actor, report_id=report.id)}
    assert (shown[dead.id].status, shown[dead.id].error) == ("failed", "interrupted by a restart")


def _status(run_id: int) -> str:
    with session_scope() as session:
        run = session.get(ReportRun, run_id)
        assert run is not None
        return run.status


def live_period(run_id: int) -> tuple[Any, Any]:
    with session_scope() as session:
        run = session.get(ReportRun, run_id)
        assert run is not None
        return run.period_start, run.period_end


def test_a_slot_fired_by_two_processes_runs_and_mails_once(db: Session, smtp_server: Any,  # noqa: F811
                                                           tmp_path: Path) -> None:
    """Each process's clock fires the slot (two threads here, at once); two workers in two processes wait for
    jobs. One run, generated once, mailed once."""
    _actor, report = _report(db, schedule="daily", recipients=["boss@example.com"])
    slot = datetime(2030, 1, 1, 6, tzinfo=UTC)
    settings = get_settings()
    other = subprocess.Popen(
        [sys.executable, "-m", "tests.job_worker"], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "DSP_SMTP_HOST": settings.smtp_host, "DSP_SMTP_PORT": str(settings.smtp_port),
             # The statistics file is this process's (one process opens a DuckDB file): the other reads its own.
             "DSP_STATISTICS_URL": f"duckdb:///{tmp_path / 'other.duckdb'}"})
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "worker started"
        jobs.start()
        answers: list[int | None] = []
        barrier = threading.Barrier(2)

        def fire() -> None:
            barrier.wait()
            answers.append(report_jobs.run_scheduled(report.id, slot=slot))

        firings = [threading.Thread(target=fire) for _ in range(2)]
        for firing in firings:
            firing.start()
        for firing in firings:
            firing.join()
        assert len([a for a in answers if a is not None]) == 1
        settle_jobs()
    finally:
        other.send_signal(signal.SIGKILL)
        other.wait()
    with session_scope() as session:
        runs = session.exec(select(ReportRun).where(ReportRun.report_id == report.id)).all()
    assert [(r.status, r.attempts, r.scheduled_for is not None) for r in runs] == [("completed", 1, True)]
    assert [m[1] for m in smtp_server.messages] == [["boss@example.com"]]


def test_a_postback_forward_is_retried_on_503_then_delivered(db: Session, client_setup: dict[str, Any],  # noqa: F811
                                                             tracker: FakeTracker) -> None:  # noqa: F811
    tracker.statuses = [503, 503]
    jobs.start()
    postback_ingest.receive_postback(token=client_setup["token"], params={
        "click_id": "q1", "event": "install", "campaign_id": str(client_setup["campaign"]), "country": "AT"})
    settle_jobs()
    assert len(tracker.paths) == 3
    delivery = db.exec(select(PostbackDelivery)).one()
    assert (delivery.status_code, delivery.attempts, delivery.error) == (200, 3, "")


def test_a_forward_goes_to_the_address_that_was_checked(db: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding: the name answers a public address for the check and 127.0.0.1 afterwards."""
    monkeypatch.setattr(get_settings(), "postback_allow_private_targets", False)
    lookups: list[str] = []

    def rebinding_dns(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        lookups.append(host)
        address = "93.184.216.34" if len(lookups) == 1 else "127.0.0.1"
        return [(2, 1, 6, "", (address, port))]

    sent: list[httpx.Request] = []

    def transport(_self: Any, request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200)

    monkeypatch.setattr(pinned_http.socket, "getaddrinfo", rebinding_dns)
    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", transport)
    advertiser = actor_of(db, "advertiser@demo.example")
    db.commit()  # the forward writes its delivery in a transaction of its own
    postback_ingest.forward_job(user_id=advertiser.id, advertiser_id=advertiser.id, event="install",
                                url="https://tracker.example:8443/pb?c=1")
    assert lookups == ["tracker.example"]  # resolved once
    (request,) = sent
    assert (request.url.host, request.url.port, request.headers["host"]) == ("93.184.216.34", 8443,
                                                                             "tracker.example:8443")
    assert request.extensions["sni_hostname"] == "tracker.example"  # TLS checks the name's certificate
    delivery = db.exec(select(PostbackDelivery)).one()
    assert (delivery.status_code, delivery.attempts) == (200, 1)
    # A name that answers a private address at the check is refused, and nothing is sent.
    lookups.clear()
    lookups.append("already once")  # the fake DNS now answers 127.0.0.1
    postback_ingest.forward_job(user_id=advertiser.id, advertiser_id=advertiser.id, event="install",
                                url="http://tracker.example/pb")
    assert len(sent) == 1
    refused = db.exec(select(PostbackDelivery).order_by(PostbackDelivery.id.desc())).first()  # type: ignore[union-attr]
    assert refused is not None and "private or local address (127.0.0.1)" in refused.error
