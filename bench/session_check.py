"""What the websocket guard's session check costs a page event (issue 24: click -> DOM <= 12 ms), the way the console
asks it and the ways it asked before, on this process's database: a throwaway SQLite file by default (migrate and
seed-demo in a temporary data directory), or the PostgreSQL of DATABASE_URL (migrated, with the demo users):

- "ORM, pooled": the session and its users loaded as ORM rows (sessions.find + actor_for) in a unit of work;
- "Core, pooled": the one narrow SELECT (sessions.live_until) on a pooled connection per check;
- "Core, kept": the same on the thread's kept autocommit connection (db.read_on_kept_connection), as the guard asks.

Each is timed back to back ("hot") and with `--idle` ms between calls, as clicks come: a CPU that waited between two
checks runs the next one several times slower, and that is the figure a click sees. The thread hop around the check
(the guard runs it off the event loop) is not in these figures: bench/client_events.py times the whole click.

    .venv/bin/python bench/session_check.py [--calls 60] [--idle 80]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and its statistics.py would hide the standard library's.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def prepare() -> None:
    """A migrated database with the demo users, in a throwaway data directory unless DATABASE_URL names one."""
    if not os.environ.get("DATABASE_URL"):
        os.environ["DSP_DATA_DIR"] = tempfile.mkdtemp(prefix="dsp-bench-check-")
    for step in (["migrate"], ["seed-demo"]):
        subprocess.run([sys.executable, "-m", "app", *step], cwd=ROOT, env=os.environ, check=False,
                       capture_output=True)  # seed-demo refuses a database already seeded: that is fine here


def timed(check: Callable[[], object], calls: int, idle_s: float) -> tuple[float, float]:
    """(p50, p90) in ms of `calls` calls, `idle_s` apart."""
    check()  # the first call opens connections and compiles the statement
    spent = []
    for _ in range(calls):
        if idle_s:
            time.sleep(idle_s)
        started = time.perf_counter()
        assert check() is not None, "the session should be live"
        spent.append((time.perf_counter() - started) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(len(spent) * 0.9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--idle", type=float, default=80, help="ms between two checks in the idle runs")
    args = parser.parse_args()
    prepare()
    sys.path.insert(0, str(ROOT))
    from sqlmodel import select

    from app.access import sessions
    from app.access.models import User
    from app.kernel.db import get_engine, read_on_kept_connection, session_scope

    with session_scope() as db:
        admin = db.exec(select(User).where(User.email == "admin@demo.example")).one()
        ticket = sessions.start(db, user=admin, kind="browser").secret
        token = sessions.redeem_ticket(db, ticket=ticket)[1]

    def orm_pooled() -> object:
        with session_scope() as db:
            return sessions.resolve(db, token=token)

    def core_pooled() -> object:
        with get_engine().connect() as connection:
            return sessions.live_until(connection, token=token)

    def core_kept() -> object:
        return read_on_kept_connection(lambda connection: sessions.live_until(connection, token=token))

    print(f"{get_engine().dialect.name}, {args.calls} checks each; load average {os.getloadavg()[0]:.1f}")
    print(f"{'':<14} {'hot p50':>9} {'hot p90':>9}  {'idle p50':>9} {'idle p90':>9}  (ms; idle: {args.idle:.0f} ms apart)")
    for name, check in (("ORM, pooled", orm_pooled), ("Core, pooled", core_pooled), ("Core, kept", core_kept)):
        hot = timed(check, args.calls * 5, 0)
        idle = timed(check, args.calls, args.idle / 1000)
        print(f"{name:<14} {hot[0]:9.2f} {hot[1]:9.2f}  {idle[0]:9.2f} {idle[1]:9.2f}")


if __name__ == "__main__":
    main()
