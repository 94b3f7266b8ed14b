"""In-app links that navigate without a page load.

reactpy-router 3.0.0b1's `link()` finds its anchor with `querySelectorAll('.' + className)`, which
fails as soon as the anchor has a second class (it then falls back to a full page load). This keeps
the router's client part but hands it only the unique class.
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from reactpy import component, html, use_ref
from reactpy.types import Location
from reactpy_router.components import Link as RouterLinkScript
from reactpy_router.hooks import _use_route_state

from components.ui.console import Console


@component
def _AppLink(to: str, attributes: dict[str, Any], children: tuple[Any, ...]) -> Any:
    unique = use_ref(f"link-{uuid4().hex}").current
    set_location = _use_route_state().set_location

    def on_click(event: dict[str, Any]) -> None:
        set_location(Location(**event))

    class_name = f"{attributes.get('className', '')} {unique}".strip()
    return html(RouterLinkScript({"onClickCallback": on_click, "linkClass": unique}),
                html.a({**attributes, "href": to, "className": class_name}, *children))


def app_link(attributes: dict[str, Any], *children: Any) -> Any:
    """Like reactpy_router.link({"to": ..., "className": ...}, *children), with working classes."""
    attributes = dict(attributes)
    to = attributes.pop("to")
    return _AppLink(to, attributes, children, key=attributes.pop("key", None))


def back_link(console: Console, name: str, label_key: str) -> Any:
    """A button back to the page called `name` (a list) for the console's role; nothing when the role has none."""
    path = console.path(name)
    return app_link({"to": path, "className": "btn btn-outline-secondary btn-sm"},
                    html.i({"className": "bi bi-arrow-left me-1"}), console.t(label_key)) if path else ""
