"""The warehouse of delivery statistics: one store behind one interface (base.py), declared dimensions and
metrics (schema.py). It knows no domain: pages and services read it through app.statistics.service, which
applies row scope.

Which store is DSP_STATISTICS_URL's: duckdb:///path (the default: the DuckDB file, DSP_ANALYTICS_FILE or
analytics.duckdb in the data directory), chdb:///path (ClickHouse's engine in this process) or
clickhouse://user:password@host:8123/database (a ClickHouse server, several processes share it). A path after
`scheme:///` is relative to the data directory unless it starts with / (so `chdb:////srv/stats` is absolute).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.kernel.config import STATISTICS_SCHEMES, Settings, get_settings, statistics_url_refusal
from app.warehouse.base import StatisticsStore


def shared_by_processes(url: str) -> bool:
    """Whether several processes can use the store at once: a ClickHouse server can; a DuckDB file and a chDB
    directory are opened by one process."""
    return url.partition("://")[0] == "clickhouse"


@dataclass(frozen=True)
class StoreLocation:
    """Where the configured statistics store keeps its data: a DuckDB file, a chDB directory, or a ClickHouse
    server's URL (backups read this too: app/operations/backup.py)."""

    kind: Literal["duckdb", "chdb", "clickhouse"]
    path: Path | None  # the file (duckdb) or directory (chdb); None for a server
    url: str = ""  # the server's URL (clickhouse)


def store_location(settings: Settings) -> StoreLocation:
    url = settings.statistics_url
    scheme, _, rest = url.partition("://")
    if not url or (scheme == "duckdb" and rest in ("", "/")):
        return StoreLocation("duckdb", settings.analytics_path)
    if scheme not in STATISTICS_SCHEMES:
        raise ValueError(statistics_url_refusal(url))
    if scheme == "clickhouse":
        return StoreLocation("clickhouse", None, url)
    path = Path(rest.removeprefix("/"))
    path = path if path.is_absolute() else settings.data_dir / path
    if scheme == "duckdb":
        return StoreLocation("duckdb", path)
    return StoreLocation("chdb", path if rest.strip("/") else settings.data_dir / "statistics.chdb")


def get_store() -> StatisticsStore:
    where = store_location(get_settings())
    if where.kind == "clickhouse":
        from app.warehouse.clickhouse_store import open_server_store

        return open_server_store(where.url)
    assert where.path is not None
    if where.kind == "duckdb":
        from app.warehouse.duckdb_store import open_store

        return open_store(where.path)
    from app.warehouse.clickhouse_store import open_chdb_store

    return open_chdb_store(where.path)
