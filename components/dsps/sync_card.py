"""The DSP card of a campaign's or creative's page (admin only): the spec's association map, one line per DSP
(the id it gave this campaign or creative, when it was last synced, the last sync's error) with Sync to DSP.
A sync runs on a worker thread through use_action; its network call has the connector's timeout."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.access.policy import Actor, can
from app.dsps import service as dsps
from app.dsps.schemas import AnyAssociation, SyncResult
from components.dsps.common import utc_minute
from components.ui.console import use_console
from components.ui.elements import card
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link


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
        name = result.association.dsp_name
        if result.ok:
            console.toast("success", t("dsps.synced_to", name=name, id=result.association.remote_id))
        else:
            console.toast("error", t("dsps.sync_failed", name=name, message=result.message))
        query.reload()

    sync = use_action(dsps.sync, on_done=done)
    lines: list[AnyAssociation] = query.value or []
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
                                                      t("dsps.status.inactive"))),
                 html.div(t("dsps.associate_id"), ": ",
                          html.code({"data-associate-id": remote}, remote) if remote
                          else html.span({"className": "text-body-secondary", "data-associate-id": ""},
                                         t("dsps.not_synced"))),
                 html.div({"className": "text-body-secondary"}, t("dsps.last_sync"), ": ", utc_minute(line.synced_at)),
                 html.div({"className": "text-danger", "data-sync-error": ""},
                          html.i({"className": "bi bi-exclamation-triangle me-1"}),
                          t("dsps.last_error", when=utc_minute(line.attempted_at)), ": ", line.last_error)
                 if line.last_error else ""),
        html.button({"type": "button", "className": "btn btn-sm btn-outline-primary text-nowrap",
                     "data-action": "sync-dsp", "disabled": sync.pending or not active,
                     "onClick": lambda _e: sync.submit(actor=console.actor, dsp_id=line.dsp_id,
                                                       entity=entity, local_id=local_id)},
                    html.span({"className": "spinner-border spinner-border-sm me-1"}) if sync.pending
                    else html.i({"className": "bi bi-arrow-repeat me-1"}), t("dsps.sync")))
