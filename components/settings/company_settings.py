"""/admin/settings: the white-label brand (names, colours, footer, help link, logo, favicon), the
maintenance switch and the sign-in policy."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy_router import use_search_params

from app.settings import company
from app.settings.company import COLOUR_FIELDS, EDITABLE_FIELDS
from components.settings.sign_in_policy import SignInPolicyCard
from components.ui.console import use_console
from components.ui.elements import card, loading_page, page_header
from components.ui.forms import alert, changed_values, form, submit_button, switch_field, text_field
from components.ui.hooks import use_action, use_query


def _values_of(row: Any) -> dict[str, Any]:
    return {f: (str(getattr(row, f)) if f == "footer_start_year" else getattr(row, f)) for f in EDITABLE_FIELDS}


def upload_form(config_id: int, kind: str, label: str, current_url: str, button: str) -> Any:
    # A plain multipart POST: files never travel over the websocket. The cookie (SameSite=Lax) authenticates it.
    return html.form(
        {"method": "post", "encType": "multipart/form-data", "action": f"/api/company-config/{config_id}/{kind}",
         "className": "d-flex align-items-start gap-3 mb-4", "name": f"upload-{kind}"},
        html.div({"className": "dsp-upload-preview"}, html.img({"src": current_url, "alt": label})),
        html.div({"className": "flex-grow-1"},
                 html.label({"className": "form-label small fw-medium", "htmlFor": f"upload-{kind}"}, label),
                 html.input({"type": "file", "name": "file", "id": f"upload-{kind}", "className": "form-control form-control-sm mb-2",
                             "accept": ".png,.jpg,.jpeg,.gif,.webp,.ico", "required": True}),
                 html.button({"type": "submit", "className": "btn btn-sm btn-outline-primary"},
                             html.i({"className": "bi bi-upload me-1"}), button)),
    )


@component
def BrandForm(row: Any) -> Any:
    console = use_console()
    t = console.t
    values, set_values = use_state(lambda: _values_of(row))
    saved, set_saved = use_state(values)  # the brand as last saved: a save sends only the fields changed since

    def done(branding: company.Branding) -> None:
        set_saved(_values_of(branding))
        console.toast("info", t("settings.reload_hint"))

    save = use_action(company.update_config, success="settings.saved", on_done=done)

    def set_value(name: str, value: Any) -> None:
        set_values(lambda v: {**v, name: value})

    def text(name: str, **extra: Any) -> Any:
        return text_field(name=name, label=t(f"settings.{name}"), value=values[name], error=save.errors.get(name),
                          on_change=lambda x: set_value(name, x), **extra)

    def colour(name: str) -> Any:
        return html.div({"className": "col-sm-6 col-xl-4", "key": name},
                        html.label({"className": "form-label small fw-medium", "htmlFor": f"field-{name}"}, t(f"settings.{name}")),
                        html.div({"className": "input-group"},
                                 html.input({"type": "color", "className": "form-control form-control-color",
                                             "value": values[name], "aria-label": t(f"settings.{name}"),
                                             "onChange": lambda e: set_value(name, e["target"]["value"])}),
                                 html.input({"id": f"field-{name}", "name": name, "className": "form-control" + (" is-invalid" if save.errors.get(name) else ""),
                                             "value": values[name], "onChange": lambda e: set_value(name, e["target"]["value"])}),
                                 html.div({"className": "invalid-feedback"}, save.errors.get(name, ""))))

    return form(
        lambda submitted: save.submit(actor=console.actor, config_id=row.id, values=changed_values(submitted, saved)),
        card(html.div({"className": "row g-3"},
                      html.div({"className": "col-md-6"}, text("name")),
                      html.div({"className": "col-md-6"}, text("meta_title")),
                      html.div({"className": "col-md-8"}, text("footer_text")),
                      html.div({"className": "col-md-4"}, text("footer_start_year", kind="number"))),
             title=t("settings.brand")),
        card(html.div({"className": "row g-3"}, *[colour(name) for name in COLOUR_FIELDS]),
             title=t("settings.colours"), class_name="mt-4"),
        card(switch_field(name="help_and_support", label=t("settings.help_and_support"),
                          checked=bool(values["help_and_support"]), on_change=lambda x: set_value("help_and_support", x)),
             text("help_and_support_link", placeholder="https://"),
             html.hr(),
             switch_field(name="maintenance_mode", label=t("settings.maintenance_mode"),
                          checked=bool(values["maintenance_mode"]), on_change=lambda x: set_value("maintenance_mode", x)),
             html.p({"className": "small text-body-secondary mb-0"}, t("settings.maintenance_help")),
             title=t("settings.support"), class_name="mt-4"),
        html.div({"className": "mt-4"}, submit_button(t("common.save"), pending=save.pending, class_name="btn btn-primary px-4")),
        name="brand", values=values,
    )


@component
def CompanySettingsPage() -> Any:
    console = use_console()
    t = console.t
    query = use_query(company.list_configs, actor=console.actor)
    rows = query.value
    params = use_search_params()
    if query.loading:
        return loading_page(t, t("settings.title"))
    if not rows:
        return html.div(page_header(t("settings.title")))
    row = rows[0]
    branding = company.branding_of(row)
    uploaded = params.get("uploaded", [""])[0]
    upload_error = params.get("upload_error", [""])[0]
    return html.div(
        page_header(t("settings.title"), t("settings.subtitle")),
        alert("success", t("settings.uploaded") if uploaded else ""),
        alert("danger", upload_error[:300]),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-xl-8"}, BrandForm(row, key=f"brand-{row.id}")),
                 html.div({"className": "col-xl-4"},
                          card(upload_form(row.id, "logo", t("settings.logo"), branding.logo_url, t("settings.upload")),
                               upload_form(row.id, "favicon", t("settings.favicon"), branding.favicon_url, t("settings.upload")),
                               html.p({"className": "small text-body-secondary mb-0"}, t("settings.upload_help")),
                               title=t("settings.images")),
                          SignInPolicyCard())),
    )
