"""A throwaway PostgreSQL cluster made from Debian's packages the way tests/run_all.sh makes the suite's: initdb
under /tmp, trust auth for the user `dsp`, loopback on a free port, fsync off (nothing in it outlives the run), run as
the postgres user when we are root. For a test that must stop its own database (never the suite's shared one) and
for benches that need a database of their own (bench/load_soak.py's workers rung)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class Cluster:
    def __init__(self, database: str = "dsp_test") -> None:
        self.bin = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1]
        self.dir = Path(tempfile.mkdtemp(prefix="dsp-pg-"))
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.run_as:
            shutil.chown(self.dir, "postgres")
        with socket.socket() as probe:  # a free port for it (it cannot be handed a bound socket)
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.database = database
        self.url = f"postgresql://dsp@127.0.0.1:{self.port}/{database}"

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), *args], check=True,
                       stdout=subprocess.DEVNULL)

    def create(self) -> None:
        subprocess.run([*self.run_as, str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-U", "dsp",
                        "--auth=trust", "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
        self.start()
        subprocess.run([str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "dsp",
                        self.database], check=True)

    def start(self) -> None:
        self._ctl("-l", str(self.dir / "log"), "-w", "-o",
                  f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off -c full_page_writes=off",
                  "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "stop")

    def remove(self) -> None:
        subprocess.run([*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate",
                        "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)
