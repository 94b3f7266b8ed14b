"""Pieces the creative pages share: sizes, and (components/ui/entity_pages.py, declared here
for creatives) status badges, the tabs between one creative's pages, the back link and the not-found state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from app.creatives.models import CreativeStatus
from components.ui.console import Console
from components.ui.entity_pages import EntityPages

CREATIVES = EntityPages(
    prefix="creatives", list_page="creatives", icon="bi-image",
    variants={CreativeStatus.ACTIVE: "success", CreativeStatus.PAUSED: "warning", CreativeStatus.ARCHIVED: "dark"},
    tabs=(("creative.view", "creatives.tab_overview", "bi-eye"),
          ("creative.change_log", "creatives.tab_change_log", "bi-clock-history")))
status_badge, status_cell = CREATIVES.status_badge, CREATIVES.status_cell
back_to_list, not_found = CREATIVES.back_to_list, CREATIVES.not_found


def creative_tabs(console: Console, creative_id: int, *, current: str) -> Any:
    return CREATIVES.record_tabs(console, creative_id, current=current)


def size_text(width: int | None, height: int | None, duration_ms: int | None) -> str:
    """"300 × 250 · 0:15" from what the file (or, for html, the form) says."""
    parts = []
    if width and height:
        parts.append(f"{width} × {height}")
    if duration_ms:
        seconds = round(duration_ms / 1000)
        parts.append(f"{seconds // 60}:{seconds % 60:02d}")
    return " · ".join(parts) or "—"


def as_json(service: Callable[..., BaseModel | list[Any]]) -> Callable[..., Any]:
    """`service` answering JSON (model_dump), for the shared grid pieces (components/ui/grid_host.py StatusRowActions,
    components/ui/bulk.py) that read rows as the grid does."""
    def call(db: Any, /, **arguments: Any) -> Any:
        answer = service(db, **arguments)
        return [row.model_dump() for row in answer] if isinstance(answer, list) else answer.model_dump()

    return call
