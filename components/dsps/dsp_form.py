"""/admin/createdsp (the one-page form) and /admin/editdsp/{id}. The API key is typed into a field the page
never fills: once saved it shows only as "Set", with a Replace button that opens an empty field again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html, use_state

from app.dsps import service as dsps
from app.dsps.connectors import HTTP_JSON
from app.dsps.models import DspStatus
from app.dsps.schemas import DspCreate, DspRead, DspUpdate
from app.reference import metadata
from app.reference.schemas import ReferenceOption
from components.dsps.common import DSPS, back_to_list, not_found, status_badge
from components.ui import styles
from components.ui.console import Console, use_console
from components.ui.elements import card, loading_page, page_header, spinner
from components.ui.forms import checkbox_list, form, select_field, submit_button, text_field
from components.ui.hooks import use_action, use_query
from components.ui.links import app_link
from components.ui.navigation import use_navigation
from components.ui.routes import use_subject_id


def connector_options(console: Console) -> list[tuple[str, str]]:
    return [(kind, console.t(f"dsps.connector.{kind}")) for kind in dsps.CONNECTOR_TYPES]


def status_options(console: Console) -> list[tuple[str, str]]:
    return [(s.value, console.t(f"dsps.status.{s.value}")) for s in DspStatus]


def key_field(console: Console, *, error: str | None, autofocus: bool = False) -> Any:
    """An empty password field for the API key. Uncontrolled (no value from the server): what is typed reaches
    the server only in the submit, and the page never sends a key back to the browser."""
    t = console.t
    attrs: dict[str, Any] = {"id": "field-api_key", "name": "api_key", "type": "password", "autoComplete": "new-password",
                             "className": "form-control" + (" is-invalid" if error else ""), "spellCheck": False,
                             "aria-invalid": "true" if error else "false", "placeholder": t("dsps.key_placeholder")}
    if autofocus:
        attrs["autoFocus"] = True
    return html.div({"className": "mb-3"},
                    html.label({"className": styles.FORM_LABEL, "htmlFor": "field-api_key"}, t("dsps.field.api_key")),
                    html.input(attrs),
                    html.div({"className": "invalid-feedback", "data-field-error": "api_key"}, error) if error else "",
                    html.div({"className": "form-text"}, t("dsps.key_help")) if not error else "")


def seat_field(console: Console, *, value: str, on_change: Callable[[str], None], error: str | None) -> Any:
    t = console.t
    return text_field(name="seat_id", label=t("dsps.field.seat_id"), value=value, on_change=on_change, error=error,
                      max_length=dsps.SEAT_ID_MAX_LENGTH, placeholder="seat-1234", help_text=t("dsps.seat_help"))


def key_is_set(console: Console, on_replace: Callable[[], None]) -> Any:
    t = console.t
    return html.div({"className": "mb-3"},
                    html.div({"className": styles.FORM_LABEL}, t("dsps.field.api_key")),
                    html.div({"className": "d-flex align-items-center gap-2"},
                             html.span({"className": "badge text-bg-success", "data-credentials": "set"},
                                       html.i({"className": "bi bi-lock me-1"}), t("dsps.key_set")),
                             html.button({"type": "button", "className": "btn btn-sm btn-outline-secondary",
                                          "data-action": "replace-key", "onClick": lambda _e: on_replace()},
                                         t("dsps.key_replace"))),
                    html.div({"className": "form-text"}, t("dsps.key_set_help")))


def exchange_picker(console: Console, options: list[ReferenceOption], chosen: list[int],
                    on_change: Callable[[list[int]], None], error: str | None, *, hide_label: bool = False) -> Any:
    return checkbox_list(name="exchange_ids", label=console.t("dsps.field.exchanges"),
                         options=[(o.id, o.name) for o in options], selected=chosen, on_change=on_change,
                         error=error, help_text=console.t("dsps.exchanges_help"), hide_label=hide_label)


def submitted_exchanges(values: dict[str, Any], chosen: list[int]) -> list[int]:
    return [int(i) for i in values.get("exchange_ids", chosen)]


@component
def DspForm(dsp: DspRead | None, exchanges: list[ReferenceOption], on_saved: Callable[[DspRead], None]) -> Any:
    console = use_console()
    t = console.t
    values, set_values = use_state(lambda: {key: getattr(dsp, key) if dsp else default for key, default in
                                            (("name", ""), ("connector", HTTP_JSON), ("endpoint_url", ""),
                                             ("seat_id", ""), ("status", DspStatus.ACTIVE.value))})
    chosen, set_chosen = use_state(list(dsp.exchange_ids) if dsp else [])
    replacing, set_replacing = use_state(dsp is None or not dsp.credentials_set)
    save = use_action(dsps.create_dsp if dsp is None else dsps.update_dsp, on_done=on_saved)
    errors = save.errors

    def setter(name: str) -> Callable[[str], None]:
        return lambda value: set_values(lambda old: {**old, name: value})

    def submit(submitted: dict[str, Any]) -> None:
        data = {key: submitted.get(key, values[key]) for key in values}
        data["exchange_ids"] = submitted_exchanges(submitted, chosen)
        if replacing:
            data["api_key"] = submitted.get("api_key", "")
        if dsp is None:
            save.submit(actor=console.actor, data=DspCreate(**data))
        else:
            save.submit(actor=console.actor, dsp_id=dsp.id, data=DspUpdate(**data))

    return html.div(
        {"data-form": "dsp"},
        form(submit,
             html.div({"className": "row g-4"},
                      html.div({"className": "col-lg-6"},
                               html.h2({"className": "h6 fw-semibold mb-3"}, t("dsps.section_connection")),
                               text_field(name="name", label=t("dsps.field.name"), value=values["name"],
                                          on_change=setter("name"), error=errors.get("name"), max_length=120),
                               select_field(name="connector", label=t("dsps.field.connector"),
                                            value=values["connector"], options=connector_options(console),
                                            on_change=setter("connector"), error=errors.get("connector"),
                                            help_text=t("dsps.connector_help")),
                               text_field(name="endpoint_url", label=t("dsps.field.endpoint_url"),
                                          value=values["endpoint_url"], on_change=setter("endpoint_url"),
                                          error=errors.get("endpoint_url"), placeholder="https://bidder.example/api",
                                          help_text=t("dsps.endpoint_help")),
                               seat_field(console, value=values["seat_id"], on_change=setter("seat_id"),
                                          error=errors.get("seat_id")),
                               key_field(console, error=errors.get("api_key"), autofocus=dsp is not None)
                               if replacing else key_is_set(console, lambda: set_replacing(True)),
                               select_field(name="status", label=t("dsps.field.status"), value=values["status"],
                                            options=status_options(console), on_change=setter("status"),
                                            error=errors.get("status"))),
                      html.div({"className": "col-lg-6"},
                               html.h2({"className": "h6 fw-semibold mb-3"}, t("dsps.field.exchanges")),
                               exchange_picker(console, exchanges, chosen, set_chosen, errors.get("exchange_ids"),
                                               hide_label=True))),
             html.div({"className": "d-flex justify-content-end gap-2 border-top pt-3 mt-2"},
                      submit_button(t("dsps.create") if dsp is None else t("common.save"), pending=save.pending,
                                    class_name="btn btn-primary px-4")),
             name="dsp"))


def _exchanges(console: Console) -> Any:
    return use_query(metadata.active_values, actor=console.actor, kind="exchange")


@component
def CreateDspPage() -> Any:
    console = use_console()
    t = console.t
    exchanges = _exchanges(console)
    navigation, go = use_navigation()

    def saved(dsp: DspRead) -> None:
        console.toast("success", t("dsps.created", name=dsp.name))
        go(console.path("dsp.view", id=dsp.id) or "/")

    wizard = console.path("dsp.new")
    return html.div(
        {"data-page": "dsp-create"}, navigation,
        page_header(t("dsps.create_title"), t("dsps.create_subtitle"),
                    app_link({"to": wizard, "className": "btn btn-outline-primary btn-sm"},
                             html.i({"className": "bi bi-magic me-1"}), t("dsps.use_wizard")) if wizard else "",
                    back_to_list(console)),
        card(DspForm(None, exchanges.value, saved) if exchanges.value is not None else spinner(t("common.loading"))))


@component
def EditDspPage() -> Any:
    console = use_console()
    t = console.t
    dsp_id = use_subject_id()
    query = use_query(dsps.get_dsp, actor=console.actor, dsp_id=dsp_id, deps=[dsp_id])
    exchanges = _exchanges(console)
    navigation, go = use_navigation()
    if query.loading or exchanges.loading:
        return loading_page(t, t("dsps.edit_title"))
    dsp: DspRead | None = query.value
    if dsp is None:
        return html.div({"data-page": "dsp-edit"}, page_header(t("dsps.edit_title")), not_found(console))

    def saved(result: DspRead) -> None:
        console.toast("success", t("dsps.saved", name=result.name))
        go(console.path("dsp.view", id=dsp_id) or "/")

    return html.div(
        {"data-page": "dsp-edit"}, navigation,
        page_header(html.span({"className": "d-inline-flex align-items-center gap-2 dsp-title-with-badge"},
                              dsp.name, status_badge(console, dsp.status)),
                    t("dsps.edit_title"), back_to_list(console)),
        DSPS.record_tabs(console, dsp_id, current="dsp.edit"),
        card(DspForm(dsp, exchanges.value or [], saved, key=dsp.updated_at)))
