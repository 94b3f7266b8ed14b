"""A server process's job worker and nothing else, for tests/test_jobs.py (killed with SIGKILL mid-job).
Run as `python -m tests.job_worker`; the database is the one the environment names, as for the server."""

from __future__ import annotations

import threading

import app.tables  # noqa: F401  (every table, as the console loads them)
import tests.job_tasks  # noqa: F401  (the tests' tasks)
from app import jobs

if __name__ == "__main__":
    jobs.start()
    print("worker started", flush=True)
    threading.Event().wait()  # until killed
