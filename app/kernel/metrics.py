"""The Prometheus metrics the console keeps, declared once (prometheus-client). /metrics (app/web/metrics.py)
serves them with the job queue's numbers read at scrape time.

Several server processes (DSP_WORKERS>1): `serve` sets PROMETHEUS_MULTIPROC_DIR (under the data directory) before
the worker processes start, so each writes its values to files there and a scrape of any one process adds up all
of them (prometheus-client's multiprocess mode). The open-sessions gauge sums the live processes only.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from prometheus_client import Counter, Gauge, Histogram

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

HTTP_REQUESTS = Counter("dsp_http_requests_total", "HTTP requests answered, by route template and status",
                        ["method", "route", "status"])
HTTP_SECONDS = Histogram("dsp_http_request_duration_seconds", "Time to answer an HTTP request, by route template",
                         ["method", "route"])
WEBSOCKET_SESSIONS = Gauge("dsp_websocket_sessions_open", "Page sessions (websockets) open now",
                           multiprocess_mode="livesum")
PAGE_EVENTS = Counter("dsp_page_events_total", "Events (clicks, typing) received from open pages")
INGESTED_ROWS = Counter("dsp_statistics_ingested_rows_total", "Statistics rows stored, by source", ["source"])
STATISTICS_QUERY_SECONDS = Histogram("dsp_statistics_query_seconds", "Time of a statistics store query")


def multiprocess_dir(data_dir: Path) -> Path:
    return data_dir / "prometheus-multiproc"


def prepare_multiprocess(data_dir: Path) -> None:
    """Called by `serve` before it starts several processes: an empty directory (values of a previous run would
    otherwise be added in), named in the environment the worker processes inherit."""
    directory = multiprocess_dir(data_dir)
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    os.environ[MULTIPROC_ENV] = str(directory)


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def process_exited() -> None:
    """This worker process stops: its open-sessions gauge no longer counts (multiprocess mode only)."""
    if multiprocess():
        from prometheus_client import multiprocess as mp

        mp.mark_process_dead(os.getpid())
