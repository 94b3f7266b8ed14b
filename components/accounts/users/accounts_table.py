"""Accounts as grid rows and columns, shared by the user lists and the dashboards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.accounts.schemas import AccountRow
from components.ui.console import Console
from components.ui.labels import role_label_key

_COLUMN_TYPES = {"balance": "money", "created": "day", "status": "badge", "advertisers": "number"}
# Pixel widths that fit a 1440 px screen with the sidebar and three action buttons.
_COLUMN_WIDTHS = {"name": 150, "email": 200, "company": 160, "role": 95, "agency": 135, "status": 95,
                  "balance": 110, "created": 120, "margin": 90, "advertisers": 110}


def account_columns(console: Console, keys: Sequence[str], **widths: int) -> list[dict[str, Any]]:
    """Grid columns for `keys`; `widths` overrides the default pixel width of some."""
    return [{"key": key, "label": console.t(f"dashboard.col.{key}"), "type": _COLUMN_TYPES.get(key, "text"),
             "width": widths.get(key, _COLUMN_WIDTHS.get(key, 150))} for key in keys]


def account_rows(console: Console, rows: Sequence[AccountRow]) -> list[dict[str, Any]]:
    """The grid's rows (JSON): roles and statuses in words."""
    t = console.t
    return [{**row.model_dump(), "role": t(role_label_key(row.role)),
             "status": {"text": t(f"status.{row.status}"),
                        "variant": "success" if row.status == "active" else "secondary"}}
            for row in rows]
