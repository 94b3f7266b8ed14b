"""/admin/settings: the sign-in policy card (admin): whether admins and co-admins must use two-factor sign-in
(app/accounts/second_factor.py set_policy)."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.accounts import second_factor
from components.ui.console import use_console
from components.ui.elements import card, spinner
from components.ui.forms import switch_field
from components.ui.hooks import use_action, use_query


@component
def SignInPolicyCard() -> Any:
    console = use_console()
    t = console.t
    policy = use_query(second_factor.get_policy, actor=console.actor)
    save = use_action(second_factor.set_policy, success="settings.policy_saved", on_done=lambda _on: policy.reload())
    title = t("settings.sign_in_policy")
    if policy.value is None:
        return card(spinner(), title=title, class_name="mt-4")
    error = save.errors.get("staff_second_factor")
    return card(
        switch_field(name="staff_second_factor", label=t("settings.staff_second_factor"), checked=bool(policy.value),
                     on_change=lambda on: save.submit(actor=console.actor, staff_second_factor=on)),
        html.div({"className": "small text-danger mb-2", "role": "alert"}, error) if error else "",
        html.p({"className": "small text-body-secondary mb-0"}, t("settings.staff_second_factor_help")),
        title=title, class_name="mt-4")
