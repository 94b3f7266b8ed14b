"""A change log as a timeline table: when, what, who (and who was really behind it), field changes.
Every change-log page renders the rows of app.services.change_log through here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from reactpy import html

from app.auth.roles import ALL_ROLES, Role
from app.services.user_config import margin_text
from components.shell.context import Console
from components.ui.elements import card, empty_state
from components.ui.labels import role_label_key

# Field names whose stored values are not in the unit people use: basis points shown as percent.
_FIELD_FORMATS = {"margin_bps": lambda v: f"{margin_text(v)} %" if isinstance(v, int) else v}


def _label(console: Console, key: str, fallback: str) -> str:
    text = console.t(key)
    return fallback.replace("_", " ").capitalize() if text == key else text


def _value(console: Console, field: str, value: Any) -> str:
    if value is None or value == "" or value == []:
        return "—"
    if field == "role" and value in ALL_ROLES:
        return console.t(role_label_key(Role(value)))
    if field in _FIELD_FORMATS:
        return str(_FIELD_FORMATS[field](value))
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _when(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC")


def change_log_table(console: Console, entries: list[dict[str, Any]]) -> Any:
    t = console.t
    if not entries:
        return card(empty_state("bi-clock-history", t("changelog.empty"), "", marker={"data-state": "empty"}))
    rows = []
    for entry in entries:
        changes = entry["changes"]
        rows.append(html.tr(
            {"key": str(entry["id"]), "data-action": entry["action"]},
            html.td({"className": "text-nowrap small text-body-secondary"}, _when(entry["date"])),
            html.td(html.span({"className": "badge text-bg-light border"},
                              _label(console, f"changelog.action.{entry['action']}", entry["action"]))),
            html.td({"className": "small"}, entry["actor"],
                    html.div({"className": "text-body-secondary"}, t("changelog.on_behalf", name=entry["on_behalf"]))
                    if entry["on_behalf"] else ""),
            html.td({"className": "small"},
                    html.ul({"className": "list-unstyled mb-0"},
                            *[html.li({"key": c["field"]},
                                      html.span({"className": "fw-medium"},
                                                _label(console, f"changelog.field.{c['field']}", c["field"])), ": ",
                                      html.span({"className": "text-decoration-line-through text-body-secondary"},
                                                _value(console, c["field"], c["old"])), " → ",
                                      html.span(_value(console, c["field"], c["new"])))
                              for c in changes]) if changes else html.span({"className": "text-body-secondary"}, "—")),
        ))
    return card(html.div({"className": "table-responsive"},
                         html.table({"className": "table table-hover align-middle mb-0 dsp-change-log"},
                                    html.thead(html.tr(html.th(t("changelog.when")), html.th(t("changelog.what")),
                                                       html.th(t("changelog.who")), html.th(t("changelog.changes")))),
                                    html.tbody(*rows))))
