"""The profile card's "New recovery codes": proof that it is the owner (the app's current code, or the password when
the phone is not at hand), then ten new codes shown once; the old ones stop working
(app/accounts/second_factor.py renew_recovery_codes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.accounts import second_factor
from components.accounts.second_factor_parts import code_field
from components.ui.console import use_console
from components.ui.forms import form, submit_button, text_field
from components.ui.hooks import use_action


@component
def RenewRecoveryCodes(on_renewed: Callable[[list[str]], Any]) -> Any:
    """A button, opened into the proof form; `on_renewed(codes)` gets the new codes (the card shows them)."""
    console = use_console()
    t = console.t
    open_, set_open = use_state(False)
    with_password, set_with_password = use_state(False)
    value, set_value = use_state("")

    def renewed(codes: list[str]) -> None:
        set_open(False)
        set_value("")
        on_renewed(codes)

    renew = use_action(second_factor.renew_recovery_codes, success="twofactor.codes_renewed", on_done=renewed)
    if not open_:
        return html.button({"type": "button", "className": "btn btn-outline-secondary btn-sm",
                            "data-action": "renew-recovery-codes", "onClick": lambda _e: set_open(True)},
                           html.i({"className": "bi bi-arrow-repeat me-1"}), t("twofactor.renew_codes"))

    def switch(_e: Any) -> None:
        set_with_password(not with_password)
        set_value("")

    def submit(values: dict[str, Any]) -> None:
        proof = str(values.get("password" if with_password else "code", ""))
        renew.submit(actor=console.actor, **({"password": proof} if with_password else {"code": proof}))

    # Either proof's refusal shows under the field in use (none given at all is the code's).
    error = renew.errors.get("password") or renew.errors.get("code")
    field = text_field(name="password", label=t("field.password"), value=value, on_change=set_value, kind="password",
                       autocomplete="current-password", error=error, autofocus=True) \
        if with_password else code_field(t, value, set_value, error)
    return html.div(
        {"className": "border rounded p-3 mt-2", "data-panel": "renew-recovery-codes"},
        html.p({"className": "small mb-3"}, t("twofactor.renew_help")),
        # Keyed by the proof asked for: switching makes a new input, not the other one's element retyped.
        form(submit, html.div({"key": "password" if with_password else "code"}, field),
             html.div({"className": "d-flex flex-wrap align-items-center gap-2"},
                      submit_button(t("twofactor.renew_submit"), pending=renew.pending, class_name="btn btn-primary"),
                      html.button({"type": "button", "className": "btn btn-link btn-sm", "data-action": "renew-proof",
                                   "onClick": switch},
                                  t("twofactor.renew_with_code" if with_password else "twofactor.renew_with_password")),
                      html.button({"type": "button", "className": "btn btn-link btn-sm text-body-secondary",
                                   "onClick": lambda _e: set_open(False)}, t("common.cancel"))),
             name="renew-recovery-codes", values={"password" if with_password else "code": value}))
