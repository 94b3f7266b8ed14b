"""/api/ready: whether this process can serve, part by part. Each check answers (ok, reason); a failing one
names itself, so an operator (or a load balancer's log) reads which part is down without looking further.
Run on a worker thread (the API route is sync): every check touches a database, a file or the disk."""

from __future__ import annotations

import shutil
from collections.abc import Callable

from sqlalchemy import text

from app import jobs
from app.kernel.config import get_settings
from app.kernel.db import get_engine
from app.warehouse import get_store

MB = 1024 * 1024


def database() -> str:
    with get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))
    return "answers"


def statistics() -> str:
    get_store().first_and_last_hour([0])  # a real read, of an advertiser that never exists: cheap
    return "answers"


def job_queue() -> str:
    return f"{jobs.depth()} queued, {jobs.failures()} failed" + ("" if jobs.running() else ", no worker in this process")


def disk() -> str:
    settings = get_settings()
    free_mb = shutil.disk_usage(settings.data_dir).free // MB
    if free_mb < settings.ready_min_free_disk_mb:
        raise RuntimeError(f"{free_mb} MB free in {settings.data_dir}, under DSP_READY_MIN_FREE_DISK_MB="
                           f"{settings.ready_min_free_disk_mb}")
    return f"{free_mb} MB free"


CHECKS: dict[str, Callable[[], str]] = {"database": database, "statistics": statistics, "job queue": job_queue,
                                        "disk": disk}


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def check_all() -> dict[str, tuple[bool, str]]:
    """Each part's name -> (ok, short reason)."""
    answers: dict[str, tuple[bool, str]] = {}
    for name, check in CHECKS.items():
        try:
            answers[name] = (True, check())
        except Exception as error:  # any failure of a part is that part not ready, said in its answer
            answers[name] = (False, f"{type(error).__name__}: {_first_line(error)}")
    return answers
