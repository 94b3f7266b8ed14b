"""/metrics: the Prometheus exposition of app/kernel/metrics.py plus the job queue's numbers, read at scrape time.
Only addresses in DSP_METRICS_ALLOW get it; anyone else gets the same 404 as for a path that does not exist
(no hint that something is there)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from functools import lru_cache

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from app import jobs
from app.kernel import metrics
from app.kernel.config import get_settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=4)
def _networks(allow: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in allow.split(",") if part.strip())


def allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # not an address (a test client's name, a unix socket)
        return False
    return any(ip in network for network in _networks(get_settings().metrics_allow))


class JobQueueCollector(Collector):
    """Queued and failed jobs, counted in the database when scraped: the queue is shared by every process, so any
    process's answer is the whole queue's."""

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily("dsp_jobs_queued", "Jobs waiting to run", value=jobs.depth())
        yield GaugeMetricFamily("dsp_jobs_failed", "Jobs failed for good (every attempt spent)", value=jobs.failures())


def _registry() -> CollectorRegistry:
    if not metrics.multiprocess():
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def metrics_page(request: Request) -> Response:
    """Sync: Starlette runs it on a worker thread (the job numbers are database reads)."""
    client = request.client.host if request.client else ""
    if not allowed(client):
        return PlainTextResponse("Not Found", status_code=404)
    registry = CollectorRegistry()
    registry.register(JobQueueCollector())
    body = generate_latest(_registry()) + generate_latest(registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
