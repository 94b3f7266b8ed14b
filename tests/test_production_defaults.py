"""Safe production defaults (issue 25), as an operator meets them through `python -m app` and `make`: settings the
console must not run on are refused in one line naming the setting (no traceback, a non-zero exit); production keeps
one-time codes out of its log, refuses the demo seed unless told, and sends HSTS behind a TLS proxy; serve on a
never-migrated data directory migrates it; `make clean-data` empties the data directory and nothing else."""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.kernel.config import _DEV_SECRET, MAKE_A_SECRET, REPO_ROOT, Settings, refusal_lines
from app.messaging.mail import MAIL_NOT_CONFIGURED
from tests.faults import Server, running, wait_until

STRONG_SECRET = secrets.token_urlsafe(48)
PRODUCTION = {"DSP_ENVIRONMENT": "production", "DSP_SECRET_KEY": STRONG_SECRET}


def _app(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGS` on its own data directory and SQLite database, as an operator runs it."""
    environment = {**os.environ, "DSP_DATA_DIR": str(data_dir), "DATABASE_URL": "", "DSP_ENVIRONMENT": "development",
                   **env}
    environment.pop("DSP_ANALYTICS_FILE", None)
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=environment, capture_output=True,
                          text=True, timeout=300)


def _refusal(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command printed; it must have failed, and without a traceback."""
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_an_unknown_environment_refuses_to_start_naming_the_allowed_values(tmp_path: Path) -> None:
    said = _refusal(_app(tmp_path, "serve", DSP_ENVIRONMENT="prod"))  # it ran as development
    assert said == "DSP_ENVIRONMENT='prod' is not an environment: use development or production (test is the test " \
                   "suite's own)"
    for value in ("Production", "staging"):  # the same check, without a process each
        with pytest.raises(ValidationError) as refused:
            Settings(environment=value)  # type: ignore[arg-type]
        assert refusal_lines(refused.value) == [said.replace("'prod'", repr(value))]


def test_production_refuses_a_weak_secret_key_and_says_how_to_make_one(tmp_path: Path) -> None:
    said = _refusal(_app(tmp_path, "serve", DSP_ENVIRONMENT="production", DSP_SECRET_KEY=""))
    assert said.startswith("DSP_SECRET_KEY is empty: production needs a secret of at least 32 characters")
    assert said.endswith(MAKE_A_SECRET)
    for secret, problem in ((_DEV_SECRET, "is the development default"), ("a-real-but-short-secret", "is 23 "
                                                                         "characters long")):
        with pytest.raises(ValidationError) as refused:
            Settings(environment="production", secret_key=secret)
        assert refusal_lines(refused.value) == [said.replace("is empty", problem)]  # and the secret is not echoed


def test_production_refuses_the_demo_seed_unless_told(tmp_path: Path) -> None:
    said = _refusal(_app(tmp_path, "seed-demo", **PRODUCTION))
    assert "--i-know-this-is-production" in said and "create-admin" in said
    with sqlite3.connect(tmp_path / "dsp.sqlite3") as database:  # refused before anything was written
        assert database.execute("SELECT name FROM sqlite_master").fetchall() == []
    assert _app(tmp_path, "migrate", **PRODUCTION).returncode == 0
    seeded = _app(tmp_path, "seed-demo", "--i-know-this-is-production", **PRODUCTION)
    assert seeded.returncode == 0, seeded.stderr
    assert "admin@demo.example" in _users(tmp_path)


def _users(data_dir: Path) -> list[str]:
    with sqlite3.connect(data_dir / "dsp.sqlite3") as database:
        return [email for (email,) in database.execute("SELECT email FROM users")]


def test_serve_refuses_a_database_at_another_releases_schema(tmp_path: Path) -> None:
    upgrade = "from alembic import command; from app.kernel import db; command.upgrade(db.alembic_config(), '0001')"
    environment = {**os.environ, "DSP_DATA_DIR": str(tmp_path), "DATABASE_URL": ""}
    subprocess.run([sys.executable, "-c", upgrade], cwd=REPO_ROOT, env=environment, check=True, timeout=300)
    said = _refusal(_app(tmp_path, "serve"))
    assert said.startswith("The database's schema (0001) is not this release's newest")
    assert "`python -m app migrate`" in said
    with sqlite3.connect(tmp_path / "dsp.sqlite3") as database:  # as a newer release would leave it
        database.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    said = _refusal(_app(tmp_path, "serve"))
    assert said.startswith("The database's schema (9999_from_the_future) was made by a newer release")


def test_serve_refuses_a_database_no_migration_made(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "dsp.sqlite3") as database:
        database.execute("CREATE TABLE somebody_elses (id INTEGER)")
    said = _refusal(_app(tmp_path, "serve"))
    assert said.startswith("The database has tables but no record of any migration")


def test_a_database_it_cannot_reach_is_named_in_one_line(tmp_path: Path) -> None:
    said = _refusal(_app(tmp_path, "serve", DATABASE_URL="postgresql://dsp:s3cret@127.0.0.1:1/dsp"))
    assert said.startswith("The database postgresql://dsp:***@127.0.0.1:1/dsp cannot be reached: ")  # no password
    assert said.endswith("Check DATABASE_URL, and that the database server is running.")


def test_production_on_a_never_migrated_directory_migrates_and_keeps_codes_out_of_its_log(tmp_path: Path) -> None:
    """A fresh install in production, behind a TLS proxy on this machine (uvicorn trusts 127.0.0.1's
    X-Forwarded-Proto), with no SMTP host yet: someone registers."""
    fresh = tmp_path / "fresh"
    database = fresh / "dsp.sqlite3"
    env = {**PRODUCTION, "FORWARDED_ALLOW_IPS": "127.0.0.1", "DSP_SMTP_HOST": ""}
    with running(fresh, database_url=f"sqlite:///{database}", env=env) as server:
        _wait_for_log(server, "the database is empty: migrating it first")
        behind_tls = httpx.get(f"{server.url}/login", headers={"X-Forwarded-Proto": "https"}, timeout=60)
        assert behind_tls.headers["strict-transport-security"] == "max-age=31536000"
        assert "strict-transport-security" not in httpx.get(f"{server.url}/login", timeout=60).headers
        registered = httpx.post(f"{server.url}/api/auth/register", headers={"Origin": server.url}, timeout=60,
                                json={"email": "new.buyer@shop.example", "password": "secret-123",
                                      "firstName": "New", "lastName": "Buyer", "companyName": "Shop"})
        assert registered.status_code == 200, registered.text
        log = _wait_for_log(server, f"mail to new.buyer@shop.example NOT sent: {MAIL_NOT_CONFIGURED}")
    with sqlite3.connect(database) as opened:
        subject, body, sent_at, error = opened.execute(
            "SELECT subject, body, sent_at, error FROM email_outbox WHERE to_address = 'new.buyer@shop.example'"
        ).fetchone()
    code = subject.split()[-1]
    assert code in body and sent_at is None and error == MAIL_NOT_CONFIGURED  # the outbox keeps it, unsent
    assert code not in log, "a one-time code was written to the production log"


def _wait_for_log(server: Server, line: str) -> str:
    """The server's log once it holds `line` (its output reaches the file through a pipe and a thread)."""
    return str(wait_until(lambda: (lambda text: text if line in text else "")(server.log_path.read_text()),
                          f"{line!r} in the server's log"))


def test_an_empty_secret_key_in_development_signs_in(tmp_path: Path, demo_ids: dict[str, int]) -> None:
    """It answered 500 at the first sign-in: development signs with its default instead. (The same server shows
    that a proxy outside FORWARDED_ALLOW_IPS cannot claim https: its X-Forwarded-Proto earns no HSTS.)"""
    env = {"DSP_ENVIRONMENT": "development", "DSP_SECRET_KEY": "", "DSP_JOBS_QUEUE": "empty_secret",
           "FORWARDED_ALLOW_IPS": "192.0.2.1"}
    with running(tmp_path, env=env) as server:
        token = server.login()
        assert httpx.get(f"{server.url}/api/auth/profile", headers=token, timeout=60).status_code == 200
        claimed = httpx.get(f"{server.url}/login", headers={"X-Forwarded-Proto": "https"}, timeout=60)
        assert "strict-transport-security" not in claimed.headers


def _clean_data(data_dir: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`make clean-data` with DSP_DATA_DIR=data_dir. `find` (what deletes) is a stand-in that records its call
    and deletes nothing unless the directory is under tmp_path: a refusal that broke must not wipe this machine."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir(exist_ok=True)
    (fake_bin / "find").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path}/find-calls\n'
                                   f'case "$1" in {tmp_path}/*) exec /usr/bin/find "$@";; esac\nexit 1\n')
    (fake_bin / "find").chmod(0o755)
    env = {**os.environ, "DSP_DATA_DIR": data_dir, "PATH": f"{fake_bin}:{os.environ['PATH']}"}
    return subprocess.run(["make", "--no-print-directory", "clean-data"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_make_clean_data_empties_the_data_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "uploads" / "creatives").mkdir(parents=True)
    (data / "uploads" / "creatives" / "banner.png").write_bytes(b"png")
    (data / "dsp.sqlite3").write_bytes(b"db")
    (data / ".hidden").write_text("x")
    done = _clean_data(str(data), tmp_path)
    assert done.returncode == 0, done.stderr
    assert data.is_dir() and list(data.iterdir()) == []
    assert f"{data} is empty" in done.stdout


@pytest.mark.parametrize("data_dir", ["", "/", "//", "/tmp/.."])
def test_make_clean_data_refuses_an_empty_or_root_directory(tmp_path: Path, data_dir: str) -> None:
    done = _clean_data(data_dir, tmp_path)
    assert done.returncode != 0
    assert f"clean-data: refused: DSP_DATA_DIR='{data_dir}'" in done.stderr
    assert not (tmp_path / "find-calls").exists(), "nothing may be deleted"
