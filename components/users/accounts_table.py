"""Accounts as grid rows and columns, shared by the user lists and the dashboards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.auth.roles import Role
from components.shell.context import Console
from components.ui.labels import role_label_key

_COLUMN_TYPES = {"balance": "money", "created": "date", "status": "badge"}


def account_columns(console: Console, keys: Sequence[str]) -> list[dict[str, str]]:
    return [{"key": key, "label": console.t(f"dashboard.col.{key}"), "type": _COLUMN_TYPES.get(key, "text")}
            for key in keys]


def account_rows(console: Console, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    t = console.t
    return [{**row, "role": t(role_label_key(Role(row["role"]))),
             "status": {"text": t(f"status.{row['status']}"),
                        "variant": "success" if row["status"] == "active" else "secondary"}}
            for row in rows]
