"""The refusal of a save made from an older copy of a record (409, app/history/versions.py), where the save was
made: who changed what and when, and a button that loads the record as it is now (what was typed is dropped
then; until it is pressed, it stays in the form)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import html

from components.ui.console import Console


def saved_since(console: Console, message: str, on_reload: Callable[[], Any]) -> Any:
    """`message`: the refusal as use_action's in-place message (empty: nothing is shown)."""
    if not message:
        return ""
    return html.div({"className": "alert alert-warning py-2 small d-flex align-items-center gap-2 flex-wrap",
                     "role": "alert", "data-alert": "saved-since"},
                    html.div({"className": "d-flex gap-2 flex-grow-1"},  # the icon stays beside the words
                             html.i({"className": "bi bi-exclamation-triangle"}),
                             html.span({"data-message": ""}, message)),
                    html.button({"type": "button", "className": "btn btn-sm btn-warning",
                                 "data-action": "reload-changed", "onClick": lambda _e: on_reload()},
                                html.i({"className": "bi bi-arrow-clockwise me-1"}), console.t("versions.reload")))
