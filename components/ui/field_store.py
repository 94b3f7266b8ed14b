"""Long forms whose fields each re-render alone.

ReactPy resends a whole component on every re-render (ARCHITECTURE.md), so a form that keeps its values
in the page's state resends every field, every select option and every picker on each keystroke. Here
each field is a small component with its own state that also writes its value, synchronously, into a
FieldStore shared by the form: the submit handler reads the store (never a closure's stale copy), and
parts that show a digest of many fields (a summary) subscribe to it and re-render only themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reactpy import Ref, component, html, use_ref, use_state

from components.ui import styles
from components.ui.forms import select_field, text_field


@dataclass(frozen=True)
class FieldStore:
    values: Any  # Ref[dict]: the latest value of every field, written as events are handled
    watchers: Any  # Ref[dict[str, (fields or None, bump)]]: re-render hooks of components that read other fields

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.current.get(name, default)

    def set(self, name: str, value: Any) -> None:
        self.values.current = {**self.values.current, name: value}
        for fields, bump in list(self.watchers.current.values()):
            if fields is None or name in fields:
                bump()

    def put(self, name: str, value: Any) -> None:
        """Set a value without telling the watchers: for a component correcting its own value while it
        renders (setting other components' state during a render is not allowed)."""
        self.values.current = {**self.values.current, name: value}

    def snapshot(self) -> dict[str, Any]:
        return dict(self.values.current)


def use_field_store(initial: dict[str, Any]) -> FieldStore:
    """A store holding `initial` from the first render on (a new form: give the component a new key)."""
    values: Ref[dict[str, Any] | None] = use_ref(None)
    if values.current is None:
        values.current = dict(initial)
    return FieldStore(values, use_ref({}))


def use_watch(store: FieldStore, key: str, fields: Sequence[str] | None = None) -> dict[str, Any]:
    """Re-render the calling component (registered under `key`) whenever one of `fields` (None: any field)
    changes; returns the values."""
    _tick, set_tick = use_state(0)
    store.watchers.current[key] = (frozenset(fields) if fields is not None else None,
                                   lambda: set_tick(lambda n: n + 1))
    return store.snapshot()


def use_field(store: FieldStore, name: str) -> tuple[Any, Callable[[Any], None]]:
    """A field's value as component state, mirrored into the store as soon as it changes."""
    value, set_value = use_state(lambda: store.get(name))

    def change(new: Any) -> None:
        store.set(name, new)
        set_value(new)

    return value, change


@component
def StoreText(store: FieldStore, name: str, label: str, error: str | None = None, **options: Any) -> Any:
    value, change = use_field(store, name)
    return text_field(name=name, label=label, value="" if value is None else str(value), on_change=change,
                      error=error, **options)


@component
def StoreSelect(store: FieldStore, name: str, label: str, options: Sequence[tuple[str, str]],
                error: str | None = None, help_text: str = "", on_pick: Callable[[str], None] | None = None) -> Any:
    value, change = use_field(store, name)

    def picked(new: str) -> None:
        change(new)
        if on_pick:
            on_pick(new)

    return select_field(name=name, label=label, value=str(value or ""), options=options, on_change=picked,
                        error=error, help_text=help_text)


@component
def StoreTextArea(store: FieldStore, name: str, label: str, error: str | None = None, rows: int = 3,
                  placeholder: str = "", help_text: str = "") -> Any:
    value, change = use_field(store, name)
    input_id = f"field-{name}"
    return html.div(
        {"className": "mb-3"},
        html.label({"className": styles.FORM_LABEL, "htmlFor": input_id}, label),
        html.textarea({"id": input_id, "name": name, "rows": rows, "placeholder": placeholder,
                       "value": str(value or ""), "className": "form-control font-monospace small"
                       + (" is-invalid" if error else ""), "aria-invalid": "true" if error else "false",
                       "onChange": lambda event: change(event["target"]["value"])}),
        html.div({"className": "invalid-feedback", "data-field-error": name}, error) if error else "",
        html.div({"className": "form-text"}, help_text) if help_text and not error else "",
    )
