"""/audience/create, /agency/audience/create, /admin/audience/create: a new audience. Agencies and staff choose
the advertiser first; then its name and kind. A device-id list is created empty and its page opens with the file
upload ready; a retargeting audience is defined by one of the advertiser's events and a look-back window."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.access.roles import Role
from app.campaigns import service as campaigns
from app.supply import audiences
from app.supply.models import AudienceKind
from app.supply.schemas import AudienceRead
from components.supply.audiences.common import back_to_list
from components.ui import styles
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import alert, form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.navigation import use_navigation

DEFAULT_LOOKBACK = "30"


def _kind_choice(name: str, value: str, chosen: str, title: str, text: str, icon: str, on_pick: Any) -> Any:
    """One of the two kinds as a large radio card."""
    input_id = f"kind-{value}"
    return html.div({"className": "col-md-6", "key": value},
                    html.input({"type": "radio", "className": "btn-check", "name": name, "id": input_id,
                                "value": value, "checked": chosen == value, "autoComplete": "off",
                                "onChange": lambda _e: on_pick(value)}),
                    html.label({"className": "btn btn-outline-primary w-100 h-100 text-start p-3 dsp-kind-choice",
                                "htmlFor": input_id, "data-kind": value},
                               html.i({"className": f"bi {icon} fs-4 d-block mb-2"}),
                               html.span({"className": "fw-semibold d-block"}, title),
                               html.span({"className": "small opacity-75"}, text)))


@component
def _EventField(advertiser_id: int | None, value: str, error: str | None, on_change: Any) -> Any:
    """The events this advertiser's retargeting can use (every conversion, then its recorded custom events)."""
    console = use_console()
    t = console.t
    events = use_query(audiences.event_choices, actor=console.actor, advertiser_id=advertiser_id,
                       deps=[advertiser_id])
    options = [(e, t("audiences.event_conversion") if e == "conversion" else e) for e in events.value or []]
    return select_field(name="event", label=t("audiences.field.event"), value=value, options=options,
                        on_change=on_change, error=error,
                        help_text=t("audiences.event_help") if len(options) > 1 else t("audiences.event_only_conversion"))


@component
def AudienceCreatePage() -> Any:
    console = use_console()
    t = console.t
    advertisers = use_query(campaigns.advertiser_choices, actor=console.actor)
    kind, set_kind = use_state(AudienceKind.DEVICE_IDS.value)
    no_advertiser: int | None = None
    advertiser, set_advertiser = use_state(no_advertiser)
    event, set_event = use_state("conversion")
    name, set_name = use_state("")
    lookback, set_lookback = use_state(DEFAULT_LOOKBACK)
    navigation, go = use_navigation()

    def created(audience: AudienceRead) -> None:
        console.toast("success", t("audiences.created", name=audience.name))
        go(console.path("audience.view", id=audience.id) or "/")

    action = use_action(audiences.create_audience, on_done=created)
    if advertisers.value is None:
        return loading_page(t, t("audiences.new"))
    choices = [a.model_dump() for a in advertisers.value]
    chosen = advertiser if advertiser is not None else (choices[0]["id"] if choices else None)
    choose_advertiser = console.role != Role.ADVERTISER

    def submit(values: dict[str, Any]) -> None:
        picked = values.get("advertiser_id") or chosen
        # A field the submit event does not carry (the look-back field drawn by the kind's click an instant
        # before, seen in CI) reads as its state, which its own change events keep current.
        chosen_kind = values.get("kind") or kind
        window = {"event": values.get("event") or event, "lookback_days": values.get("lookback_days", lookback)} \
            if chosen_kind == AudienceKind.RETARGETING else {}
        action.submit(actor=console.actor, name=values.get("name", name), kind=chosen_kind, **window,
                      advertiser_id=int(picked) if picked else None)

    errors = action.errors
    retargeting = kind == AudienceKind.RETARGETING
    return html.div(
        {"data-page": "audience-create"},
        navigation,
        page_header(t("audiences.new"), t("audiences.new_subtitle"), back_to_list(console)),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          card(form(submit,
                                    select_field(name="advertiser_id", label=t("campaigns.field.advertiser"),
                                                 value=str(chosen or ""), error=errors.get("advertiser_id"),
                                                 options=[(str(a["id"]), a["name"]) for a in choices],
                                                 on_change=lambda v: set_advertiser(int(v) if v else None))
                                    if choose_advertiser else "",
                                    alert("warning", t("campaigns.no_advertisers")) if not choices else "",
                                    text_field(name="name", label=t("audiences.field.name"), value=name,
                                               on_change=set_name, error=errors.get("name"), max_length=120,
                                               placeholder=t("audiences.name_placeholder")),
                                    html.div({"className": styles.FORM_LABEL}, t("audiences.field.kind")),
                                    html.div({"className": "row g-3 mb-3", "role": "radiogroup"},
                                             _kind_choice("kind", AudienceKind.DEVICE_IDS.value, kind,
                                                          t("audiences.kind.device_ids"), t("audiences.device_ids_help"),
                                                          "bi-phone", set_kind),
                                             _kind_choice("kind", AudienceKind.RETARGETING.value, kind,
                                                          t("audiences.kind.retargeting"),
                                                          t("audiences.retargeting_help"), "bi-arrow-repeat", set_kind)),
                                    html.div({"className": "invalid-feedback d-block mb-3", "data-field-error": "kind"},
                                             errors["kind"]) if errors.get("kind") else "",
                                    html.div({"className": "row g-3"},
                                             html.div({"className": "col-md-7"},
                                                      _EventField(chosen, event, errors.get("event"), set_event,
                                                                  key=f"events-{chosen}")),
                                             html.div({"className": "col-md-5"},
                                                      text_field(name="lookback_days", kind="number",
                                                                 label=t("audiences.field.lookback_days"),
                                                                 value=lookback, on_change=set_lookback,
                                                                 error=errors.get("lookback_days"),
                                                                 help_text=t("audiences.lookback_help"))))
                                    if retargeting else
                                    html.p({"className": "small text-body-secondary"}, t("audiences.device_ids_next")),
                                    html.div({"className": "d-flex gap-2 mt-2"},
                                             submit_button(t("audiences.create_and_upload") if not retargeting
                                                           else t("audiences.create"), pending=action.pending,
                                                           class_name="btn btn-primary")),
                                    name="audience"))),
                 html.div({"className": "col-xl-4"},
                          card(html.p({"className": "small mb-2"}, t("audiences.about_device_ids")),
                               html.p({"className": "small mb-0"}, t("audiences.about_retargeting")),
                               title=t("audiences.about_title")))),
    )
