"""/creative/ViewCreative/{id} (advertiser) and creative/viewCreative/{id} (agency, admin, co-admin): a real
preview of the creative, its details, editing in place, its status moves and the campaigns that show it
(chosen here, or from a campaign's side)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.campaigns import service as campaigns
from app.creatives import service as creatives
from app.creatives.models import CreativeStatus
from app.creatives.schemas import AnyPreview, CreativeRead, HtmlPreview
from app.kernel.errors import Conflict
from components.creatives.common import back_to_list, creative_tabs, not_found, size_text, status_badge
from components.creatives.creative_form import CreativeForm
from components.creatives.preview import creative_preview
from components.dsps.sync_card import DspSyncCard, shows_dsps
from components.ui.confirm import ConfirmDialog
from components.ui.console import use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.forms import checkbox_list
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.routes import use_subject_id
from components.ui.saved_since import saved_since

MOVES = ((CreativeStatus.ACTIVE, "campaigns.activate", "bi-play-fill"),
         (CreativeStatus.PAUSED, "campaigns.pause", "bi-pause-fill"),
         (CreativeStatus.ARCHIVED, "campaigns.archive", "bi-archive"))


@component
def CampaignsCard(creative: CreativeRead, on_saved: Any) -> Any:
    """The advertiser's campaigns, those showing this creative ticked."""
    console = use_console()
    t = console.t
    offered = use_query(campaigns.list_campaigns, actor=console.actor, advertiser_id=creative.advertiser_id)
    unchanged: list[int] | None = None  # nothing chosen yet: the saved choice shows
    chosen, set_chosen = use_state(unchanged)
    def saved(_result: object) -> None:
        set_chosen(None)
        on_saved()

    # Named with the version this page showed: a creative saved since is refused, said here with a reload.
    save = use_action(creatives.assign_to_campaigns, success="creatives.assignment_saved", on_done=saved,
                      in_place=(Conflict,))
    selected = chosen if chosen is not None else [c.id for c in creative.campaigns]
    options = [(c.id, c.name) for c in offered.value or []]
    links = [app_link({"to": path, "key": str(c.id), "className": "d-block small"}, c.name)
             for c in creative.campaigns if (path := console.path("campaign.view", id=c.id))]
    editable = creative.status != CreativeStatus.ARCHIVED.value
    return card(
        html.div({"className": "mb-3", "data-assigned": str(len(creative.campaigns))},
                 *links) if links else html.p({"className": "small text-body-secondary"}, t("creatives.in_no_campaign")),
        checkbox_list(name="creative_campaigns", label=t("creatives.choose_campaigns"), options=options,
                      selected=selected, on_change=set_chosen, error=save.errors.get("campaign_ids"))
        if options and editable else "",
        html.button({"type": "button", "className": "btn btn-outline-primary btn-sm", "data-action": "save-campaigns",
                     "disabled": save.pending,
                     "onClick": lambda _e: save.submit(actor=console.actor, creative_id=creative.id,
                                                       campaign_ids=list(selected), version=creative.version)},
                    t("common.save"))
        if options and editable else "",
        saved_since(console, save.message, on_saved),
        title=t("creatives.campaigns"))


@component
def CreativeViewPage() -> Any:
    console = use_console()
    t = console.t
    creative_id = use_subject_id()
    query = use_query(creatives.get_creative, actor=console.actor, creative_id=creative_id, deps=[creative_id])
    shown = use_query(creatives.preview, actor=console.actor, creative_id=creative_id, deps=[creative_id])
    editing, set_editing = use_state(False)
    asking, set_asking = use_state(False)

    def reload() -> None:
        query.reload()
        shown.reload()

    move = use_action(creatives.set_status, success=lambda c: t(f"creatives.now_{c.status}", name=c.name),
                      on_done=lambda _c: reload())
    if query.loading or shown.loading:
        return loading_page(t, t("creatives.view_title"))
    creative: CreativeRead | None = query.value
    preview: AnyPreview | None = shown.value
    if creative is None or preview is None:
        return html.div(page_header(t("creatives.view_title")), not_found(console))

    def saved(result: CreativeRead) -> None:
        console.toast("success", t("creatives.saved", name=result.name))
        set_editing(False)
        reload()

    def go_to(status: str) -> None:
        set_asking(False)
        move.submit(actor=console.actor, creative_id=creative_id, status=status)

    buttons = [html.button({"type": "button", "key": status.value, "data-move": status.value, "disabled": move.pending,
                            "className": "btn btn-sm " + ("btn-outline-danger" if status == CreativeStatus.ARCHIVED
                                                          else "btn-outline-primary"),
                            "onClick": lambda _e, s=status: set_asking(True) if s == CreativeStatus.ARCHIVED
                            else go_to(s.value)},
                           html.i({"className": f"bi {icon} me-1"}), t(label))
               for status, label, icon in MOVES if status.value in creative.next_statuses]
    editable = creative.status != CreativeStatus.ARCHIVED.value
    details = [(t("creatives.field.type"), t(f"creatives.type.{creative.type}")),
               (t("creatives.col.size"), size_text(creative.width, creative.height, creative.duration_ms)),
               (t("creatives.field.click_url"), creative.click_url or "—")]
    if creative.type == "image":
        details.append((t("creatives.field.pixel_urls"), ", ".join(creative.pixel_urls) or "—"))
    if creative.type in ("native", "video"):
        details.append((t("creatives.field.impression_urls"), ", ".join(creative.impression_urls) or "—"))
    if creative.type == "html":
        details.append((t("creatives.field.html"), t("creatives.markup_size", size=creative.html_size_bytes)))
    details.append((t("campaigns.col.updated_at"), creative.updated_at[:16].replace("T", " ") + " UTC"))
    return html.div(
        {"data-page": "creative-view"},
        page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"}, creative.name,
                              status_badge(console, creative.status)),
                    f"{creative.advertiser} · #{creative.id}", *buttons, back_to_list(console)),
        creative_tabs(console, creative_id, current="creative.view"),
        card(CreativeForm(creative=creative, advertisers=None,
                          markup=preview.html if isinstance(preview, HtmlPreview) else "", on_saved=saved,
                          on_cancel=lambda: set_editing(False), on_reload=reload,
                          key=f"edit-{creative.version}"),
             title=t("creatives.edit_title")) if editing else
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-7"},
                          card(creative_preview(console, preview.model_dump()), title=t("creatives.preview")),
                          html.div({"className": "mt-4"},
                                   card(facts(details),
                                        html.button({"type": "button", "className": "btn btn-outline-primary btn-sm",
                                                     "data-action": "edit-creative",
                                                     "onClick": lambda _e: set_editing(True)},
                                                    html.i({"className": "bi bi-pencil me-1"}), t("campaigns.tab_edit"))
                                        if editable else "",
                                        title=t("creatives.details")))),
                 html.div({"className": "col-xl-5"}, CampaignsCard(creative, reload, key=f"campaigns-{creative.version}"),
                          DspSyncCard("creative", creative_id) if shows_dsps(console.actor) else "")),
        ConfirmDialog(t("creatives.confirm_archived_title"), t("creatives.confirm_archived", name=creative.name),
                      t("campaigns.archive"), t("common.cancel"), lambda: go_to(CreativeStatus.ARCHIVED.value),
                      lambda: set_asking(False)) if asking else "",
    )
