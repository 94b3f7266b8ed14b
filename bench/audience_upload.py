"""A file of 1,000,000 device ids into an audience through the service the upload API calls
(audiences.upload_devices, streamed: chunks in, batches of 10,000 out). Writes the file (mixed case, some braces,
a header, some bad lines) to a throwaway data directory with its own SQLite database, then prints:

- the first upload's time and the process's peak resident memory (ru_maxrss) before and after it;
- the same file appended again (every id a duplicate) under tracemalloc: the peak of Python allocations.

    .venv/bin/python bench/audience_upload.py [--ids N]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

DATA_DIR = tempfile.mkdtemp(prefix="dsp-bench-audience-")
os.environ["DSP_DATA_DIR"] = DATA_DIR
os.environ.pop("DATABASE_URL", None)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.demo.seed import seed_demo  # noqa: E402
from app.kernel.db import migrate, session_scope  # noqa: E402
from app.supply import audiences  # noqa: E402
from app.supply.schemas import DeviceUploadRead  # noqa: E402
from tests.helpers import actor_of  # noqa: E402


def write_file(path: Path, count: int) -> None:
    rng = random.Random(7)
    with path.open("w", encoding="utf-8") as out:
        out.write("device_id\n")
        for n in range(count):
            text = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            if n % 3 == 0:
                text = text.upper()
            if n % 10 == 0:
                text = "{" + text + "}"
            out.write(text + ("\r\n" if n % 7 == 0 else "\n"))
            if n % 100_000 == 0:
                out.write("not a device id\n")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def upload(audience_id: int, path: Path) -> DeviceUploadRead:
    with session_scope() as db, path.open("rb") as stream:
        actor = actor_of(db, "advertiser@demo.example")
        return audiences.upload_devices(db, actor=actor, audience_id=audience_id, stream=stream,
                                        filename=path.name).upload


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ids", type=int, default=1_000_000)
    count = parser.parse_args().ids
    try:
        migrate()
        with session_scope() as db:
            seed_demo(db)
            actor = actor_of(db, "advertiser@demo.example")
            audience_id = audiences.create_audience(db, actor=actor, name="Bench", kind="device_ids").id
        path = Path(DATA_DIR) / "ids.txt"
        write_file(path, count)
        print(f"file: {count:,} ids, {path.stat().st_size / 1e6:.1f} MB")

        before = rss_mb()
        started = time.perf_counter()
        first = upload(audience_id, path)
        elapsed = time.perf_counter() - started
        print(f"upload: {elapsed:.1f} s ({count / elapsed:,.0f} ids/s); added {first.added:,}, "
              f"invalid {first.invalid}, duplicates {first.duplicates}")
        print(f"peak RSS: {before:.0f} MB before, {rss_mb():.0f} MB after (the file is never in memory)")

        tracemalloc.start()
        started = time.perf_counter()
        again = upload(audience_id, path)
        elapsed = time.perf_counter() - started
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"append again under tracemalloc: {elapsed:.1f} s; added {again.added}, duplicates "
              f"{again.duplicates:,}; peak Python allocations {peak / 1e6:.1f} MB")
    finally:
        shutil.rmtree(DATA_DIR, ignore_errors=True)


if __name__ == "__main__":
    main()
