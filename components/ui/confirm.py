"""A confirmation dialog for actions that change or remove data (clicks replayed after a reconnect
must never act on their own)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html


@component
def ConfirmDialog(title: str, text: str, confirm_label: str, cancel_label: str, on_confirm: Callable[[], Any],
                  on_cancel: Callable[[], Any], danger: bool = True, body: Any = "", can_confirm: bool = True,
                  wide: bool = False) -> Any:
    """`body`: what the action will do, under the text (the restore dialog's table of values); `can_confirm`
    False while there is nothing to confirm yet; `wide` for a body with a table."""
    return html.div(
        html.div({"className": "modal-backdrop fade show"}),
        html.div(
            {"className": "modal fade show d-block", "role": "dialog", "aria-modal": "true", "aria-label": title,
             "tabIndex": -1},
            html.div({"className": "modal-dialog modal-dialog-centered" + (" modal-lg" if wide else "")},
                     html.div({"className": "modal-content border-0 shadow"},
                              html.div({"className": "modal-header border-0 pb-0"},
                                       html.h2({"className": "modal-title h5"}, title)),
                              html.div({"className": "modal-body"}, html.p({"className": "mb-0"}, text), body),
                              html.div({"className": "modal-footer border-0"},
                                       html.button({"type": "button", "className": "btn btn-outline-secondary",
                                                    "onClick": lambda _e: on_cancel()}, cancel_label),
                                       html.button({"type": "button", "data-confirm": "yes",
                                                    "disabled": not can_confirm,
                                                    "className": "btn " + ("btn-danger" if danger else "btn-primary"),
                                                    "onClick": lambda _e: on_confirm()}, confirm_label)))),
        ),
    )
