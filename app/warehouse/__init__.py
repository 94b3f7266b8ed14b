"""The warehouse of delivery statistics: one store behind one interface (base.py), declared dimensions and
metrics (schema.py). It knows no domain: pages and services read it through app.statistics.service, which
applies row scope."""

from __future__ import annotations

from app.kernel.config import get_settings
from app.warehouse.base import StatisticsStore


def get_store() -> StatisticsStore:
    from app.warehouse.duckdb_store import open_store

    return open_store(get_settings().analytics_path)
