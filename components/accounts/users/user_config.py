"""/admin/user-config/{id} (and the co-admin copy): feature switches, margin, exchanges and the
user's API credentials."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.access.roles import Role
from app.accounts import user_config
from app.accounts.schemas import UserConfigRead
from components.accounts.users.common import back_link, not_found, user_page_links
from components.settings.api_credentials_panel import ApiCredentialsPanel
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import changed_values, checkbox_list, form, submit_button, switch_field, text_field
from components.ui.hooks import use_action, use_query
from components.ui.routes import use_subject_id

SWITCHES = (("insight_dashboard", "config.insight_dashboard", "config.insight_dashboard_help"),
            ("postback_enabled", "config.postback_enabled", "config.postback_enabled_help"),
            ("api_access", "config.api_access", "config.api_access_help"))


@component
def ConfigForm(config: UserConfigRead, on_saved: Any) -> Any:
    console = use_console()
    t = console.t
    values, set_values = use_state(config.model_dump(include={"insight_dashboard", "postback_enabled", "api_access",
                                                              "margin", "allowed_exchanges"}))
    save = use_action(user_config.update_config, success="config.saved", on_done=lambda _r: on_saved())

    def set_value(name: str, value: Any) -> None:
        set_values(lambda v: {**v, name: value})

    def switch_setter(name: str) -> Callable[[bool], None]:
        return lambda checked: set_value(name, checked)

    options = [(x.id, x.name + (f" ({t('metadata.retired')})" if x.retired else ""))
               for x in config.exchange_options]
    advertiser = config.role == Role.ADVERTISER
    # What this form shows, as last loaded (the page reloads the config after each save): only the fields
    # the user changed are sent, so a margin the form does not show, or a change made elsewhere, stays.
    loaded = config.model_dump(include={*[key for key, _label, _help in SWITCHES],
                                        *(("margin",) if advertiser else ()), "allowed_exchanges"})

    def submit(submitted: dict[str, Any]) -> None:
        chosen = sorted(int(x) for x in submitted["allowed_exchanges"])
        save.submit(actor=console.actor, user_id=config.id,
                    **changed_values({**submitted, "allowed_exchanges": chosen}, loaded))

    return form(
        submit,
        card(*[html.div({"key": key},
                        switch_field(name=key, label=t(label), checked=bool(values[key]),
                                     on_change=switch_setter(key), help_text=t(help_key)))
               for key, label, help_key in SWITCHES],
             title=t("config.features")),
        card(text_field(name="margin", label=t("field.margin"), value=values["margin"], error=save.errors.get("margin"),
                        on_change=lambda x: set_value("margin", x), help_text=t("users.margin_help")),
             title=t("users.margin_title"), class_name="mt-4") if advertiser else "",
        card(checkbox_list(name="allowed_exchanges", label=t("config.exchanges"), options=options,
                           selected=values["allowed_exchanges"], error=save.errors.get("allowed_exchanges"),
                           on_change=lambda ids: set_value("allowed_exchanges", ids),
                           help_text=t("config.exchanges_help"), hide_label=True) if options
             else html.p({"className": "text-body-secondary small mb-0"}, t("config.no_exchanges")),
             title=t("config.exchanges"), class_name="mt-4"),
        html.div({"className": "mt-4"},
                 submit_button(t("common.save"), pending=save.pending, class_name="btn btn-primary")),
        name="user-config", values=values,
    )


@component
def UserConfigPage() -> Any:
    console = use_console()
    t = console.t
    user_id = use_subject_id()
    query = use_query(user_config.get_config, actor=console.actor, user_id=user_id, deps=[user_id])
    config: UserConfigRead | None = query.value
    reload = query.reload
    if query.loading:
        return loading_page(t, t("config.title"))
    if config is None:
        return html.div(page_header(t("config.title")), not_found(console))
    return html.div(
        page_header(t("config.title"), f"{config.name} · {config.email}", back_link(console)),
        user_page_links(console, config.id, config.role, current="user.config"),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-7"}, ConfigForm(config, reload, key=str(user_id))),
                 html.div({"className": "col-xl-5"},
                          ApiCredentialsPanel(user_id) if config.api_access
                          else card(html.p({"className": "text-body-secondary small mb-0"}, t("config.no_api")),
                                    title=t("config.api_credentials")))),
    )
