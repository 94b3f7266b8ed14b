"""Audiences on the campaign pages: the form's picker (each of the advertiser's audiences allowed, blocked or not
used; written into the form's FieldStore as "targeting.audiences") and the overview's list of what the campaign
allows and blocks."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.campaigns import audience_targeting
from app.campaigns.schemas import CampaignAudiences
from app.supply import audiences
from components.supply.audiences.common import status_badge
from components.ui import styles
from components.ui.console import use_console
from components.ui.elements import card
from components.ui.field_store import FieldStore, use_field
from components.ui.forms import selected_value
from components.ui.hooks import use_query
from components.ui.links import app_link

FIELD = "targeting.audiences"
MODES = ("", "allow", "block")


@component
def AudiencePicker(store: FieldStore, advertiser_id: int | None, error: str | None = None) -> Any:
    """One row per audience of the advertiser: not used, allow (target it) or block (exclude it). Inactive
    audiences are offered only when the campaign has them already (so they can be taken out)."""
    console = use_console()
    t = console.t
    value, set_value = use_field(store, FIELD)
    offered = use_query(audiences.audience_choices, actor=console.actor, advertiser_id=advertiser_id or 0,
                        deps=[advertiser_id]) if advertiser_id else None
    lists = value if isinstance(value, dict) else {"allow": [], "block": []}
    mode_of = {**{i: "allow" for i in lists.get("allow") or []}, **{i: "block" for i in lists.get("block") or []}}

    def pick(audience_id: int, mode: str) -> None:
        chosen = {k: v for k, v in mode_of.items() if k != audience_id}
        if mode:
            chosen[audience_id] = mode
        set_value({"allow": sorted(i for i, m in chosen.items() if m == "allow"),
                   "block": sorted(i for i, m in chosen.items() if m == "block")})

    rows = [a for a in (offered.value if offered else None) or [] if a.status == "active" or a.id in mode_of]
    create = console.path("audience.create")
    body: Any
    if offered is None or offered.loading:
        body = html.p({"className": "small text-body-secondary mb-0"}, t("common.loading"))
    elif not rows:
        body = html.p({"className": "small text-body-secondary mb-0", "data-empty": "audiences"},
                      t("audiences.advertiser_has_none"), " ",
                      app_link({"to": create}, t("audiences.new")) if create else "")
    else:
        body = html.div({"className": "border rounded-3 px-3 py-1" + (" border-danger" if error else "")},
                        *[html.div({"className": "d-flex align-items-center justify-content-between gap-2 py-1"
                                                 + (" border-top" if index else ""), "key": str(a.id)},
                                   html.span({"className": "small"}, a.name, " ",
                                             html.span({"className": "text-body-secondary"},
                                                       "· ", t(f"audiences.kind.{a.kind}")), " ",
                                             status_badge(console, a.status) if a.status != "active" else ""),
                                   html.select({"className": "form-select form-select-sm w-auto",
                                                "aria-label": a.name, "data-audience": str(a.id),
                                                "value": mode_of.get(a.id, ""),
                                                "onChange": lambda e, i=a.id: pick(i, selected_value(e))},
                                               *[html.option({"value": m, "key": m or "none"},
                                                             t(f"audiences.mode_{m or 'none'}")) for m in MODES]))
                          for index, a in enumerate(rows)])
    return html.div(
        {"className": "mb-3", "data-picker": "audiences"},
        html.div({"className": styles.FORM_LABEL}, t("audiences.menu_label")),
        body,
        html.div({"className": "invalid-feedback d-block", "data-field-error": "audiences"}, error) if error else "",
        html.div({"className": "form-text"}, t("audiences.picker_help")) if not error else "",
    )


@component
def CampaignAudiencesCard(campaign_id: int) -> Any:
    """The campaign's overview: the audiences it allows and blocks, each linking to its page."""
    console = use_console()
    t = console.t
    found = use_query(audience_targeting.campaign_audiences, actor=console.actor, campaign_id=campaign_id, deps=[campaign_id])
    if found.value is None:
        return ""

    chosen: CampaignAudiences = found.value

    def items(mode: str) -> Any:
        rows = chosen.allow if mode == "allow" else chosen.block
        if not rows:
            return html.span({"className": "text-body-secondary"}, "—")
        return html.span(*[html.span({"key": str(a.id), "className": "me-2 d-inline-flex align-items-center gap-1",
                                      "data-audience": str(a.id)},
                                     app_link({"to": path}, a.name)
                                     if (path := console.path("audience.view", id=a.id)) else a.name,
                                     status_badge(console, a.status) if a.status != "active" else "")
                           for a in rows])

    return html.div({"className": "mt-4", "data-card": "campaign-audiences"}, card(
        html.dl({"className": "row mb-0 small dsp-facts"},
                html.div({"className": "col-sm-6 mb-2"}, html.dt({"className": "text-body-secondary fw-normal"},
                                                                 t("audiences.mode_allow")), html.dd(items("allow"))),
                html.div({"className": "col-sm-6 mb-2"}, html.dt({"className": "text-body-secondary fw-normal"},
                                                                 t("audiences.mode_block")), html.dd(items("block")))),
        title=t("audiences.menu_label")))
