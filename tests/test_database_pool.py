"""Each server process keeps a pool of PostgreSQL connections; several processes on one database must stay under
its max_connections, so the pool's size is a setting (DSP_DB_POOL_SIZE, DSP_DB_MAX_OVERFLOW), not a constant."""

from __future__ import annotations

import pytest

from app.kernel.config import Settings
from app.kernel.db import build_engine


def test_the_postgresql_pool_takes_its_size_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://dsp@127.0.0.1:1/nowhere")  # an engine connects lazily
    monkeypatch.setenv("DSP_DB_POOL_SIZE", "3")
    monkeypatch.setenv("DSP_DB_MAX_OVERFLOW", "4")
    engine = build_engine(Settings())
    assert (engine.pool.size(), engine.pool._max_overflow) == (3, 4)  # type: ignore[attr-defined]
    monkeypatch.delenv("DSP_DB_POOL_SIZE")
    monkeypatch.delenv("DSP_DB_MAX_OVERFLOW")
    assert build_engine(Settings()).pool.size() == 10  # type: ignore[attr-defined]


def test_a_pool_size_below_one_is_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DSP_DB_POOL_SIZE", "0")
    with pytest.raises(ValueError, match="db_pool_size"):
        Settings()
