"""How long `python -m app backup` and `restore` take, and how big the archive is, for a console with the demo
data and N synthetic statistics rows (default 1,000,000), on SQLite in a temporary data directory (DATABASE_URL is
ignored: the bench wipes what it restores into) and the DuckDB statistics store (or --store chdb). On the embedded rung the server is stopped for a
backup (it holds the statistics file), so the backup's time is the downtime.

    .venv/bin/python bench/backup_restore.py [--rows N] [--store duckdb|chdb]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _timed(env: dict[str, str], *command: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "app", *command], cwd=REPO, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--store", choices=("duckdb", "chdb"), default="duckdb")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-backup-") as folder:
        data, archive = Path(folder, "data"), Path(folder, "archive.tar.gz")
        env = {**{k: v for k, v in os.environ.items() if k != "DATABASE_URL"}, "DSP_DATA_DIR": str(data), "DSP_ENVIRONMENT": "development",
               "DSP_STATISTICS_URL": "chdb:///statistics.chdb" if args.store == "chdb" else ""}
        for command in (["migrate"], ["seed-demo"], ["simulate", "--rows", str(args.rows)]):
            _timed(env, *command)
        took = _timed(env, "backup", "--to", str(archive))
        size = sum(path.stat().st_size for path in data.rglob("*") if path.is_file())
        print(f"{args.store}, {args.rows:,} statistics rows, data directory {size / 1e6:,.1f} MB")
        print(f"backup:  {took:6.1f} s, archive {archive.stat().st_size / 1e6:,.1f} MB")
        shutil.rmtree(data)
        print(f"restore: {_timed(env, 'restore', str(archive)):6.1f} s (into an empty data directory)")


if __name__ == "__main__":
    main()
