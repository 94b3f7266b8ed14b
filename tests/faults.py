"""The real server as a subprocess that tests can kill -9, starve of disk or cut off from its database, and restart
on the same data: tests/test_faults_*.py. Its output goes through a pipe (a file-size limit put on the server
must not stop its own log) into <data dir>/server.log, which a failure message quotes."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.db import get_engine

START_LIMIT_S = 180  # only guards against a hang: start-up took over 30 s on this 2-core machine at load 9


def wait_until(condition: Callable[[], Any], what: str, limit_s: float = 120, every_s: float = 0.02) -> Any:
    """Poll `condition` until it answers something true; that answer. The limit only guards against a hang."""
    deadline = time.monotonic() + limit_s
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(every_s)


def _ignore_file_size_signal() -> None:
    # Past RLIMIT_FSIZE a write fails with EFBIG instead of the process being killed by SIGXFSZ, as it does on a
    # full disk (ENOSPC). An ignored disposition survives exec.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


class Server:
    """`python -m app serve` on its own data directory and a socket bound here (no port race), sharing the test
    process's database (SQLite file or PostgreSQL), so tests seed and inspect it directly."""

    def __init__(self, data_dir: Path, *, database_url: str | None = None, env: dict[str, str] | None = None,
                 name: str = "server") -> None:
        self.data_dir = data_dir
        self.database_url = database_url or get_settings().sqlalchemy_url
        self.env = env or {}  # more settings (several servers on shared stores: tests/test_many_processes.py)
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.log_path = data_dir / f"{name}.log"
        self.starts = 0

    def start(self) -> Server:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        env = {**os.environ, "DSP_DATA_DIR": str(self.data_dir), "DATABASE_URL": self.database_url,
               "DSP_ENVIRONMENT": "test", **self.env}
        env.pop("DSP_ANALYTICS_FILE", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--fd", str(listener.fileno())], cwd=REPO_ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(listener.fileno(),),
            preexec_fn=_ignore_file_size_signal)
        self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        listener.close()  # the server holds its own copy
        self.starts += 1
        threading.Thread(target=self._drain, args=(self.process, self.starts), daemon=True).start()
        wait_until(lambda: self.process.poll() is not None or self._healthy(), "the server to start", START_LIMIT_S,
                   every_s=0.2)
        if self.process.poll() is not None:
            raise AssertionError(f"the server exited with {self.process.returncode}:\n{self.log_tail()}")
        return self

    def _drain(self, process: subprocess.Popen[bytes], start: int) -> None:
        assert process.stdout is not None
        with open(self.log_path, "ab") as log:
            log.write(f"=== start {start} ===\n".encode())
            for line in process.stdout:
                log.write(line)
                log.flush()

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing, no rollback: what a power cut or the OOM killer does."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)

    def login(self, email: str = "admin@demo.example") -> dict[str, str]:
        reply = httpx.post(f"{self.url}/api/auth/login/", json={"email": email, "password": DEMO_PASSWORD},
                           timeout=60)
        assert reply.status_code == 200, reply.text
        return {"Authorization": f"Bearer {reply.json()['data']['token']}"}


@contextlib.contextmanager
def running(data_dir: Path, **kwargs: Any) -> Iterator[Server]:
    server = Server(data_dir, **kwargs)
    try:
        yield server.start()
    finally:
        server.stop()


def writing_now() -> bool:
    """Whether some other connection is inside a write transaction on the test database right now: the moment to
    kill the server mid-write. SQLite: its write lock is taken (our BEGIN IMMEDIATE fails at once). PostgreSQL:
    another backend has a transaction id, which it gets with its first write."""
    engine = get_engine()
    if engine.dialect.name == "sqlite":
        probe = sqlite3.connect(engine.url.database or "", timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            probe.close()
    with engine.connect() as connection:
        return bool(connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_xid IS NOT NULL")).scalar())


class InFlight:
    """A request sent on its own thread, so the test can kill the server while it is being served."""

    def __init__(self, method: str, url: str, **kwargs: Any) -> None:
        self.reply: httpx.Response | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._send, args=(method, url), kwargs=kwargs, daemon=True)
        self._thread.start()

    def _send(self, method: str, url: str, **kwargs: Any) -> None:
        try:
            self.reply = httpx.request(method, url, timeout=300, **kwargs)
        except httpx.HTTPError as error:
            self.error = error

    def done(self) -> bool:
        return not self._thread.is_alive()

    def join(self) -> None:
        self._thread.join(timeout=300)
        assert not self._thread.is_alive(), "the request never ended"
