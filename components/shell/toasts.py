"""Toasts: info stays until closed; success and error close themselves after 10 s (spec section 4).
At most three show at once.

The host owns its list, so a new toast re-renders only the toast stack, not the page.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from reactpy import Ref, component, html, use_async_effect, use_ref, use_state

TOAST_AUTO_CLOSE_S = 10
MAX_VISIBLE_TOASTS = 3  # a burst of quick actions must not wall off the page; the oldest give way
AUTO_CLOSING = frozenset({"success", "error"})
_ICON = {"info": "bi-info-circle-fill", "success": "bi-check-circle-fill", "error": "bi-exclamation-octagon-fill"}
_ids = itertools.count(1)


@component
def ToastItem(toast_id: int, kind: str, text: str, on_close: Any) -> Any:
    @use_async_effect(dependencies=[toast_id])
    async def auto_close() -> None:
        if kind in AUTO_CLOSING:
            await asyncio.sleep(TOAST_AUTO_CLOSE_S)
            on_close(toast_id)

    return html.div(
        {"className": f"toast show align-items-center border-0 dsp-toast dsp-toast-{kind}", "role": "alert",
         "aria-live": "assertive", "data-toast-kind": kind},
        html.div({"className": "d-flex"},
                 html.div({"className": "toast-body d-flex gap-2 align-items-start"},
                          html.i({"className": f"bi {_ICON.get(kind, _ICON['info'])}"}), html.span(text)),
                 html.button({"type": "button", "className": "btn-close me-2 m-auto", "aria-label": "Close",
                              "onClick": lambda _e: on_close(toast_id)})),
    )


Toast = tuple[int, str, str]  # (id, kind, text)


def kept(toasts: tuple[Toast, ...]) -> tuple[Toast, ...]:
    """The toasts that stay after a new one arrived, in order. An info toast stays until its reader closes it
    (spec section 4), so the limit of MAX_VISIBLE_TOASTS only ever drops the oldest success and error
    toasts, which would close themselves anyway; the newest of those always shows."""
    infos = sum(1 for _id, kind, _text in toasts if kind not in AUTO_CLOSING)
    room = max(1, MAX_VISIBLE_TOASTS - infos)
    closing = [toast for toast in toasts if toast[1] in AUTO_CLOSING][-room:]
    return tuple(toast for toast in toasts if toast[1] not in AUTO_CLOSING or toast in closing)


@component
def ToastHost(push_ref: Ref[Any]) -> Any:
    toasts, set_toasts = use_state(tuple[tuple[int, str, str], ...]())  # (id, kind, text)

    def push(kind: str, text: str) -> None:
        set_toasts(lambda current: kept((*current, (next(_ids), kind, text))))

    def close(toast_id: int) -> None:
        set_toasts(lambda current: tuple(t for t in current if t[0] != toast_id))

    push_ref.current = push
    return html.div(
        {"className": "toast-container position-fixed bottom-0 end-0 p-3 dsp-toasts"},
        *[ToastItem(toast_id, kind, text, close, key=str(toast_id)) for toast_id, kind, text in toasts],
    )


def use_toast_ref() -> Ref[Any]:
    return use_ref(None)
