"""Links from services to pages, by page name: a service that tells a user where to go (a diagnosis's fix)
names the page ("campaign.edit") and its parameters, and the route table (components/pages.py, which registers
itself here when it loads) turns that into the path the user's role opens. The route table stays declared once,
and no service imports the pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.access.roles import Role
from app.kernel.hooks import Hook

# (page name, role, parameters) -> that role's path, or None when the role has no such page.
PathFinder = Callable[..., str | None]
PAGE_PATHS: Hook[PathFinder] = Hook("page paths", needed=("routes",))


def page_link(name: str, role: Role, **params: Any) -> str | None:
    """The path of page `name` for `role` with its parameters filled in; None when that role has no such page."""
    for find in PAGE_PATHS.handlers():
        if (path := find(name, role, **params)) is not None:
            return path
    return None
