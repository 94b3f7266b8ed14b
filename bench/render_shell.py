"""How long the shell's first render of a dashboard takes in Python, per role (prints milliseconds)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DSP_DATA_DIR", tempfile.mkdtemp(prefix="dsp-bench-"))

from app.access import sessions  # noqa: E402
from app.accounts import service as accounts  # noqa: E402
from app.accounts.console import console_state  # noqa: E402
from app.demo.seed import DEMO_PASSWORD, DEMO_USERS, seed_demo  # noqa: E402
from app.kernel.db import migrate, run  # noqa: E402
from components.pages import ROUTES  # noqa: E402
from components.shell.layout import ShellLayout  # noqa: E402
from components.statistics.dashboard_page import DashboardPage  # noqa: E402
from components.ui.console import inert_console  # noqa: E402
from tests.render import render_model  # noqa: E402


def cookie_for(email: str) -> str:
    def make(db):  # type: ignore[no-untyped-def]
        result = accounts.login(db, email=email, password=DEMO_PASSWORD, kind="browser")
        db.flush()
        return sessions.redeem_ticket(db, ticket=result.new_session.secret)[1]
    return str(run(make))


def main(rounds: int = 20) -> None:
    migrate()
    run(seed_demo)
    for email, role, *_ in DEMO_USERS:
        state = run(console_state, token=cookie_for(email), host="")
        console = inert_console(state, routes=ROUTES)
        timings = []
        for _ in range(rounds):
            start = time.perf_counter()
            render_model(lambda: ShellLayout(DashboardPage()), console)
            timings.append((time.perf_counter() - start) * 1000)
        print(f"{role.value:<11} dashboard first render: median {statistics.median(timings):6.1f} ms, "
              f"p90 {sorted(timings)[int(rounds * 0.9) - 1]:6.1f} ms over {rounds} rounds")


if __name__ == "__main__":
    main()
