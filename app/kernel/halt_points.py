"""Named points where a test build stops a process, so a test can kill it there with SIGKILL (tests/faults.py,
tests/test_faults_kill.py): only with DSP_ENVIRONMENT=test and DSP_TEST_HALT_AT naming the point. The thread that
reaches it writes <data dir>/halted-<point> (the test waits for that file) and waits for ever. Elsewhere a point
costs one settings read. Read from the environment, not the settings: it is no setting an operator has."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from app.kernel.config import get_settings

HALT_AT = "DSP_TEST_HALT_AT"


def halted_file(data_dir: Path, point: str) -> Path:
    return data_dir / f"halted-{point}"


def halt_point(point: str) -> None:
    settings = get_settings()
    if settings.environment != "test" or os.environ.get(HALT_AT) != point:
        return
    halted_file(Path(settings.data_dir), point).write_text(str(os.getpid()))
    threading.Event().wait()
