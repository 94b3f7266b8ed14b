"""The confirmation of a restore from history (app/history/restore.py): which values to set back (those before the
change, the default, or the ones it set), each field it will set with its value now and the value restored, and
what it leaves as it is and why. A refusal by today's rules shows the field's message in the dialog; nothing is
saved then. The restore names the record's version the plan was shown from: a record saved since is refused
(who changed what and when) in the dialog, with a reload of the change log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.history import change_log, restore
from app.history.schemas import ChangeLogEntry, ListChange, RestorePlan
from app.kernel.errors import Conflict
from components.ui.change_values import field_label, list_badges, value_text, when
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.hooks import use_action, use_query
from components.ui.saved_since import saved_since


def _choice(console: Console, offered: tuple[str, ...], values: str, set_values: Callable[[str], None]) -> Any:
    if len(offered) < 2:
        return ""
    return html.div({"className": "btn-group btn-group-sm my-3", "role": "group", "data-restore-values": values},
                    *[html.button({"key": option, "type": "button", "data-values": option, "aria-pressed": option == values,
                                   "className": "btn " + ("btn-primary" if option == values else "btn-outline-primary"),
                                   "onClick": lambda _e, chosen=option: set_values(chosen)},
                                  console.t(f"restore.values_{option}")) for option in offered])


def _table(console: Console, entity: str, plan: RestorePlan) -> Any:
    t = console.t
    if not plan.changes:
        return html.p({"className": "my-3 text-body-secondary", "data-state": "nothing"}, t("restore.nothing"))
    rows = [html.tr({"key": c.field, "data-restore-field": c.field},
                    html.td({"className": "fw-medium"}, field_label(console, entity, c.field)),
                    html.td({"colSpan": 2}, *list_badges(c)) if isinstance(c, ListChange) else html.td(
                        {"className": "text-body-secondary", "data-now": ""}, value_text(console, c.field, c.old, entity)),
                    "" if isinstance(c, ListChange) else html.td({"data-restored": ""},
                                                                 value_text(console, c.field, c.new, entity)))
            for c in plan.changes]
    return html.table({"className": "table table-sm align-middle my-3", "data-restore-plan": plan.entry_id},
                      html.thead(html.tr(html.th(t("restore.field")), html.th(t("restore.now")),
                                         html.th(t("restore.restored")))),
                      html.tbody(*rows))


def _left(console: Console, entity: str, plan: RestorePlan) -> Any:
    t = console.t
    return html.div(
        {"className": "small"},
        html.p({"className": "text-body-secondary mb-2"},
               t("restore.unchanged", fields=", ".join(field_label(console, entity, f) for f in plan.unchanged)))
        if plan.unchanged else "",
        html.div({"data-not-restorable": ""},
                 html.div({"className": "fw-medium"}, t("restore.not_restorable")),
                 html.ul({"className": "mb-0 text-body-secondary"},
                         *[html.li({"key": f.field}, html.span({"className": "fw-medium"},
                                                               field_label(console, entity, f.field)), ": ",
                                   t(f.reason)) for f in plan.not_restorable]))
        if plan.not_restorable else "")


def _refused(console: Console, entity: str, errors: dict[str, str]) -> Any:
    if not errors:
        return ""
    return html.div({"className": "alert alert-danger small mb-0 mt-3", "role": "alert"},
                    html.div({"className": "fw-medium mb-1"}, console.t("restore.refused")),
                    html.ul({"className": "mb-0"},
                            *[html.li({"key": field, "data-field-error": field},
                                      f"{field_label(console, entity, field)}: {message}")
                              for field, message in errors.items()]))


@component
def RestoreDialog(kind: str, record_id: int, entry: ChangeLogEntry, on_done: Callable[[], Any],
                  on_close: Callable[[], Any]) -> Any:
    console = use_console()
    t = console.t
    entity = change_log.CHANGE_LOGS[kind].entity
    # A new record had no values before it: its entry can only be re-applied.
    offered = ("after",) if entry.action in restore.CREATED_ACTIONS else ("before", "after")
    values, set_values = use_state(offered[0])
    plan = use_query(restore.plan, actor=console.actor, kind=kind, record_id=record_id, entry_id=entry.id,
                     values=values, deps=[values])
    action = use_action(restore.restore, on_done=lambda _done: on_done(),
                        success=lambda done: t("restore.done") if done.change_id else t("restore.nothing"),
                        in_place=(Conflict,))
    shown: RestorePlan | None = plan.value if not plan.loading else None
    return html.div(
        {"data-dialog": "restore"},
        ConfirmDialog(
            t("restore.title"), t(f"restore.text_{values}", when=when(entry.date), who=entry.actor),
            t(f"restore.confirm_{values}"), t("common.cancel"),
            lambda: action.submit(actor=console.actor, kind=kind, record_id=record_id, entry_id=entry.id,
                                  values=values, version=shown.version if shown else None),
            on_close, danger=False, wide=True,
            can_confirm=bool(shown and shown.changes) and not action.pending,
            body=html.div(_choice(console, offered, values, set_values),
                          html.div({"className": "my-3 text-body-secondary"}, t("common.loading")) if shown is None
                          else html.div(_table(console, entity, shown), _left(console, entity, shown)),
                          _refused(console, entity, action.errors),
                          # Reloaded, the log shows the change made since, and the dialog closes.
                          saved_since(console, action.message, on_done))))
