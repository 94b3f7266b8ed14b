"""Upgrades (issue 25, "migrate documented and tested from the previous release's schema"). There are no tagged
releases, so the previous release is a schema some migrations back: a console is made at OLDER_REVISION and
given users, a campaign and a ledger entry as that schema had them; `python -m app migrate` brings it to the
newest revision, and the data is all there and served: the admin signs in, the API lists the campaign with the
advertiser's balance, and a page answers. The backup taken before the upgrade restores on the new code with
--other-revision, and is migrated as well."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import httpx
import pytest
from sqlalchemy import MetaData, create_engine, insert, text

from app.access.passwords import hash_password
from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.db import MIGRATION_LOCK, head_revision
from app.kernel.natural_order import natural_sort_key
from tests.faults import Server, wait_until
from tests.scratch_console import scratch_console

# Before the ledger's campaign column (0017, which rebuilds ledger_entries on SQLite) and the job queue (0018, 0019):
# the migrations that change tables holding data are the ones to prove.
OLDER_REVISION = "0016"
LEDGER_MICROS = 123_456_789  # $123.456789: the balance must come back to the micro-dollar


def test_a_console_at_an_older_schema_migrates_to_the_newest_and_serves_its_data(tmp_path) -> None:
    with scratch_console(tmp_path) as console:
        console.ok(["migrate", "--to", OLDER_REVISION])
        engine = create_engine(console.sqlalchemy_url)
        try:
            _insert_old_rows(engine)
            old_archive = tmp_path / "before-the-upgrade.tar.gz"
            console.ok(["backup", "--to", str(old_archive)])  # step 1 of the README's upgrade
            console.ok(["migrate"])
            _assert_upgraded(engine)
            # The backup taken before the upgrade restores on the new code when told, and is migrated too.
            engine.dispose()  # no pooled connection to the database about to go
            console.wipe()
            refused = console.run(["restore", str(old_archive)])
            assert refused.returncode == 1 and "--other-revision" in refused.stderr
            console.ok(["restore", str(old_archive), "--other-revision"])
            _assert_upgraded(engine)
        finally:
            engine.dispose()

        server = Server(console.data_dir, database_url=console.database_url).start()
        try:
            headers = server.login("admin@old.example")
            listed = httpx.get(f"{server.url}/api/campaigns", headers=headers, timeout=60)
            assert listed.status_code == 200, listed.text
            assert [row["name"] for row in listed.json()["data"]["items"]] == ["Spring sale"]  # a page (issue 26)
            advertiser_id = listed.json()["data"]["items"][0]["advertiser_id"]
            balance = httpx.get(f"{server.url}/api/funds/{advertiser_id}/balance", headers=headers, timeout=60)
            assert balance.status_code == 200, balance.text
            assert balance.json()["data"]["balance_micros"] == LEDGER_MICROS
            page = httpx.get(f"{server.url}/campaigns", timeout=60)
            assert page.status_code == 200 and "<html" in page.text.lower()
        finally:
            server.stop()


def _assert_upgraded(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head_revision()
        # The column 0017 added is there, empty for the entry written before it.
        assert connection.execute(text("SELECT amount_micros, campaign_id FROM ledger_entries")).all() == [
            (LEDGER_MICROS, None)]
        assert connection.execute(text("SELECT name FROM campaigns")).scalars().all() == ["Spring sale"]
        # 0023 keyed the names written before it, as the application keys new ones (the lists sort on the keys).
        assert connection.execute(text("SELECT name_key FROM campaigns")).scalars().all() == [
            natural_sort_key("Spring sale")]
        assert sorted(connection.execute(text("SELECT name_key FROM users")).scalars()) == [
            natural_sort_key("Old"), natural_sort_key("Shop")]
        # 0025 keyed the people's names the users grid sorts its Name column by, as 0023 did the companies.
        assert sorted(connection.execute(text("SELECT person_key FROM users")).scalars()) == [
            natural_sort_key("Old"), natural_sort_key("Shop")]


def _insert_old_rows(engine) -> None:  # type: ignore[no-untyped-def]
    """Rows as a console at OLDER_REVISION wrote them (through its tables as they were, not today's models)."""
    tables = MetaData()
    tables.reflect(engine, only=["users", "campaigns", "ledger_entries"])
    users, campaigns, ledger = (tables.tables[name] for name in ("users", "campaigns", "ledger_entries"))
    now = datetime.now(UTC).replace(tzinfo=None)
    person = {"password_hash": hash_password(DEMO_PASSWORD), "last_name": "", "company_name": "", "status": "active",
              "created_at": now, "updated_at": now}
    with engine.begin() as connection:
        admin = connection.execute(insert(users).values(
            email="admin@old.example", first_name="Old", role="ADMIN", agency_id=None, **person)).inserted_primary_key[0]
        advertiser = connection.execute(insert(users).values(
            email="shop@old.example", first_name="Shop", role="ADVERTISER", agency_id=None, **person)
        ).inserted_primary_key[0]
        connection.execute(insert(campaigns).values(
            advertiser_id=advertiser, name="Spring sale", objective="awareness", status="draft", starts_at=now,
            ends_at=None, time_zone="UTC", total_budget_micros=50_000_000, daily_budget_micros=None, pacing="even",
            bid_strategy="cpm", bid_micros=2_000_000, traffic_type="app", goal_metric="none", goal_target="",
            targeting={}, created_at=now, updated_at=now))
        connection.execute(insert(ledger).values(
            advertiser_id=advertiser, amount_micros=LEDGER_MICROS, kind="deposit", note="opening deposit",
            created_by=admin, created_at=now, reference=None))


@pytest.mark.skipif(not get_settings().sqlalchemy_url.startswith("postgresql"),
                    reason="a fleet's servers share PostgreSQL; SQLite is the one-process rung")
def test_two_servers_migrating_one_fresh_database_at_once_both_succeed(tmp_path) -> None:
    """A fleet started at once: each server migrates the new, empty database at start-up. The test holds the
    migrations' lock while both start, so both reach the migration together; on release one migrates and the
    other, having waited, finds nothing to do (without the lock both create the same tables and one fails)."""
    with scratch_console(tmp_path) as console:
        engine = create_engine(console.sqlalchemy_url, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as holder:
                holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                both = [subprocess.Popen([sys.executable, "-m", "app", "migrate"], cwd=REPO_ROOT, env=console.env,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                        for _ in range(2)]

                def waiting() -> bool:
                    return holder.execute(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND "
                                               "NOT granted")).scalar() == 2
                wait_until(waiting, "both migrations to wait for the lock", every_s=0.1)
                holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            for process in both:
                _out, err = process.communicate(timeout=300)
                assert process.returncode == 0, err[-3000:]
            with engine.connect() as connection:
                assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        finally:
            engine.dispose()
