"""How a change log shows a change: field names and values in the words and units people use (labels from the
catalog, codes as their names, basis points as percent), and a list's change as what was added and removed. The
change-log table and the restore dialog (components/ui/restore_dialog.py) both show changes through these."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from reactpy import html

from app.access.roles import ALL_ROLES, Role
from app.accounts.user_config import margin_text
from app.history.schemas import FieldChange, ListChange
from components.ui.console import Console
from components.ui.labels import role_label_key

# Field names whose stored values are not in the unit people use: basis points shown as percent.
_FIELD_FORMATS = {"margin_bps": lambda v: f"{margin_text(v)} %" if isinstance(v, int) else v}
# Per entity, fields whose values are codes with a label in the catalog: field -> key prefix.
_CODE_LABELS = {"campaign": {"objective": "campaigns.objective", "pacing": "campaigns.pacing",
                             "bid_strategy": "campaigns.strategy", "traffic_type": "campaigns.traffic",
                             "goal_metric": "campaigns.goal", "frequency_period": "campaigns.period",
                             "status": "campaigns.status"},
               "audience": {"kind": "audiences.kind", "status": "audiences.status"}}


def label(console: Console, key: str, fallback: str, *more_keys: str) -> str:
    """The first of `key`, `more_keys` that the catalog has, else `fallback` made readable."""
    for candidate in (key, *more_keys):
        text = console.t(candidate)
        if text != candidate:
            return text
    return fallback.replace("_", " ").capitalize()


def value_text(console: Console, field: str, value: Any, entity: str = "") -> str:
    if value is None or value == "" or value == []:
        return "—"
    prefix = _CODE_LABELS.get(entity, {}).get(field)
    if prefix and isinstance(value, str):
        return label(console, f"{prefix}.{value}", value)
    if field == "role" and value in ALL_ROLES:
        return console.t(role_label_key(Role(value)))
    if field in _FIELD_FORMATS:
        return str(_FIELD_FORMATS[field](value))
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def when(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC")


def field_label(console: Console, entity: str, field: str) -> str:
    """A changed field's name: the entity's own label, then the shared one, else the field made readable."""
    return label(console, f"changelog.{entity}.field.{field}", field.removeprefix("targeting."),
                 f"changelog.field.{field}")


def list_badges(c: ListChange) -> list[Any]:
    """A list's change as what was added and removed, not two long lists."""
    return [*[html.span({"key": f"+{x}", "className": "badge bg-success-subtle text-success-emphasis border "
                                                      "border-success-subtle me-1 fw-normal"}, f"+ {x}") for x in c.added],
            *[html.span({"key": f"-{x}", "className": "badge bg-danger-subtle text-danger-emphasis border border-danger-subtle "
                                                      "me-1 fw-normal text-decoration-line-through"}, f"− {x}")
              for x in c.removed]]


def change_item(console: Console, entity: str, c: FieldChange | ListChange) -> Any:
    name = html.span({"className": "fw-medium"}, field_label(console, entity, c.field))
    if isinstance(c, ListChange):
        return html.li({"key": c.field}, name, ": ", *list_badges(c))
    return html.li({"key": c.field}, name, ": ",
                   html.span({"className": "text-decoration-line-through text-body-secondary"},
                             value_text(console, c.field, c.old, entity)), " → ",
                   html.span(value_text(console, c.field, c.new, entity)))
