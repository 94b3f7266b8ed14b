"""A console of its own for tests that run `python -m app` commands as an operator would (backups, upgrades): a
data directory under the test's tmp_path and a database of its own (a SQLite file there, or a new database on
the PostgreSQL pass's server), reached only through subprocesses, so nothing is shared with the suite's process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from app.kernel.config import REPO_ROOT, get_settings

COMMAND_LIMIT_S = 300  # only guards against a hang on a busy machine


@dataclass
class Console:
    data_dir: Path
    database_url: str  # as DATABASE_URL takes it
    settings: dict[str, str] = field(default_factory=dict)  # more DSP_* variables (another store, a bucket)

    @property
    def sqlalchemy_url(self) -> str:
        """The database's URL for SQLAlchemy in the test process (the driver named as the console names it)."""
        return self.database_url.replace("postgresql://", "postgresql+psycopg://", 1)

    @property
    def env(self) -> dict[str, str]:
        env = {**os.environ, "DSP_DATA_DIR": str(self.data_dir), "DATABASE_URL": self.database_url,
               "DSP_ENVIRONMENT": "test"}
        for own in ("DSP_ANALYTICS_FILE", "DSP_STATISTICS_URL", "DSP_FILES_URL"):
            env.pop(own, None)
        return {**env, **self.settings}

    def run(self, *commands: list[str]) -> subprocess.CompletedProcess[str]:
        """`python -m app COMMAND` for each command in turn, in one process (one start-up), stopping at the first
        that exits non-zero."""
        script = "import sys\nfrom app.cli import main\nfor c in %r:\n    main(c)\n" % [list(c) for c in commands]
        return subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=self.env, capture_output=True,
                              text=True, timeout=COMMAND_LIMIT_S)

    def ok(self, *commands: list[str]) -> str:
        done = self.run(*commands)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def figures(self, start: str, end: str) -> dict[str, Any]:
        """What tests/console_figures.py reads from this console."""
        done = subprocess.run([sys.executable, "-m", "tests.console_figures", start, end], cwd=REPO_ROOT,
                              env=self.env, capture_output=True, text=True, timeout=COMMAND_LIMIT_S)
        assert done.returncode == 0, done.stderr[-3000:]
        figures: dict[str, Any] = json.loads(done.stdout)
        return figures

    def wipe(self) -> None:
        """The data directory and the database gone, as on a new machine (an empty database of the same name)."""
        import shutil

        shutil.rmtree(self.data_dir)
        self.data_dir.mkdir()
        if self.database_url.startswith("postgresql"):
            name = self.database_url.rsplit("/", 1)[1]
            _drop_database(name)
            _server_command(f'CREATE DATABASE "{name}"')


def _server_command(sql: str) -> None:
    engine = create_engine(get_settings().sqlalchemy_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(sql))
    finally:
        engine.dispose()


def _drop_database(name: str) -> None:
    _server_command(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def scratch_console(folder: Path, **settings: str) -> Iterator[Console]:
    """A console in `folder`, on the suite's kind of database, with more `settings` (DSP_* variables); its
    PostgreSQL database is dropped afterwards."""
    data_dir = folder / "data"
    data_dir.mkdir(parents=True)
    if not get_settings().sqlalchemy_url.startswith("postgresql"):
        yield Console(data_dir, f"sqlite:///{data_dir / 'dsp.sqlite3'}", settings)
        return
    name = f"dsp_scratch_{uuid.uuid4().hex[:12]}"
    _server_command(f'CREATE DATABASE "{name}"')
    try:
        yield Console(data_dir, os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{name}", settings)
    finally:
        _drop_database(name)
