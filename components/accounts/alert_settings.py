"""The profile's Alerts card: which alert kinds also come by e-mail, and the low-balance threshold in days."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.alerts import service as alerts
from app.alerts.schemas import SubscriptionRead
from components.ui.console import use_console
from components.ui.elements import card
from components.ui.forms import changed_values, form, submit_button, switch_field, text_field
from components.ui.hooks import use_action, use_query


@component
def AlertSettings() -> Any:
    console = use_console()
    loaded = use_query(alerts.get_subscription, actor=console.actor)
    body = AlertSettingsForm(loaded.value) if loaded.value is not None else html.div(
        {"className": "placeholder-glow"}, html.span({"className": "placeholder col-8"}))
    return card(body, title=console.t("alerts.title"))


def _values(subscription: SubscriptionRead) -> dict[str, Any]:
    return {"low_balance_days": str(subscription.low_balance_days),
            **{f"email_{kind}": kind in subscription.email_kinds for kind in subscription.kinds}}


@component
def AlertSettingsForm(subscription: SubscriptionRead) -> Any:
    console = use_console()
    t = console.t
    kinds = subscription.kinds
    values, set_values = use_state(lambda: _values(subscription))
    saved, set_saved = use_state(values)  # what a save compares against: only changed fields are sent
    save = use_action(alerts.update_subscription, success="alerts.saved",
                      on_done=lambda row: set_saved(_values(row)))

    def submit(submitted: dict[str, Any]) -> None:
        changed = changed_values(submitted, saved)
        arguments: dict[str, Any] = {}
        if any(name.startswith("email_") for name in changed):
            arguments["email_kinds"] = [kind for kind in kinds if submitted.get(f"email_{kind}")]
        if "low_balance_days" in changed:
            days = str(changed["low_balance_days"]).strip()
            arguments["low_balance_days"] = int(days) if days.isdigit() else -1  # the service names the field
        save.submit(actor=console.actor, **arguments)

    def toggle(kind: str) -> Any:
        return lambda on: set_values(lambda v: {**v, f"email_{kind}": on})

    return form(
        submit,
        html.p({"className": "small text-body-secondary"}, t("alerts.help")),
        html.div({"data-alert-kinds": "email"},
                 *[switch_field(name=f"email_{kind}", label=t(f"alerts.kind.{kind}"), checked=values[f"email_{kind}"],
                                on_change=toggle(kind)) for kind in kinds]),
        html.div({"className": "text-danger small mb-2", "data-field-error": "email_kinds"},
                 save.errors["email_kinds"]) if save.errors.get("email_kinds") else "",
        text_field(name="low_balance_days", label=t("alerts.low_balance_days"), value=values["low_balance_days"],
                   kind="number", error=save.errors.get("low_balance_days"),
                   on_change=lambda text: set_values(lambda v: {**v, "low_balance_days": text}))
        if subscription.has_balance else "",  # staff and agencies have no balance of their own
        submit_button(t("common.save"), pending=save.pending, class_name="btn btn-primary"),
        name="alerts", values=values,
    )
