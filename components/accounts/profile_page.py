"""Profile (/profile, /agency/profile, /admin/profile, /co-admin/profile): details, password, two-factor sign-in
and alert settings."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state

from app.accounts import second_factor
from app.accounts import service as accounts
from components.accounts.alert_settings import AlertSettings
from components.accounts.second_factor_card import SecondFactorCard
from components.ui.console import use_console
from components.ui.elements import card, page_header
from components.ui.forms import changed_values, form, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.labels import role_label_key


def _proof_fields(t: Any, values: dict[str, str], errors: dict[str, str], set_value: Any, *, with_code: bool) -> Any:
    """What a new sign-in e-mail needs besides itself: the current password, and the app's code when the person
    uses one (app/accounts/service.py prove_owner). Named apart from the password card's fields (ids are unique)."""
    return html.div({"className": "row g-3", "data-proof": "email"},
                    html.div({"className": "col-md-6"}, text_field(
                        name=EMAIL_PASSWORD, label=t("field.current_password"), value=values[EMAIL_PASSWORD],
                        kind="password", autocomplete="current-password", error=errors.get("current_password"),
                        help_text=t("profile.email_password_help"),
                        on_change=lambda text: set_value(EMAIL_PASSWORD, text))),
                    html.div({"className": "col-md-6"}, text_field(
                        name=EMAIL_CODE, label=t("twofactor.code"), value=values[EMAIL_CODE], error=errors.get("code"),
                        autocomplete="one-time-code", placeholder="123456", max_length=16,
                        on_change=lambda text: set_value(EMAIL_CODE, text))) if with_code else "")


EMAIL_PASSWORD, EMAIL_CODE = "email_password", "email_code"
NO_PROOF = {EMAIL_PASSWORD: "", EMAIL_CODE: ""}


@component
def ProfileDetails() -> Any:
    console = use_console()
    t = console.t
    user = console.actor.user if console.actor else None
    assert user is not None
    values, set_values = use_state(lambda: {**{name: getattr(user, name) for name in accounts.PROFILE_FIELDS},
                                            **NO_PROOF})
    # The details as last saved: a save sends only the fields changed since (the signed-in user in the console
    # state is the one loaded when the tab opened, so each save's answer moves this on).
    saved, set_saved = use_state(lambda: {name: getattr(user, name) for name in accounts.PROFILE_FIELDS})
    factor = use_query(second_factor.status, actor=console.actor)  # the signed-in person's, who proves the change

    def done(row: Any) -> None:
        set_saved({name: getattr(row, name) for name in accounts.PROFILE_FIELDS})
        set_values(lambda v: {**v, **NO_PROOF})

    save = use_action(accounts.update_profile, success="profile.saved", on_done=done)

    def set_value(name: str, text: str) -> None:
        set_values(lambda v: {**v, name: text})

    def submit(submitted: dict[str, Any]) -> None:
        changes = changed_values(submitted, saved)
        proof = ({"current_password": submitted.get(EMAIL_PASSWORD, ""), "code": submitted.get(EMAIL_CODE, "")}
                 if "email" in changes else {})
        save.submit(actor=console.actor, **changes, **proof)

    def field(name: str, label_key: str, **extra: Any) -> Any:
        return text_field(name=name, label=t(label_key), value=values[name], error=save.errors.get(name),
                          on_change=lambda text: set_value(name, text), **extra)

    new_email = accounts.normalise_email(values["email"]) != saved["email"]
    return card(
        form(submit,
             html.div({"className": "row g-3"},
                      html.div({"className": "col-md-6"}, field("first_name", "field.first_name", max_length=25)),
                      html.div({"className": "col-md-6"}, field("last_name", "field.last_name", max_length=25)),
                      html.div({"className": "col-md-6"}, field("email", "field.email", kind="email")),
                      html.div({"className": "col-md-6"}, field("company_name", "field.company"))),
             _proof_fields(t, values, save.errors, set_value,
                           with_code=bool(factor.value and factor.value.enabled)) if new_email else "",
             submit_button(t("common.save"), pending=save.pending, class_name="btn btn-primary"), name="profile",
             values=values),
        title=t("profile.details"),
    )


@component
def ChangePassword() -> Any:
    console = use_console()
    t = console.t
    current, set_current = use_state("")
    new, set_new = use_state("")
    confirm, set_confirm = use_state("")
    mismatch, set_mismatch = use_state("")

    def done(_result: Any) -> None:
        set_current("")
        set_new("")
        set_confirm("")

    change = use_action(accounts.change_password, success="profile.password_changed", on_done=done)

    def submit(values: dict[str, Any]) -> None:
        if values["new_password"] != values["confirm_password"]:
            set_mismatch(t("profile.password_mismatch"))
            return
        set_mismatch("")
        change.submit(actor=console.actor, current_password=values["current_password"],
                      new_password=values["new_password"])

    return card(
        form(submit,
             text_field(name="current_password", label=t("field.current_password"), value=current, on_change=set_current,
                        error=change.errors.get("current_password"), kind="password", autocomplete="current-password"),
             text_field(name="new_password", label=t("field.new_password"), value=new, on_change=set_new,
                        error=change.errors.get("new_password"), kind="password", autocomplete="new-password",
                        help_text=t("field.password_help")),
             text_field(name="confirm_password", label=t("field.confirm_password"), value=confirm,
                        on_change=set_confirm, error=mismatch or None, kind="password", autocomplete="new-password"),
             submit_button(t("profile.change_password"), pending=change.pending, class_name="btn btn-primary"),
             name="password"),
        title=t("profile.password"),
    )


@component
def ProfilePage() -> Any:
    console = use_console()
    t = console.t
    actor = console.actor
    assert actor is not None
    return html.div(
        page_header(t("profile.title"), t("profile.subtitle", role=t(role_label_key(actor.role)), id=actor.id)),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-lg-7 d-flex flex-column gap-4"}, ProfileDetails(),
                          # Your own sign-in, never the account you entered (app/accounts/second_factor.py).
                          "" if actor.impersonating else SecondFactorCard()),
                 html.div({"className": "col-lg-5 d-flex flex-column gap-4"}, ChangePassword(), AlertSettings())),
    )
