"""DSP_WORKERS: how many server processes `python -m app serve` runs (issue 23, "one server, every core"). More
than one only where the processes can share what they keep: the database (PostgreSQL) and the statistics store
(a ClickHouse server). Asked for more elsewhere, serve refuses and names the setting to change, instead of
starting processes that look healthy and fail on the first write or statistics read."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.cli import serving_processes
from app.kernel.config import REPO_ROOT, Settings

POSTGRESQL = "postgresql://dsp@127.0.0.1:5432/dsp"
CLICKHOUSE = "clickhouse://default:@127.0.0.1:8123/dsp"


def _refusal(**settings: object) -> str:
    with pytest.raises(SystemExit) as refused:
        serving_processes(Settings(**settings))  # type: ignore[arg-type]
    return str(refused.value)


def test_one_process_by_default_unless_database_and_statistics_are_both_shared() -> None:
    assert serving_processes(Settings(DATABASE_URL="")) == 1
    assert serving_processes(Settings(DATABASE_URL=POSTGRESQL)) == 1  # the DuckDB file: one process
    assert serving_processes(Settings(DATABASE_URL="", statistics_url=CLICKHOUSE)) == 1  # SQLite
    assert serving_processes(Settings(DATABASE_URL=POSTGRESQL, statistics_url=CLICKHOUSE)) == os.cpu_count()


def test_the_number_asked_for_is_run_where_it_can_be() -> None:
    assert serving_processes(Settings(DATABASE_URL=POSTGRESQL, statistics_url=CLICKHOUSE, workers=3)) == 3
    assert serving_processes(Settings(DATABASE_URL="", workers=1)) == 1


def test_several_processes_on_sqlite_are_refused_naming_the_settings() -> None:
    said = _refusal(DATABASE_URL="", workers=2)
    assert said.startswith("DSP_WORKERS=2: several server processes need PostgreSQL")
    assert "DATABASE_URL" in said and "DSP_WORKERS=1" in said


@pytest.mark.parametrize(("url", "kind"), [("", "DuckDB"), ("duckdb:///stats.duckdb", "DuckDB"),
                                           ("chdb:///stats.chdb", "chDB")])
def test_several_processes_on_a_one_process_statistics_store_are_refused(url: str, kind: str) -> None:
    said = _refusal(DATABASE_URL=POSTGRESQL, statistics_url=url, workers=4)
    assert f"the {kind} store is opened by one process" in said
    assert "DSP_STATISTICS_URL=clickhouse://" in said and "DSP_WORKERS=1" in said


def test_serve_refuses_before_listening() -> None:
    env = {**os.environ, "DSP_WORKERS": "2", "DATABASE_URL": ""}
    done = subprocess.run([sys.executable, "-m", "app", "serve"], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("DSP_WORKERS=2: several server processes need PostgreSQL")
