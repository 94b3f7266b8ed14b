"""/audience/view/{id} (advertiser) and audience/view/{id} (agency, admin, co-admin): an audience's size, status,
definition, its device-id files (appended over HTTP, never through the websocket; the latest file's counts and
first invalid lines shown), the campaigns using it (chosen here too), activating, deactivating and deleting."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.campaigns import audience_targeting
from app.campaigns import service as campaigns
from app.kernel.errors import Conflict
from app.supply import audiences
from app.supply.models import AudienceKind, AudienceStatus
from app.supply.schemas import AudienceRead, DeviceUploadRead
from components.supply.audiences.common import (
    audience_tabs,
    back_to_list,
    definition_text,
    not_found,
    status_badge,
)
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.forms import selected_value
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.routes import use_subject_id
from components.ui.saved_since import saved_since
from components.widgets.file_upload import file_upload

ACCEPT = ".txt,.csv,.tsv,text/plain,text/csv"
MODES = ("", "allow", "block")


def _when(iso: str) -> str:
    return iso[:16].replace("T", " ") + " UTC"


def _figure(label: str, value: Any, marker: str, tone: str = "") -> Any:
    return html.div({"className": "col-6 col-md-3", "key": marker},
                    html.div({"className": "border rounded-3 p-2 h-100 bg-body-tertiary", "data-figure": marker},
                             html.div({"className": "small text-body-secondary"}, label),
                             html.div({"className": f"fs-5 fw-semibold {tone}".strip()}, f"{value:,}")))


def _last_upload(console: Console, upload: DeviceUploadRead) -> Any:
    """The latest file: its counts and its first invalid lines, by line number."""
    t = console.t
    samples = upload.samples
    return html.div(
        {"data-upload-result": upload.file},
        html.div({"className": "small text-body-secondary mb-2"},
                 t("audiences.last_file", file=upload.file or "—", when=_when(upload.at))),
        html.div({"className": "row g-2 mb-3"},
                 _figure(t("audiences.lines"), upload.lines, "lines"),
                 _figure(t("audiences.added"), upload.added, "added", "text-success"),
                 _figure(t("audiences.duplicates"), upload.duplicates, "duplicates"),
                 _figure(t("audiences.invalid"), upload.invalid, "invalid",
                         "text-danger" if upload.invalid else "")),
        html.div(
            html.div({"className": "small fw-semibold mb-1"},
                     t("audiences.invalid_first", count=len(samples)) if upload.invalid > len(samples)
                     else t("audiences.invalid_lines")),
            html.table({"className": "table table-sm small mb-0 dsp-invalid-lines"},
                       html.thead(html.tr(html.th({"style": {"width": "6rem"}}, t("audiences.line")),
                                          html.th(t("audiences.content")), html.th(t("audiences.reason")))),
                       html.tbody(*[html.tr({"key": str(s.line), "data-line": str(s.line)},
                                            html.td(str(s.line)),
                                            html.td(html.code({"className": "text-break"}, s.text or "—")),
                                            html.td(t(f"audiences.reason_{s.reason}")))
                                    for s in samples]))) if samples else "",
    )


@component
def DevicesCard(audience: AudienceRead, on_uploaded: Any) -> Any:
    console = use_console()
    t = console.t
    problem, set_problem = use_state("")

    def uploaded(data: dict[str, Any]) -> None:  # the upload route's JSON reply (AudienceUploaded)
        set_problem("")
        upload = data.get("upload") or {}
        console.toast("success", t("audiences.uploaded", added=f"{upload.get('added', 0):,}",
                                   invalid=f"{upload.get('invalid', 0):,}"))
        on_uploaded()

    upload = audience.last_upload
    return card(
        html.p({"className": "small text-body-secondary"}, t("audiences.upload_help")),
        html.div({"className": "d-flex flex-wrap align-items-center gap-2 mb-3"},
                 file_upload(name="devices", url=f"/api/audiences/{audience.id}/devices",
                             label=t("audiences.upload" if not upload else "audiences.append"),
                             busy_label=t("audiences.uploading"), accept=ACCEPT, on_uploaded=uploaded,
                             on_error=lambda message: set_problem(t(message)))),
        html.div({"className": "alert alert-danger py-2 small", "role": "alert", "data-field-error": "file"}, problem)
        if problem else "",
        _last_upload(console, upload) if upload else
        html.p({"className": "small text-body-secondary mb-0", "data-empty": "devices"}, t("audiences.no_file_yet")),
        title=t("audiences.device_ids"))


@component
def CampaignsCard(audience: AudienceRead, on_saved: Any) -> Any:
    """The advertiser's campaigns, each allowing, blocking or not using the audience."""
    console = use_console()
    t = console.t
    offered = use_query(campaigns.list_campaigns, actor=console.actor, advertiser_id=audience.advertiser_id)
    current = {c.id: c.mode for c in audience.campaigns}
    unchanged: dict[int, str] | None = None  # campaign id -> mode; nothing chosen yet: the saved ones show
    chosen, set_chosen = use_state(unchanged)
    modes = chosen if chosen is not None else current
    def saved(_result: object) -> None:
        set_chosen(None)
        offered.reload()  # the campaigns' new versions, which the next save names
        on_saved()

    # Named with each campaign's version as listed here: one saved since refuses the save, said here with a reload.
    save = use_action(audience_targeting.associate_campaigns, success="audiences.campaigns_saved", on_done=saved,
                      in_place=(Conflict,))
    links = [html.li({"key": str(c.id), "className": "d-flex justify-content-between align-items-center py-1"},
                     app_link({"to": path}, c.name) if (path := console.path("campaign.view", id=c.id))
                     else c.name,
                     html.span({"className": "badge " + ("text-bg-primary" if c.mode == "allow"
                                                         else "text-bg-dark"), "data-mode": c.mode},
                               t(f"audiences.mode_{c.mode}")))
             for c in audience.campaigns]

    def pick(campaign_id: int, mode: str) -> None:
        updated = {k: v for k, v in modes.items() if k != campaign_id}
        if mode:
            updated[campaign_id] = mode
        set_chosen(updated)

    rows = [html.div({"className": "d-flex align-items-center justify-content-between gap-2 py-1 border-top",
                      "key": str(c.id)},
                     html.span({"className": "small text-truncate"}, c.name),
                     html.select({"className": "form-select form-select-sm w-auto", "aria-label": c.name,
                                  "data-campaign": str(c.id), "value": modes.get(c.id, ""),
                                  "onChange": lambda e, i=c.id: pick(i, selected_value(e))},
                                 *[html.option({"value": m, "key": m or "none"}, t(f"audiences.mode_{m or 'none'}"))
                                   for m in MODES]))
            for c in offered.value or [] if c.status != "archived"]
    return card(
        html.ul({"className": "list-unstyled mb-3 small", "data-campaigns": str(len(links))}, *links) if links else
        html.p({"className": "small text-body-secondary", "data-empty": "campaigns"}, t("audiences.in_no_campaign")),
        html.div({"className": "small fw-semibold mb-1"}, t("audiences.choose_campaigns")) if rows else "",
        html.div({"className": "mb-3"}, *rows),
        html.div({"className": "invalid-feedback d-block mb-2", "data-field-error": "campaign_ids"},
                 save.errors["campaign_ids"]) if save.errors.get("campaign_ids") else "",
        html.button({"type": "button", "className": "btn btn-outline-primary btn-sm", "data-action": "save-campaigns",
                     "disabled": save.pending or chosen is None,
                     "onClick": lambda _e: save.submit(
                         actor=console.actor, audience_id=audience.id,
                         allow=[i for i, m in modes.items() if m == "allow"],
                         block=[i for i, m in modes.items() if m == "block"],
                         read={c.id: c.version for c in offered.value or []})}, t("common.save")) if rows else "",
        saved_since(console, save.message, lambda: saved(None)),
        title=t("audiences.campaigns"))


@component
def AudienceViewPage() -> Any:
    console = use_console()
    t = console.t
    audience_id = use_subject_id()
    query = use_query(audiences.get_audience, actor=console.actor, audience_id=audience_id, deps=[audience_id])
    asking, set_asking = use_state(False)
    navigation, go = use_navigation()
    toggle = use_action(audiences.set_status, success=lambda a: t(f"audiences.now_{a.status}", name=a.name),
                        on_done=lambda _a: query.reload())
    remove = use_action(audiences.delete_audience, success=lambda gone: t("audiences.deleted", name=gone.name),
                        on_done=lambda _gone: go(console.path("audiences") or "/"))
    if query.value is None:
        return loading_page(t, t("audiences.view_title")) if query.loading or not query.failed else \
            html.div(page_header(t("audiences.view_title")), not_found(console))
    audience = query.value
    active = audience.status == AudienceStatus.ACTIVE
    in_use = bool(audience.campaigns)
    wanted = AudienceStatus.INACTIVE if active else AudienceStatus.ACTIVE
    delete_button = html.button(
        {"type": "button", "className": "btn btn-sm btn-outline-danger", "data-action": "delete-audience",
         "disabled": in_use or remove.pending, "onClick": lambda _e: set_asking(True),
         **({"style": {"pointerEvents": "none"}} if in_use else {})},
        html.i({"className": "bi bi-trash me-1"}), t("audiences.delete"))
    buttons = (
        html.button({"type": "button", "className": "btn btn-sm btn-outline-primary", "data-action": "toggle-status",
                     "disabled": toggle.pending,
                     "onClick": lambda _e: toggle.submit(actor=console.actor, audience_id=audience_id,
                                                         status=wanted.value)},
                    html.i({"className": f"bi {'bi-pause-fill' if active else 'bi-play-fill'} me-1"}),
                    t("audiences.deactivate" if active else "audiences.activate")),
        # A disabled button shows no tooltip: its wrapper says why it cannot be deleted.
        html.span({"className": "d-inline-block", "tabIndex": 0, "title": t("audiences.in_use_no_delete")},
                  delete_button) if in_use else delete_button,
    )
    size_label = t("audiences.size_events_label") if audience.size_unit == "events" else t("audiences.size_label")
    details = [(t("audiences.field.kind"), definition_text(console, audience)),
               (t("campaigns.field.advertiser"), audience.advertiser),
               (t("audiences.col.created_at"), _when(audience.created_at)),
               (t("audiences.col.updated_at"), _when(audience.updated_at))]
    devices = audience.kind == AudienceKind.DEVICE_IDS
    return html.div(
        {"data-page": "audience-view", "data-status": audience.status},
        navigation,
        page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"},
                              audience.name, status_badge(console, audience.status)),
                    f"{audience.advertiser} · #{audience.id}", *buttons, back_to_list(console)),
        audience_tabs(console, audience_id, current="audience.view"),
        html.div({"className": "alert alert-secondary py-2 small", "data-state": "inactive"},
                 html.i({"className": "bi bi-pause-circle me-1"}), t("audiences.inactive_note"))
        if not active else "",
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-7"},
                          card(html.div({"className": "d-flex align-items-baseline gap-2 mb-3"},
                                        html.span({"className": "display-6 fw-semibold", "data-size": str(audience.size)},
                                                  f"{audience.size:,}"),
                                        html.span({"className": "text-body-secondary"}, size_label)),
                               html.p({"className": "small text-body-secondary"},
                                      t("audiences.events_note") if audience.size_unit == "events"
                                      else t("audiences.devices_note")),
                               facts(details), title=t("audiences.overview")),
                          html.div({"className": "mt-4"}, DevicesCard(audience, query.reload)) if devices else ""),
                 html.div({"className": "col-xl-5"}, CampaignsCard(audience, query.reload, key=audience.updated_at))),
        ConfirmDialog(t("audiences.confirm_delete_title"), t("audiences.confirm_delete", name=audience.name),
                      t("audiences.delete"), t("common.cancel"),
                      lambda: (set_asking(False), remove.submit(actor=console.actor, audience_id=audience_id)),
                      lambda: set_asking(False)) if asking else "",
    )

