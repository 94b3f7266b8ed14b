"""The DSP card of a campaign's or creative's page (admin only): the spec's association map, one line per DSP
(the id it gave this campaign or creative, when it was last synced, the last sync's error) with Sync to DSP.
Sync queues a push (app/dsps/pushes.py) and says so; while a line is queued the card reloads every
POLL_SECONDS, so the DSP's id, or the failure after the last attempt, appears without a page reload."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.access.policy import Actor, can
from app.dsps import service as dsps
from app.dsps.schemas import AnyAssociation, SyncResult
from components.dsps.common import utc_minute
from components.ui.console import use_console
from components.ui.elements import card
from components.ui.hooks import use_action, use_query, use_reload_while
from components.ui.links import app_link

POLL_SECONDS = 1.0
STATE_STYLE = {"queued": ("text-bg-info", "bi-hourglass-split"), "delivered": ("text-bg-success", "bi-check-circle"),
               "failed": ("text-bg-danger", "bi-x-circle")}


def shows_dsps(actor: Actor | None) -> bool:
    """Whether a page shows the DSP card: only to those who may sync (admin)."""
    return can(actor, "dsp", "manage")


@component
def DspSyncCard(entity: str, local_id: int) -> Any:
    console = use_console()
    t = console.t
    query = use_query(dsps.associations, actor=console.actor, entity=entity, local_id=local_id,
                      deps=[entity, local_id])

    def done(result: SyncResult) -> None:
        console.toast("info", t("dsps.push_queued", name=result.association.dsp_name))
        query.reload()

    sync = use_action(dsps.sync, on_done=done)
    lines: list[AnyAssociation] = query.value or []
    use_reload_while(query, any(line.push_state == "queued" for line in lines), POLL_SECONDS)
    list_path = console.path("dsps")
    if query.loading:
        body: Any = html.p({"className": "small text-body-secondary mb-0"}, t("common.loading"))
    elif not lines:
        body = html.p({"className": "small text-body-secondary mb-0", "data-dsp-lines": "0"}, t("dsps.none_active"),
                      " ", app_link({"to": list_path}, t("dsps.title")) if list_path else "")
    else:
        body = html.ul({"className": "list-unstyled mb-0", "data-dsp-lines": str(len(lines))},
                       *[_line(console, line, sync, entity, local_id) for line in lines])
    return card(body, title=t("dsps.card_title"), class_name="mt-4" if entity == "creative" else "")


def _line(console: Any, line: AnyAssociation, sync: Any, entity: str, local_id: int) -> Any:
    t = console.t
    remote = line.remote_id
    active = line.dsp_status == "active"
    return html.li(
        {"className": "border-bottom py-2 d-flex flex-wrap align-items-start justify-content-between gap-2",
         "key": str(line.dsp_id), "data-dsp": line.dsp_name},
        html.div({"className": "small"},
                 html.div({"className": "fw-semibold"}, line.dsp_name,
                          "" if active else html.span({"className": "badge text-bg-secondary ms-2"},
                                                      t("dsps.status.inactive")),
                          _state(console, line.push_state)),
                 html.div(t("dsps.associate_id"), ": ",
                          html.code({"data-associate-id": remote}, remote) if remote
                          else html.span({"className": "text-body-secondary", "data-associate-id": ""},
                                         t("dsps.not_synced"))),
                 html.div({"className": "text-body-secondary"}, t("dsps.last_sync"), ": ", utc_minute(line.synced_at)),
                 html.div({"className": "text-danger", "data-sync-error": ""},
                          html.i({"className": "bi bi-exclamation-triangle me-1"}),
                          t("dsps.retrying" if line.push_state == "queued" else "dsps.last_error",
                            when=utc_minute(line.attempted_at)), ": ", line.last_error)
                 if line.last_error else ""),
        html.button({"type": "button", "className": "btn btn-sm btn-outline-primary text-nowrap",
                     "data-action": "sync-dsp", "disabled": sync.pending or not active,
                     "onClick": lambda _e: sync.submit(actor=console.actor, dsp_id=line.dsp_id,
                                                       entity=entity, local_id=local_id)},
                    html.span({"className": "spinner-border spinner-border-sm me-1"}) if sync.pending
                    else html.i({"className": "bi bi-arrow-repeat me-1"}), t("dsps.sync")))


def _state(console: Any, state: str) -> Any:
    """The last push's state as a badge: queued (a spinner-like hourglass), delivered, failed; none before one."""
    if state not in STATE_STYLE:
        return ""
    badge, icon = STATE_STYLE[state]
    return html.span({"className": f"badge {badge} ms-2", "data-push-state": state},
                     html.i({"className": f"bi {icon} me-1"}), console.t(f"dsps.push_state.{state}"))
