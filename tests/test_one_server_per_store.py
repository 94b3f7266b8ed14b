"""The embedded statistics store (DuckDB) is one file that one process opens. A second server on the same file
used to start, answer /health and then fail every statistics call with a 500; it refuses to start instead, and
says which settings give it a file of its own (issue 23, the embedded rung)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from app.kernel.config import REPO_ROOT, get_settings
from app.warehouse import get_store


def test_a_second_server_on_a_held_statistics_file_refuses_to_start_naming_the_settings(demo_ids):
    get_store()  # this process holds the data directory's statistics file, as a running server does
    env = {**os.environ}
    env.pop("DSP_ANALYTICS_FILE", None)
    with socket.socket() as listener:  # a real socket: without the check, the server would start and serve on it
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        done = subprocess.run([sys.executable, "-m", "app", "serve", "--fd", str(listener.fileno())], cwd=REPO_ROOT,
                              env=env, pass_fds=(listener.fileno(),), capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()[-1]
    assert said.startswith("Another process holds the statistics file")
    assert str(get_settings().analytics_path) in said
    assert "DSP_DATA_DIR" in said and "DSP_ANALYTICS_FILE" in said
