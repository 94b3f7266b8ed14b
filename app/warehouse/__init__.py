"""The warehouse of delivery statistics: one store behind one interface (base.py), declared dimensions and
metrics (schema.py). It knows no domain: pages and services read it through app.statistics.service, which
applies row scope.

Which store is DSP_STATISTICS_URL's: duckdb:///path (the default: the DuckDB file, DSP_ANALYTICS_FILE or
analytics.duckdb in the data directory), chdb:///path (ClickHouse's engine in this process) or
clickhouse://user:password@host:8123/database (a ClickHouse server, several processes share it). A path after
`scheme:///` is relative to the data directory unless it starts with / (so `chdb:////srv/stats` is absolute).
"""

from __future__ import annotations

from pathlib import Path

from app.kernel.config import STATISTICS_SCHEMES, get_settings, statistics_url_refusal
from app.warehouse.base import StatisticsStore


def shared_by_processes(url: str) -> bool:
    """Whether several processes can use the store at once: a ClickHouse server can; a DuckDB file and a chDB
    directory are opened by one process."""
    return url.partition("://")[0] == "clickhouse"


def get_store() -> StatisticsStore:
    settings = get_settings()
    url = settings.statistics_url
    scheme, _, rest = url.partition("://")
    if not url or (scheme == "duckdb" and rest in ("", "/")):
        from app.warehouse.duckdb_store import open_store

        return open_store(settings.analytics_path)
    if scheme not in STATISTICS_SCHEMES:
        raise ValueError(statistics_url_refusal(url))
    if scheme == "clickhouse":
        from app.warehouse.clickhouse_store import open_server_store

        return open_server_store(url)
    path = Path(rest.removeprefix("/"))
    path = path if path.is_absolute() else settings.data_dir / path
    if scheme == "duckdb":
        from app.warehouse.duckdb_store import open_store

        return open_store(path)
    from app.warehouse.clickhouse_store import open_chdb_store

    return open_chdb_store(path if rest.strip("/") else settings.data_dir / "statistics.chdb")
