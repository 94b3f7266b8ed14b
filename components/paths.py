"""Links between pages by what they are for (Page.name), so no page hard-codes another's path and
each role lands on its own copy (/admin/..., /co-admin/..., /agency/...)."""

from __future__ import annotations

import re
from typing import Any

from app.access.roles import Role

_CONVERTER = re.compile(r"\{(\w+):\w+\}")  # "{id:int}" (router syntax) -> "{id}" (str.format)


def page_path(name: str, role: Role | None, **params: Any) -> str | None:
    """The path of the page called `name` that `role` may open, parameters filled in; None if it has none."""
    from components.pages import PAGES  # the route table imports every page, pages import this: look up late

    for page in PAGES:
        if page.name == name and role in page.roles:
            return _CONVERTER.sub(r"{\1}", page.path).format(**params)
    return None


def profile_path(role: Role) -> str:
    path = page_path("profile", role)
    assert path is not None, f"no profile page for {role}"
    return path


def settings_path(role: Role) -> str | None:
    """The settings page of a role, when the route table has one (co-admin has none)."""
    return page_path("settings", role)
