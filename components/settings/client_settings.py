"""/advertiser-settings and /agency/agency-settings: the postback URL and events (when postbacks are ENABLED
for the user) and the API keys (when api_access is set). With neither, the page says who can switch them on."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_scope, use_state

from app.settings import postbacks
from app.web.middleware import header
from components.settings.api_credentials_panel import ApiCredentialsPanel
from components.ui.console import use_console
from components.ui.elements import card, empty_state, page_header, spinner
from components.ui.forms import changed_values, form, submit_button, text_field
from components.ui.hooks import use_action, use_query

POSTBACK_EXAMPLE = "https://tracker.example.com/postback?click_id={click_id}&event={event}&revenue={revenue}"


def _event_boxes(t: Any, chosen: list[str], on_toggle: Any, error: str | None) -> Any:
    boxes = [
        html.div({"className": "col-sm-6 col-lg-4", "key": name},
                 html.div({"className": "form-check"},
                          html.input({"className": "form-check-input" + (" is-invalid" if error else ""),
                                      "type": "checkbox", "id": f"event-{name}", "name": "events[]", "value": name,
                                      "checked": name in chosen, "onChange": lambda _e, n=name: on_toggle(n)}),
                          # The event's code (what {event} becomes) shows on hover.
                          html.label({"className": "form-check-label", "htmlFor": f"event-{name}", "title": name},
                                     t(f"postback.event.{name}"))))
        for name in postbacks.POSTBACK_EVENTS
    ]
    return html.fieldset(
        {"className": "mb-3"},
        html.div({"className": "d-flex justify-content-between align-items-baseline"},
                 html.legend({"className": "form-label small fw-medium mb-2 float-none w-auto"}, t("postback.events")),
                 html.div({"className": "small"},
                          html.button({"type": "button", "className": "btn btn-link btn-sm p-0 me-3",
                                       "data-action": "all-events",
                                       "onClick": lambda _e: on_toggle(None, True)}, t("postback.select_all")),
                          html.button({"type": "button", "className": "btn btn-link btn-sm p-0",
                                       "data-action": "no-events",
                                       "onClick": lambda _e: on_toggle(None, False)}, t("postback.select_none")))),
        html.div({"className": "row g-2"}, *boxes),
        html.div({"className": "text-danger small mt-2", "data-field-error": "events"}, error) if error else "",
    )


def _macros(t: Any) -> Any:
    return html.div(
        {"className": "bg-body-tertiary rounded-3 p-3 h-100", "data-postback": "macros"},
        html.div({"className": "fw-semibold small mb-1"}, html.i({"className": "bi bi-braces me-1"}),
                 t("postback.macros")),
        html.p({"className": "small text-body-secondary mb-2"}, t("postback.macros_help")),
        html.dl({"className": "row small mb-0 gy-1"},
                *[item for name in postbacks.POSTBACK_MACROS for item in (
                    html.dt({"className": "col-5 fw-normal", "key": f"dt-{name}"},
                            html.code("{" + name + "}")),
                    html.dd({"className": "col-7 mb-0 text-body-secondary", "key": f"dd-{name}"},
                            t(f"postback.macro.{name}")))]),
    )


@component
def PostbackForm(initial: dict[str, Any]) -> Any:
    console = use_console()
    t = console.t
    url, set_url = use_state(initial["url"])
    events, set_events = use_state(list(initial["events"]))
    # The postback as last saved: a save sends only what changed since (a change made elsewhere stays).
    saved, set_saved = use_state({"url": initial["url"], "events": list(initial["events"])})
    save = use_action(postbacks.update_postback, success="postback.saved", on_done=lambda now: set_saved(now.model_dump()))
    saved_url = saved["url"]

    def toggle(name: str | None, everything: bool = False) -> None:
        if name is None:
            set_events(list(postbacks.POSTBACK_EVENTS) if everything else [])
        else:
            set_events(lambda old: [e for e in old if e != name] if name in old else [*old, name])

    return card(
        html.p({"className": "text-body-secondary small mb-3"}, t("postback.intro")),
        PostbackEndpoint(key="endpoint"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"},
                          form(lambda values: save.submit(actor=console.actor, **changed_values(values, saved)),
                               text_field(name="url", label=t("postback.url"), value=url, on_change=set_url,
                                          error=save.errors.get("url"), placeholder=POSTBACK_EXAMPLE,
                                          max_length=postbacks.URL_MAX_LENGTH, kind="url",
                                          help_text=t("postback.url_help")),
                               _event_boxes(t, events, toggle, save.errors.get("events")),
                               submit_button(t("postback.save"), pending=save.pending,
                                             class_name="btn btn-primary px-4"),
                               name="postback", values={"url": url, "events": events})),
                 html.div({"className": "col-xl-4"}, _macros(t))),
        title=t("postback.title"),
        extra=html.span({"className": "badge " + ("text-bg-success" if saved_url else "text-bg-light border"),
                         "data-postback": "status"}, t("postback.active") if saved_url else t("postback.not_set")),
    )


ENDPOINT_INPUT_ID = "postback-endpoint-value"


@component
def PostbackEndpoint() -> Any:
    """The user's own conversion endpoint (its token made on first view), with an example to copy."""
    console = use_console()
    t = console.t
    scope = use_scope()
    query = use_query(postbacks.postback_endpoint, actor=console.actor)
    if query.value is None:
        return None
    # The address this page was opened on (behind a proxy: its forwarded scheme, which uvicorn applies).
    origin = f"{'https' if scope.get('scheme') in ('https', 'wss') else 'http'}://{header(scope, b'host')}"
    example = origin + query.value.example
    return html.div(
        {"className": "border rounded-3 p-3 mb-4", "data-postback": "endpoint"},
        html.div({"className": "fw-semibold mb-1"}, t("postback.endpoint")),
        html.p({"className": "small text-body-secondary mb-2"}, t("postback.endpoint_help")),
        html.div({"className": "input-group input-group-sm"},
                 html.input({"id": ENDPOINT_INPUT_ID, "className": "form-control font-monospace", "readOnly": True,
                             "value": example, "aria-label": t("postback.endpoint"), "spellCheck": False}),
                 html.button({"type": "button", "className": "btn btn-outline-primary", "data-action": "copy-endpoint",
                              # static/shell/actions.js copies it (Python cannot reach the clipboard)
                              "data-copied": t("api_keys.copied"), "data-copy-from": ENDPOINT_INPUT_ID},
                             t("api_keys.copy"))),
    )


@component
def PostbackSection() -> Any:
    console = use_console()
    query = use_query(postbacks.get_postback, actor=console.actor)
    data = query.value
    if query.loading:
        return card(spinner(console.t("common.loading")), title=console.t("postback.title"))
    if data is None:  # the read failed (postbacks switched off meanwhile, say) and a toast said why
        return card(html.p({"className": "text-body-secondary small mb-0", "data-postback": "unavailable"},
                           console.t("postback.unavailable")), title=console.t("postback.title"))
    return PostbackForm(data.model_dump(), key="postback-form")


def _nothing_enabled(t: Any) -> Any:
    return card(empty_state("bi-sliders", t("client_settings.empty_title"), t("client_settings.empty_text"),
                            marker={"data-client-settings": "empty"}))


@component
def ClientSettingsPage() -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None
    settings = console.state.settings
    postback_on = bool(settings and settings.postback_enabled == postbacks.ENABLED)
    api_on = bool(settings and settings.api_access)
    sections = [
        html.div({"key": "postback"}, PostbackSection()) if postback_on else None,
        html.div({"key": "api"}, ApiCredentialsPanel(actor.id, key=f"api-{actor.id}")) if api_on else None,
    ]
    shown = [s for s in sections if s is not None]
    return html.div(
        page_header(t("client_settings.title"), t("client_settings.subtitle")),
        html.div({"className": "d-flex flex-column gap-4"}, *shown) if shown else _nothing_enabled(t),
    )
