"""Document effects: title, favicon, fullscreen, download start, view-changed event, scroll.

These act on `document`/`window`, which Python cannot reach; the `document` JS widget
applies them from props. It renders nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component


class Download(TypedDict):
    """A download to start once: a new `id` starts it (http(s) URLs only)."""

    id: str
    url: str
    filename: str


_DocumentEffects = widget_component("document", "DocumentEffects")


def document_effects(
    *,
    title: str | None = None,
    favicon: str | None = None,
    fullscreen: bool | None = None,
    on_fullscreen_change: Callable[[bool], Any] | None = None,
    download: Download | None = None,
    dashboard_view: str | None = None,
    scroll_top_key: str | int | None = None,
    navigate_to: dict[str, Any] | None = None,
    on_escape: Callable[[], Any] | None = None,
    key: str | None = None,
) -> VdomDict:
    """Apply document-level effects.

    `fullscreen` requests or exits fullscreen when it changes (browsers require a recent
    click, so set it from a click handler; None leaves fullscreen alone);
    `on_fullscreen_change(bool)` reports the browser's real state (e.g. after Esc). A changed `dashboard_view` dispatches window "viewChanged" with
    {detail: {view}}; a changed `scroll_top_key` scrolls the window to the top; a new
    `navigate_to` {"id", "url"} makes a full page load of that same-origin path; `on_escape()` is called when
    Escape is pressed anywhere in the page (a dialog closes on it).
    """
    props: dict[str, Any] = {"download": dict(download) if download is not None else None}
    optional = {
        "fullscreen": fullscreen,
        "title": title,
        "favicon": favicon,
        "onFullscreenChange": on_fullscreen_change,
        "dashboardView": dashboard_view,
        "scrollTopKey": scroll_top_key,
        "navigateTo": navigate_to,
        "onEscape": (lambda _event=None: on_escape()) if on_escape is not None else None,
        "key": key,
    }
    props.update({name: value for name, value in optional.items() if value is not None})
    return _DocumentEffects(props)
