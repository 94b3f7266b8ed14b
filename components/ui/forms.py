"""Form fields that show their own error message beside the input (Bootstrap validation look)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reactpy import component, event, html, use_ref

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


def switch_field(*, name: str, label: str, checked: bool, on_change: Callable[[bool], None], help_text: str = "") -> Any:
    input_id = f"field-{name}"
    return html.div(
        {"className": "form-check form-switch mb-3"},
        html.input({"id": input_id, "name": name, "type": "checkbox", "role": "switch", "className": "form-check-input",
                    "checked": checked, "onChange": lambda event: on_change(bool(event["target"]["checked"]))}),
        html.label({"className": "form-check-label", "htmlFor": input_id}, label),
        # Inside the switch's box, so it starts where the label does.
        html.div({"className": "form-text mt-0", "data-help": name}, help_text) if help_text else "",
    )


def submit_button(label: str, *, pending: bool = False, class_name: str = "btn btn-primary w-100") -> Any:
    return html.button(
        {"type": "submit", "className": class_name, "disabled": pending},
        html.span({"className": "spinner-border spinner-border-sm me-2", "aria-hidden": "true"}) if pending else "",
        label,
    )


def form(on_submit: Callable[[dict[str, Any]], Any], *children: Any, name: str = "",
         values: Mapping[str, Any] | None = None) -> Any:
    """A <form> whose submit (button or Enter) calls `on_submit(values)` without a page load.

    The values are what the fields hold in the browser when the user submitted, read from the submit
    event itself (see `submitted_values`), laid over `values` (the page's state) for fields that have no
    DOM value. Never submit from state alone: ReactPy handles each element's events in its own task, so
    the last keystrokes (or a password manager's fill) and the submit can arrive together, and a handler
    that reads state would see the render before them and submit empty or stale fields."""
    @event(prevent_default=True)
    def handle(submit_event: Any) -> None:
        on_submit({**(values or {}), **submitted_values(submit_event)})

    return html.form({"onSubmit": handle, "noValidate": True, "name": name}, *children)


def submitted_values(submit_event: Any) -> dict[str, Any]:
    """The named fields of a submitted form, from the event's serialized target.

    ReactPy's client serializes a <form> (array-like) as the list of its elements: text fields give their
    value, a checkbox its checked state, checkboxes named `x[]` the list of checked values under `x`.
    A <select> arrives as the list of its options without its own name, so `select_field` tags each
    option with `data-field` (a dataset survives serialization) to say whose value it is."""
    target = submit_event.get("target") if isinstance(submit_event, dict) else None
    found: dict[str, Any] = {}
    for element in target if isinstance(target, list) else []:
        if isinstance(element, list):  # a <select>: its options
            for option in element:
                field = (option.get("dataset") or {}).get("field") if isinstance(option, dict) else None
                if field and option.get("selected"):
                    found[field] = str(option.get("value", ""))
            continue
        if not isinstance(element, dict) or not element.get("name"):
            continue
        field, kind = str(element["name"]), element.get("type")
        if field.endswith("[]"):
            chosen = found.setdefault(field[:-2], [])
            if element.get("checked"):
                chosen.append(str(element.get("value", "")))
        elif kind == "checkbox":
            found[field] = bool(element.get("checked"))
        elif kind == "radio":
            if element.get("checked"):
                found[field] = str(element.get("value", ""))
        elif kind not in ("submit", "button", "reset", "file", "fieldset"):
            found[field] = str(element.get("value", ""))
    return found


def changed_values(submitted: Mapping[str, Any], loaded: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of `loaded` (what the form showed when loaded, or last saved) whose submitted value differs:
    a save sends only what the user changed, so a field the form does not show, or one someone else changed
    meanwhile, is never overwritten, and only the changed fields are checked."""
    return {name: submitted[name] for name in loaded if name in submitted and submitted[name] != loaded[name]}


def alert(kind: str, text: str) -> Any:
    return html.div({"className": f"alert alert-{kind} py-2 small", "role": "alert"}, text) if text else ""


def selected_value(event: dict[str, Any]) -> str:
    """The chosen value of a <select> change event. ReactPy's client serializes a <select> target as
    the list of its options (it is array-like), so the value is the option marked selected."""
    target = event.get("target")
    if isinstance(target, dict):
        return str(target.get("value", ""))
    for option in target or []:
        if isinstance(option, dict) and option.get("selected"):
            return str(option.get("value", ""))
    return ""


def select_field(*, name: str, label: str, value: str, options: Sequence[tuple[str, str]],
                 on_change: Callable[[str], None], error: str | None = None, help_text: str = "",
                 class_name: str = "mb-3") -> Any:
    """A labelled <select>; options are (value, text) pairs."""
    input_id = f"field-{name}"
    # Options often arrive after the value (a saved list's genre, whose genres are read when the page opens):
    # a select first drawn without its value's option shows the first option and, in the browser, keeps showing
    # it when the option arrives. A new key once the value has its option draws it again, showing the value.
    shown = "shown" if any(option_value == value for option_value, _text in options) else "waiting"
    return html.div(
        {"className": class_name},
        html.label({"className": styles.FORM_LABEL, "htmlFor": input_id}, label),
        html.select({"key": f"{input_id}-{shown}", "id": input_id, "name": name, "value": value,
                     "className": "form-select" + (" is-invalid" if error else ""),
                     "onChange": lambda event: on_change(selected_value(event))},
                    *[html.option({"value": option_value, "key": option_value, "data-field": name}, text)
                      for option_value, text in options]),
        html.div({"className": "invalid-feedback", "data-field-error": name}, error) if error else "",
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )


def checkbox_list(*, name: str, label: str, options: Sequence[tuple[int, str]], selected: Sequence[int],
                  on_change: Callable[[list[int]], None], error: str | None = None, help_text: str = "",
                  hide_label: bool = False) -> Any:
    """Several checkboxes in columns; `on_change` receives the new list of checked values. `hide_label` keeps
    the legend for screen readers only, where a card title above already says it."""
    return _CheckboxList(name, label, list(options), list(selected), on_change, error, help_text, hide_label)


@component
def _CheckboxList(name: str, label: str, options: list[tuple[int, str]], selected: list[int],
                  on_change: Callable[[list[int]], None], error: str | None, help_text: str, hide_label: bool) -> Any:
    # Each click's new list is built on the one before it, kept here as clicks are handled: two quick clicks
    # arrive before the render of the first, and a list taken from that render would drop the first.
    latest = use_ref(list(selected))
    latest.current = list(selected)  # a render carries every click handled before it

    def toggle(value: int, checked: bool) -> None:
        chosen = set(latest.current)
        new = sorted(chosen | {value}) if checked else sorted(chosen - {value})
        latest.current = new
        on_change(new)

    chosen = set(selected)
    return html.fieldset(
        {"className": "mb-3", "name": name},
        html.legend({"className": "visually-hidden" if hide_label else styles.FORM_LABEL + " mb-2"}, label),
        html.div({"className": "dsp-checkbox-grid" + (" is-invalid" if error else "")},
                 *[html.div({"className": "form-check", "key": str(value)},
                            html.input({"className": "form-check-input", "type": "checkbox", "id": f"{name}-{value}",
                                        "name": f"{name}[]",
                                        "checked": value in chosen, "value": str(value),
                                        "onChange": lambda event, v=value: toggle(v, bool(event["target"]["checked"]))}),
                            html.label({"className": "form-check-label", "htmlFor": f"{name}-{value}"}, text))
                   for value, text in options]),
        html.div({"className": "invalid-feedback d-block", "data-field-error": name}, error) if error else "",
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )
