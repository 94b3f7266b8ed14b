"""The file store (app/kernel/storage.py) on its two backends: the data directory and an S3 bucket (moto's S3
server on 127.0.0.1, in a process of its own, so the bucket figures are moto's and the loopback's, not a real service's: read them for
the shape, e.g. requests per call and memory, not for a network's speed).

Prints, per backend: 200 small puts (a logo, a creative image), the stat+read a /files request makes, one 50 MB
file (a video's size limit) written through writing() and streamed back in chunks with the peak Python memory of
each (it must stay far under the file's size: files are never held whole), and the expiry sweep over 1,000 exports.

    .venv/bin/python bench/files_store.py
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import boto3  # noqa: E402
from botocore.exceptions import EndpointConnectionError  # noqa: E402

from app.kernel.storage import CHUNK_BYTES, LocalStorage, S3Storage, Storage, _s3_client  # noqa: E402

SMALL = b"\x89PNG" + bytes(range(256)) * 160  # ~40 KB
BIG_MB = 50


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def run(name: str, storage: Storage) -> None:
    times = []
    for n in range(200):
        started = time.perf_counter()
        storage.put(f"uploads/creatives/{n:064d}.png", SMALL)
        times.append(time.perf_counter() - started)
    put_p50 = _median(times)
    times = []
    for n in range(200):
        started = time.perf_counter()
        key = f"uploads/creatives/{n:064d}.png"
        assert storage.stat(key) is not None
        with storage.open(key) as source:
            while source.read(CHUNK_BYTES):
                pass
        times.append(time.perf_counter() - started)
    serve_p50 = _median(times)

    block = bytes(range(256)) * 4096
    tracemalloc.start()
    started = time.perf_counter()
    with storage.writing("uploads/creatives/big.mp4") as out:
        for _ in range(BIG_MB):
            out.write(block)
    write_s = time.perf_counter() - started
    write_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    started = time.perf_counter()
    total = 0
    with storage.open("uploads/creatives/big.mp4") as source:
        while chunk := source.read(CHUNK_BYTES):
            total += len(chunk)
    read_s = time.perf_counter() - started
    read_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert total == BIG_MB * len(block)

    for n in range(1000):
        storage.put(f"exports/{n:032d}.csv", b"name\n")
    started = time.perf_counter()
    listed = storage.list("exports/")
    list_s = time.perf_counter() - started
    assert len(listed) == 1000

    print(f"{name:6} put p50 {_ms(put_p50):>9}   stat+read p50 {_ms(serve_p50):>9}   "
          f"{BIG_MB} MB write {write_s:5.2f} s (peak {write_peak / 2**20:5.1f} MB)   "
          f"read {read_s:5.2f} s (peak {read_peak / 2**20:4.1f} MB)   list 1,000 {_ms(list_s):>9}")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="dsp-files-bench-") as folder:
        run("local", LocalStorage(Path(folder)))
    # moto in a process of its own, so that the memory measured here is the client's alone.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        client = boto3.session.Session().client("s3", endpoint_url=endpoint, region_name="us-east-1",
                                                aws_access_key_id="k", aws_secret_access_key="s")
        for _ in range(300):  # up to 30 s for the server to listen
            try:
                client.create_bucket(Bucket="bench")
                break
            except EndpointConnectionError:
                time.sleep(0.1)
        run("s3", S3Storage(_s3_client(endpoint, "us-east-1", "k", "s", "path"), "bench", "console/"))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
