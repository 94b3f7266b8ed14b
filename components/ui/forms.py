"""Form fields that show their own error message beside the input (Bootstrap validation look)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import event, html

from components.ui import styles


def text_field(*, name: str, label: str, value: str, on_change: Callable[[str], None], error: str | None = None,
               kind: str = "text", autocomplete: str = "off", placeholder: str = "", help_text: str = "",
               autofocus: bool = False, max_length: int | None = None) -> Any:
    input_id = f"field-{name}"
    attrs: dict[str, Any] = {
        "id": input_id, "name": name, "type": kind, "value": value, "placeholder": placeholder,
        "className": "form-control" + (" is-invalid" if error else ""), "autoComplete": autocomplete,
        "onChange": lambda event: on_change(event["target"]["value"]), "aria-invalid": "true" if error else "false",
    }
    if autofocus:
        attrs["autoFocus"] = True
    if max_length:
        attrs["maxLength"] = max_length
    return html.div(
        {"className": "mb-3"},
        html.label({"className": styles.FORM_LABEL, "htmlFor": input_id}, label),
        html.input(attrs),
        html.div({"className": "invalid-feedback", "data-field-error": name}, error) if error else "",
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )


def switch_field(*, name: str, label: str, checked: bool, on_change: Callable[[bool], None]) -> Any:
    input_id = f"field-{name}"
    return html.div(
        {"className": "form-check form-switch mb-3"},
        html.input({"id": input_id, "name": name, "type": "checkbox", "role": "switch", "className": "form-check-input",
                    "checked": checked, "onChange": lambda event: on_change(bool(event["target"]["checked"]))}),
        html.label({"className": "form-check-label", "htmlFor": input_id}, label),
    )


def submit_button(label: str, *, pending: bool = False, class_name: str = "btn btn-primary w-100") -> Any:
    return html.button(
        {"type": "submit", "className": class_name, "disabled": pending},
        html.span({"className": "spinner-border spinner-border-sm me-2", "aria-hidden": "true"}) if pending else "",
        label,
    )


def form(on_submit: Callable[[], Any], *children: Any, name: str = "") -> Any:
    """A <form> whose submit (button or Enter) calls on_submit without a page load."""
    @event(prevent_default=True)
    def handle(_event: Any) -> None:
        on_submit()

    return html.form({"onSubmit": handle, "noValidate": True, "name": name}, *children)


def alert(kind: str, text: str) -> Any:
    return html.div({"className": f"alert alert-{kind} py-2 small", "role": "alert"}, text) if text else ""
