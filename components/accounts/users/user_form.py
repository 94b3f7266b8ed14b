"""/admin/addUser, /agency/addAdvertiser (AddUserPage) and /admin/editUser/{id},
/agency/editAdvertiser/{id} (EditUserPage): one form for an account's details."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.access.models import UserStatus
from app.access.roles import ALL_ROLES, Role
from app.accounts import user_config, users
from app.accounts.schemas import AgencyChoice, UserRead
from components.accounts.users.common import back_link, not_found, user_page_links
from components.ui import styles
from components.ui.confirm import ConfirmDialog
from components.ui.console import Console, use_console
from components.ui.elements import card, facts, loading_page, page_header
from components.ui.forms import changed_values, form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.labels import role_label_key
from components.ui.navigation import use_navigation
from components.ui.routes import use_subject_id

DETAILS = ("first_name", "last_name", "email", "company_name")
DIRECT = ""  # the agency select's value for "no agency"


def _locked_field(console: Console, name: str, label_key: str, value: str) -> Any:
    """A detail shown but not offered: unnamed, so no submit carries it (the service refuses it anyway)."""
    return html.div({"className": "col-md-6"}, html.div(
        {"className": "mb-3"},
        html.label({"className": styles.FORM_LABEL, "htmlFor": f"field-{name}"}, console.t(label_key)),
        html.input({"id": f"field-{name}", "className": "form-control", "value": value, "readOnly": True,
                    "disabled": True}),
        html.div({"className": "form-text", "data-locked": name}, console.t("users.sign_in_locked"))))


def detail_fields(console: Console, values: dict[str, str], errors: dict[str, str],
                  set_value: Callable[[str, str], None], *, company_required: bool, email_locked: bool = False) -> Any:
    t = console.t

    def field(name: str, label_key: str, **extra: Any) -> Any:
        return html.div({"className": "col-md-6"},
                        text_field(name=name, label=t(label_key), value=values[name], error=errors.get(name),
                                   on_change=lambda text: set_value(name, text), **extra))

    return html.div({"className": "row gx-3"},
                    field("first_name", "field.first_name", max_length=25),
                    field("last_name", "field.last_name", max_length=25),
                    # The address an account signs in with is its sign-in (app/access/permissions.py
                    # CREDENTIALS_MANAGED): a co-admin sees another co-admin's, and cannot change it.
                    _locked_field(console, "email", "field.email", values["email"]) if email_locked
                    else field("email", "field.email", kind="email"),
                    field("company_name", "field.company",
                          help_text="" if company_required else t("users.company_optional")))


@component
def AddUserPage() -> Any:
    console = use_console()
    t = console.t
    staff = console.role != Role.AGENCY
    values, set_values = use_state({"role": Role.ADVERTISER.value, "agency_id": DIRECT, "password": "",
                                    **dict.fromkeys(DETAILS, "")})
    agencies: list[AgencyChoice] | None = use_query(users.agency_choices, actor=console.actor).value if staff else None
    navigation, go = use_navigation()
    list_path = console.path("users")

    def saved(user: Any) -> None:
        console.toast("success", t("users.created", name=user.display_name))
        if list_path:
            go(list_path)

    create = use_action(users.create_user, on_done=saved)

    def set_value(name: str, value: str) -> None:
        set_values(lambda v: {**v, name: value})

    def submit(submitted: dict[str, Any]) -> None:
        agency = submitted["agency_id"] if Role(submitted["role"]) == Role.ADVERTISER else DIRECT
        create.submit(actor=console.actor, role=submitted["role"], email=submitted["email"],
                      password=submitted["password"], first_name=submitted["first_name"],
                      last_name=submitted["last_name"], company_name=submitted["company_name"],
                      agency_id=int(agency) if agency else None)

    role = Role(values["role"])
    role_options = [(r.value, t(role_label_key(r))) for r in ALL_ROLES]
    agency_options = [(DIRECT, t("users.direct_advertiser"))] + [(str(a.id), a.name) for a in agencies or []]
    errors = create.errors
    return html.div(
        navigation,
        page_header(t("users.add_title" if staff else "users.add_advertiser_title"),
                    t("users.add_subtitle" if staff else "users.add_advertiser_subtitle"), back_link(console)),
        html.div({"className": "row g-4"}, html.div({"className": "col-xl-8"}, card(form(
            submit,
            html.div({"className": "row gx-3"},
                     html.div({"className": "col-md-6"},
                              select_field(name="role", label=t("field.role"), value=values["role"],
                                           options=role_options, on_change=lambda x: set_value("role", x),
                                           error=errors.get("role"))),
                     html.div({"className": "col-md-6"},
                              select_field(name="agency_id", label=t("field.agency"), value=values["agency_id"],
                                           options=agency_options, on_change=lambda x: set_value("agency_id", x),
                                           error=errors.get("agency_id"), help_text=t("users.agency_help"))
                              if role == Role.ADVERTISER else "")) if staff else "",
            detail_fields(console, values, errors, set_value, company_required=role in (Role.AGENCY, Role.ADVERTISER)),
            text_field(name="password", label=t("field.initial_password"), value=values["password"], kind="password",
                       autocomplete="new-password", error=errors.get("password"),
                       on_change=lambda x: set_value("password", x), help_text=t("users.initial_password_help")),
            html.div({"className": "d-flex gap-2"},
                     submit_button(t("users.create"), pending=create.pending, class_name="btn btn-primary")),
            name="add-user", values=values,
        ), title=t("users.account_details")))),
    )


@component
def MarginCard(user_id: int) -> Any:
    """An agency's margin on one of its advertisers."""
    console = use_console()
    t = console.t
    query = use_query(user_config.margin_of, actor=console.actor, user_id=user_id, deps=[user_id])
    current, reload = query.value, query.reload
    untouched: str | None = None
    value, set_value = use_state(untouched)
    save = use_action(user_config.set_margin, success="users.margin_saved", on_done=lambda _r: reload())
    shown = value if value is not None else (current or "0")
    return card(form(lambda submitted: save.submit(actor=console.actor, user_id=user_id, margin=submitted["margin"]),
                     text_field(name="margin", label=t("field.margin"), value=shown, on_change=set_value,
                                error=save.errors.get("margin"), help_text=t("users.margin_help")),
                     submit_button(t("common.save"), pending=save.pending, class_name="btn btn-outline-primary"),
                     name="margin", values={"margin": shown}),
                title=t("users.margin_title"))


@component
def EditUserForm(user: UserRead, on_saved: Callable[[], None]) -> Any:
    console = use_console()
    t = console.t
    loaded: dict[str, str] = user.model_dump(include=set(DETAILS))
    values, set_values = use_state(loaded)
    save = use_action(users.update_user, success="users.saved", on_done=lambda _r: on_saved())

    def set_value(name: str, value: str) -> None:
        set_values(lambda v: {**v, name: value})

    # Only what the user changed since the account was loaded (it is reloaded after each save).
    return card(form(lambda submitted: save.submit(actor=console.actor, user_id=user.id,
                                                   **changed_values(submitted, loaded)),
                     detail_fields(console, values, save.errors, set_value,
                                   company_required=user.role in (Role.AGENCY, Role.ADVERTISER),
                                   email_locked=not user.can_manage_sign_in),
                     submit_button(t("common.save"), pending=save.pending, class_name="btn btn-primary"),
                     name="edit-user", values=values),
                title=t("users.account_details"))


@component
def ResetPasswordButton(user: UserRead) -> Any:
    """Mails the account a one-time code for /forgot-password, after a confirmation."""
    console = use_console()
    t = console.t
    asking, set_asking = use_state(False)
    reset = use_action(users.send_password_reset,
                       on_done=lambda email: console.toast("success", t("users.reset_sent", email=email)))

    def confirm() -> None:
        set_asking(False)
        reset.submit(actor=console.actor, user_id=user.id)

    return html.div(
        html.button({"type": "button", "className": "btn btn-outline-secondary btn-sm w-100",
                     "data-action": "reset_password", "disabled": reset.pending,
                     "onClick": lambda _e: set_asking(True)},
                    html.i({"className": "bi bi-key me-1"}), t("users.reset_password")),
        ConfirmDialog(t("users.confirm_reset_password_title"), t("users.confirm_reset_password", name=user.name),
                      t("users.reset_password"), t("common.cancel"), confirm, lambda: set_asking(False),
                      danger=False) if asking else "",
    )


def account_facts(console: Console, user: UserRead, *, actions: Any = "") -> Any:
    t = console.t
    rows = [(t("field.role"), t(role_label_key(user.role))),
             (t("dashboard.col.status"), t(f"status.{user.status}")),
             (t("field.agency"), user.agency or (t("users.direct_advertiser") if user.role == Role.ADVERTISER
                                                else "—")),
             (t("users.user_id"), str(user.id))]
    return card(facts(rows, cell="col-6 mb-2"), actions, title=t("users.account"))


@component
def EditUserPage() -> Any:
    console = use_console()
    t = console.t
    user_id = use_subject_id()
    query = use_query(users.get_user, actor=console.actor, user_id=user_id, deps=[user_id])
    user: UserRead | None = query.value
    reload = query.reload
    if query.loading:
        return loading_page(t, t("users.edit_title"))
    if user is None:
        return html.div(page_header(t("users.edit_title")), not_found(console))
    agency_view = console.role == Role.AGENCY
    return html.div(
        page_header(t("users.edit_title"), user.name, back_link(console)),
        user_page_links(console, user.id, user.role, current="user.edit"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"}, EditUserForm(user, reload, key=f"{user_id}-{user.email}")),
                 html.div({"className": "col-xl-4 d-flex flex-column gap-4"},
                          account_facts(console, user, actions=ResetPasswordButton(user)
                                        if user.status == UserStatus.ACTIVE and user.can_manage_sign_in else ""),
                          MarginCard(user_id) if agency_view else "")),
    )
