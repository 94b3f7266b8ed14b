"""Delivery statistics: the store behind one interface (store.py), declared dimensions and metrics
(schema.py). Pages and services reach it through app.services.statistics, which applies row scope."""

from __future__ import annotations

from app.analytics.store import StatisticsStore
from app.settings import get_settings


def get_store() -> StatisticsStore:
    from app.analytics.duckdb_store import open_store

    return open_store(get_settings().analytics_path)
