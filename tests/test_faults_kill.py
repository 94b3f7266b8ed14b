"""kill -9 of the real server in the middle of writes (a bulk campaign edit, an ingestion batch, deposits, a report
run), then a restart on the same data: nothing is half-written, ledger sums match, an interrupted batch retried
under its id completes exactly once, an interrupted report run is finished, or failed
with its reason.

Each kill is made to land mid-write by watching the database (tests/faults.py: writing_now) or the data
directory, or by holding a lock that keeps the server's write from committing, never by sleeping."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import httpx
import pytest
from sqlalchemy import text
from sqlmodel import Session, col, func, select

from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.funds.models import LedgerEntry
from app.history.models import AuditEntry
from app.kernel.db import get_engine, session_scope
from app.kernel.halt_points import HALT_AT, halted_file
from app.reports.models import ReportRun
from tests.faults import InFlight, Server, wait_until, writing_now
from tests.helpers import actor_of

BULK_SIZE = 250
BATCH_ROWS = 40_000
CAMPAIGN = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
            "bid_strategy": "cpm", "bid_min": "1", "bid_max": "4", "bid": "2"}


@pytest.fixture
def server(demo_ids: dict[str, int], tmp_path: Path) -> Iterator[Server]:
    process = Server(tmp_path / "data")
    yield process.start()
    process.stop()


def _campaigns(count: int) -> list[int]:
    """`count` campaigns of the demo advertiser: one made by the service, the rest copies of its row (set-up, not
    the thing tested, and 100 times faster)."""
    with session_scope() as db:
        actor = actor_of(db, "advertiser@demo.example")
        first = db.get(Campaign, campaigns.create_campaign(db, actor=actor, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Fault 0"})).id)
        assert first is not None
        fields = first.model_dump(exclude={"id"})
        copies = [Campaign(**{**fields, "name": f"Fault {n}"}) for n in range(1, count)]
        db.add_all(copies)
        db.flush()
        return [first.id, *(copy.id for copy in copies)]  # type: ignore[list-item]


def _sqlite_intact() -> None:
    engine = get_engine()
    if engine.dialect.name == "sqlite":
        with sqlite3.connect(engine.url.database or "") as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@contextlib.contextmanager
def _ledger_locked() -> Iterator[None]:
    """Hold the lock a ledger write needs, so the server's charge waits (uncommitted) until we let go."""
    engine = get_engine()
    if engine.dialect.name == "sqlite":
        holder = sqlite3.connect(engine.url.database or "", timeout=60, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    with engine.connect() as connection, connection.begin():
        connection.execute(text("LOCK TABLE ledger_entries IN EXCLUSIVE MODE"))
        yield


def _server_waits_on_a_lock() -> bool:
    engine = get_engine()
    if engine.dialect.name == "sqlite":
        return True  # its busy wait is invisible from here; the caller has seen the DuckDB write end instead
    with engine.connect() as connection:
        return bool(connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )).scalar())


def test_a_bulk_edit_killed_mid_write_is_all_or_nothing_and_can_be_sent_again(server: Server) -> None:
    ids = _campaigns(BULK_SIZE)
    headers = server.login()
    bulk = {"campaign_ids": ids, "changes": {"bid_min": "1.5", "bid_max": "4.5"}}
    request = InFlight("POST", f"{server.url}/api/campaigns/bulk", json=bulk, headers=headers)
    wait_until(lambda: request.done() or writing_now(), "the server to start writing the bulk edit")
    assert not request.done(), "the bulk edit ended before the server was seen writing it: make it larger"
    server.kill()
    request.join()
    assert request.reply is None  # the client saw its connection drop: no answer, and so no promise

    _sqlite_intact()
    with session_scope() as db:
        changed = db.exec(select(func.count()).where(col(Campaign.id).in_(ids), Campaign.bid_min_micros == 1_500_000)
                          ).one()
        audited = db.exec(select(func.count()).where(AuditEntry.entity == "campaign", AuditEntry.action == "update",
                                                     col(AuditEntry.entity_id).in_([str(i) for i in ids]))).one()
    assert (changed, audited) in ((0, 0), (BULK_SIZE, BULK_SIZE)), "a bulk edit was left half-written"

    server.start()  # on the same data
    reply = httpx.post(f"{server.url}/api/campaigns/bulk", json=bulk, headers=server.login(), timeout=300)
    assert reply.status_code == 200, reply.text
    assert all(row["ok"] for row in reply.json()["data"])
    with session_scope() as db:
        assert db.exec(select(func.count()).where(col(Campaign.id).in_(ids), Campaign.bid_min_micros == 1_500_000)
                       ).one() == BULK_SIZE


def _batch_csv(advertiser_id: int, campaign_id: int, rows: int) -> str:
    lines = ["hour,advertiser_id,campaign_id,creative_id,exchange,os,country,app,device_type,impressions,clicks,"
             "spend_micros,conversions"]
    lines += [f"2026-11-{1 + n // 24 % 28:02d}T{n % 24:02d}:00:00Z,{advertiser_id},{campaign_id},0,Google AdX,Android,"
              f"DE,com.example.app{n // 672},phone,100,1,{1000 + n % 7},0" for n in range(rows)]
    return "\n".join(lines) + "\n"


def _stored_batch(analytics: Path, batch_id: str) -> int | None:
    """The batch's stored spend, read from the statistics file of the dead server; None when it is not there."""
    with duckdb.connect(str(analytics), read_only=True) as store:
        found = store.execute("SELECT seq FROM batches WHERE batch_id = ?", [batch_id]).fetchone()
        if found is None:
            assert store.execute("SELECT count(*) FROM delivery WHERE batch NOT IN (SELECT seq FROM batches)"
                                 ).fetchone() == (0,), "rows of an unrecorded batch were left in the store"
            return None
        return int(store.execute("SELECT sum(spend_micros) FROM delivery WHERE batch = ?", [found[0]]).fetchone()[0])


def _charged(db: Session, batch_id: str) -> int:
    return -int(db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0))
                        .where(col(LedgerEntry.reference).startswith(f"stats:{batch_id}:"))).one())


def _ledger_matches_balance(server: Server, headers: dict[str, str], advertiser_id: int) -> int:
    ledger = httpx.get(f"{server.url}/api/funds/{advertiser_id}/ledger", headers=headers,
                       timeout=60).json()["data"]["items"]
    balance = httpx.get(f"{server.url}/api/funds/{advertiser_id}/balance", headers=headers, timeout=60).json()["data"]
    with session_scope() as db:
        total = int(db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0))
                            .where(LedgerEntry.advertiser_id == advertiser_id)).one())
    assert balance["balance_micros"] == total, (balance, total)
    assert ledger, "the ledger reads back"
    return total


def _ingest_and_kill(server: Server, demo_ids: dict[str, int], kill_when: str) -> tuple[str, str, dict[str, str]]:
    advertiser = demo_ids["advertiser@demo.example"]
    campaign = _campaigns(1)[0]
    batch_id, body = f"kill-{kill_when}", _batch_csv(advertiser, campaign, BATCH_ROWS)
    headers = server.login()
    url = f"{server.url}/api/statistics/batches/csv"
    data_dir = server.data_dir
    if kill_when == "storing":
        request = InFlight("POST", url, params={"batch_id": batch_id}, content=body, headers=headers)
        # DuckDB's write goes through files in an ingest-* folder beside the statistics file: it is under way.
        wait_until(lambda: request.done() or any(data_dir.glob("ingest-*")), "the server to start storing the batch")
        assert not request.done(), "the batch was stored before the server was seen writing it"
        server.kill()
    else:  # "charging": stored in DuckDB, its ledger charge not committed
        with _ledger_locked():
            request = InFlight("POST", url, params={"batch_id": batch_id}, content=body, headers=headers)
            wait_until(lambda: any(data_dir.glob("ingest-*")), "the server to start storing the batch")
            wait_until(lambda: not any(data_dir.glob("ingest-*")) and _server_waits_on_a_lock(),
                       "the server to store the batch and wait to charge it")
            assert not request.done()
            server.kill()
    request.join()
    assert request.reply is None
    return batch_id, body, headers


@pytest.mark.parametrize("kill_when", ["storing", "charging"])
def test_an_ingestion_batch_killed_mid_write_is_whole_or_absent_and_its_retry_charges_once(
        server: Server, demo_ids: dict[str, int], kill_when: str) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    batch_id, body, _ = _ingest_and_kill(server, demo_ids, kill_when)

    _sqlite_intact()
    stored = _stored_batch(server.data_dir / "analytics.duckdb", batch_id)
    with session_scope() as db:
        charged = _charged(db, batch_id)
    if kill_when == "storing":
        assert (stored, charged) == (None, 0)
    else:
        assert stored is not None and stored > 0 and charged == 0  # stored, not yet charged: the retry charges it

    server.start()
    headers = server.login()
    before = _ledger_matches_balance(server, headers, advertiser)
    url = f"{server.url}/api/statistics/batches/csv"
    reply = httpx.post(url, params={"batch_id": batch_id}, content=body, headers=headers, timeout=300)
    assert reply.status_code == 200, reply.text
    assert reply.json()["data"]["duplicate"] is (kill_when == "charging")
    # The statistics file, opened again, clears what the dead process left half-written beside it.
    assert not any(server.data_dir.glob("ingest-*")), "the dead server's half-written files were left behind"
    again = httpx.post(url, params={"batch_id": batch_id}, content=body, headers=headers, timeout=300)
    assert again.json()["data"]["duplicate"] is True
    spend = int(reply.json()["data"]["spend_micros_by_advertiser"][str(advertiser)])
    with session_scope() as db:
        assert _charged(db, batch_id) >= spend  # the spend, plus the agency's margin when one is set
        # Charged per campaign ("stats:<batch>:<advertiser>:c<campaign>:spend"): the batch's spend entries add up.
        spend_only = -int(db.exec(select(func.sum(LedgerEntry.amount_micros))
                                  .where(col(LedgerEntry.reference).startswith(f"stats:{batch_id}:{advertiser}:"),
                                         LedgerEntry.kind == "spend")).one())
    assert spend_only == spend
    after = _ledger_matches_balance(server, headers, advertiser)
    with session_scope() as db:
        assert before - after == _charged(db, batch_id)
    statistics = httpx.get(f"{server.url}/api/statistics", headers=headers, timeout=60,
                           params={"start": "2026-11-01", "end": "2026-11-28", "advertiser_id": advertiser}).json()
    assert statistics["success"], statistics


def test_a_server_killed_between_a_batchs_statistics_and_its_charge_charges_it_at_the_restart_without_a_retry(
        demo_ids: dict[str, int], tmp_path: Path) -> None:
    """The test build's halt point between the statistics write and the charge (app/kernel/halt_points.py) holds
    the server there; SIGKILL; the restarted server's reconciler (app/statistics/charge_reconciler.py, run at each
    start) charges the stored batch, exactly once, before anyone sends it again."""
    advertiser = demo_ids["advertiser@demo.example"]
    campaign = _campaigns(1)[0]
    batch_id, body = "kill-between", _batch_csv(advertiser, campaign, 500)
    server = Server(tmp_path / "data", env={HALT_AT: "statistics.stored", "DSP_CHARGE_RECONCILE_MINUTES": "5"})
    halted = halted_file(server.data_dir, "statistics.stored")
    try:
        server.start()
        headers = server.login()
        before = _ledger_matches_balance(server, headers, advertiser)
        request = InFlight("POST", f"{server.url}/api/statistics/batches/csv", params={"batch_id": batch_id},
                           content=body, headers=headers)
        wait_until(lambda: request.done() or halted.exists(), "the server to store the batch and halt before its charge")
        assert not request.done(), request.reply.text if request.reply else request.error
        server.kill()
        request.join()
        assert request.reply is None  # the sender never heard back, and will not retry
        stored = _stored_batch(server.data_dir / "analytics.duckdb", batch_id)
        with session_scope() as db:
            assert stored is not None and stored > 0 and _charged(db, batch_id) == 0

        halted.unlink()
        del server.env[HALT_AT]
        server.start()  # on the same data; nobody sends the batch again
        headers = server.login()

        def charged() -> int:
            with session_scope() as db:
                return _charged(db, batch_id)

        total = wait_until(charged, "the restarted server to charge the batch it had stored", every_s=0.2)
        with session_scope() as db:
            spend_only = -int(db.exec(select(func.sum(LedgerEntry.amount_micros)).where(
                col(LedgerEntry.reference).startswith(f"stats:{batch_id}:"), LedgerEntry.kind == "spend")).one())
            recovered = db.exec(select(AuditEntry).where(AuditEntry.entity == "statistics_batch",
                                                         AuditEntry.entity_id == batch_id)).all()
        assert spend_only == stored and total >= stored  # its spend, and the agency's margin when one is set
        assert [r.action for r in recovered] == ["charge_recovered"]
        assert _ledger_matches_balance(server, headers, advertiser) == before - total
        late = httpx.post(f"{server.url}/api/statistics/batches/csv", params={"batch_id": batch_id}, content=body,
                          headers=headers, timeout=300)
        assert late.json()["data"]["duplicate"] is True  # a retry after all: duplicate, and charged nothing more
        assert charged() == total
    finally:
        server.stop()


def test_deposits_killed_mid_write_are_each_whole_and_the_ledger_adds_up(server: Server,
                                                                           demo_ids: dict[str, int]) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    headers = server.login()
    answered: list[str] = []

    def deposit(note: str) -> httpx.Response:
        return httpx.post(f"{server.url}/api/funds", headers=headers, timeout=60,
                          json={"advertiser_id": advertiser, "amount": "12.34", "kind": "deposit", "note": note})

    class Depositor(InFlight):
        def _send(self, *_args: Any, **_kwargs: Any) -> None:
            number = 0
            with contextlib.suppress(httpx.HTTPError):
                while True:
                    number += 1
                    if deposit(f"kill test {number}").status_code == 201:
                        answered.append(f"kill test {number}")

    depositor = Depositor("POST", "")
    wait_until(lambda: len(answered) >= 3 and writing_now(), "the server to be writing a deposit")
    server.kill()
    depositor.join()

    _sqlite_intact()
    with session_scope() as db:
        notes = list(db.exec(select(LedgerEntry.note).where(LedgerEntry.advertiser_id == advertiser,
                                                           col(LedgerEntry.note).startswith("kill test "))))
        audited = list(db.exec(select(AuditEntry.changes).where(AuditEntry.entity == "funds",
                                                             AuditEntry.entity_id == str(advertiser),
                                                             AuditEntry.action == "deposit")))
    assert set(answered) <= set(notes), "a deposit the client was told about is missing"
    assert len(notes) <= len(answered) + 1  # at most the one in flight, whole
    audited_notes = [changes["note"][1] for changes in audited]  # {field: [before, after]}
    assert sorted(notes) == sorted(n for n in audited_notes if n.startswith("kill test ")), "a deposit without its audit"

    server.start()
    headers = server.login()
    before = _ledger_matches_balance(server, headers, advertiser)
    assert deposit("after the restart").status_code == 201
    assert _ledger_matches_balance(server, headers, advertiser) == before + 12_340_000


@pytest.fixture
def short_job_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    """The killed server's job is handed on 2 s after its last lease renewal, not 30 s (both servers read it)."""
    monkeypatch.setenv("DSP_JOBS_LEASE_SECONDS", "2")


_CATCH_TRIES = 10


def test_a_report_run_killed_mid_run_is_finished_or_failed_with_its_reason_after_the_restart(
        short_job_lease: None, server: Server, demo_ids: dict[str, int]) -> None:
    headers = server.login()
    created = httpx.post(f"{server.url}/api/report/create", headers=headers, timeout=60, json={
        "name": "Killed", "report_type": "geo", "period": "last_30_days"})
    assert created.status_code == 200, created.text
    report_id = created.json()["data"]["id"]
    engine = get_engine()

    # The run cannot finish while we hold the lock its progress and completion writes need. The lock can only be
    # taken once /reports/generate has answered (that call writes too), and on a busy machine the whole run can
    # end in between; such a run was not caught, so the test asks for another (each try is a fresh run).
    for _ in range(_CATCH_TRIES):
        held = contextlib.ExitStack()
        reply = httpx.post(f"{server.url}/api/reports/generate", headers=headers, json={"report_id": report_id},
                           timeout=60)
        assert reply.status_code == 200, reply.text
        run_id = reply.json()["data"]["run_id"]
        if engine.dialect.name == "sqlite":
            holder = sqlite3.connect(engine.url.database or "", timeout=60, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            held.callback(holder.close)
            held.callback(holder.execute, "ROLLBACK")
            status = holder.execute("SELECT status FROM report_runs WHERE id = ?", [run_id]).fetchone()[0]
        else:
            connection = held.enter_context(engine.connect())
            held.enter_context(connection.begin())
            connection.execute(text("LOCK TABLE report_runs IN EXCLUSIVE MODE"))
            status = connection.execute(text("SELECT status FROM report_runs WHERE id = :id"), {"id": run_id}).scalar()
        if status in ("pending", "running"):
            with held:
                server.kill()
            break
        held.close()
    else:
        pytest.fail(f"every one of {_CATCH_TRIES} runs ended before the lock was taken")

    server.start()  # the job is still in the queue; a run the dead process was generating is failed
    headers = server.login()

    def finished() -> dict[str, Any] | None:
        runs = httpx.get(f"{server.url}/api/report/getSingle", params={"report_id": report_id}, headers=headers,
                         timeout=60).json()["data"]["runs"]
        run = next(r for r in runs if r["id"] == run_id)
        return run if run["status"] in ("completed", "failed") else None

    run = wait_until(finished, "the interrupted run to end", every_s=0.2)
    if status == "pending":  # its job waited in the queue (or was claimed, not begun): the new server runs it
        assert (run["status"], run["error"]) == ("completed", ""), run
    else:  # the killed server was generating it: failed, with the reason its owner reads on the reports page
        assert (run["status"], run["error"]) == ("failed", "interrupted by a restart"), run
    with session_scope() as db:
        assert db.get(ReportRun, run_id).attempts <= 1  # never generated twice
