"""What a route table is made of, and the lookups pages make in it.

THE route table itself (components/pages.py) imports every page, so it sits on the top floor; pages reach it
only through the console context (`console.path("user.edit", id=5)`), never by import.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reactpy_router import use_params

from app.access.roles import STAFF_ROLES, Role

PUBLIC: frozenset[Role] = frozenset()
_CONVERTER = re.compile(r"\{(\w+):\w+\}")  # "{id:int}" (router syntax) -> "{id}" (str.format)


@dataclass(frozen=True)
class Page:
    path: str
    component: Callable[[], Any]
    roles: frozenset[Role] = PUBLIC  # empty: a public page
    menu: str | None = None  # translation key of the menu label; None keeps it out of the menu
    order: int = 0
    icon: str = ""
    frame: str = "shell"  # shell: sidebar + top bar; auth: centred card; docs: reading layout
    co_admin: str = "mirror"  # admin pages only: mirror (own /co-admin copy), shared (same path), none
    anyone: bool = False  # public page that signed-in users may open too (documentation)
    name: str = ""  # what the page is for ("user.edit"): a path lookup finds each role's own page by it

    @property
    def public(self) -> bool:
        return not self.roles


@dataclass(frozen=True)
class MenuLink:
    """A menu entry that is not a page of ours: opens in a new tab when shown."""

    label: str
    href: str
    icon: str
    order: int
    roles: frozenset[Role]
    when: str  # name of the condition in components.shell.menu.MENU_CONDITIONS


@dataclass(frozen=True)
class RouteTable:
    """Pages and external menu links, with the questions the router, the menus and the pages ask of them."""

    pages: tuple[Page, ...] = ()
    menu_links: tuple[MenuLink, ...] = ()
    _paths: dict[tuple[str, Role], str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        paths: dict[tuple[str, Role], str] = {}
        for page in self.pages:  # the first page of a name and role wins, as the router's first match does
            for role in page.roles:
                paths.setdefault((page.name, role), _CONVERTER.sub(r"{\1}", page.path))
        object.__setattr__(self, "_paths", paths)

    def path(self, name: str, role: Role | None, **params: Any) -> str | None:
        """The path of the page called `name` that `role` may open, parameters filled in; None if it has none."""
        template = self._paths.get((name, role)) if role is not None else None
        return template.format(**params) if template is not None else None

    def profile_path(self, role: Role) -> str:
        path = self.path("profile", role)
        assert path is not None, f"no profile page for {role}"
        return path

    def settings_path(self, role: Role) -> str | None:
        """The settings page of a role, when the table has one (co-admin has none)."""
        return self.path("settings", role)

    def pages_for(self, role: Role | None, *, maintenance: bool = False) -> tuple[Page, ...]:
        """The route set of a role (None: logged out). Under maintenance non-staff see only public pages."""
        if role is None:
            return tuple(p for p in self.pages if p.public)
        if maintenance and role not in STAFF_ROLES:
            return tuple(p for p in self.pages if p.path == "/maintenance")
        return tuple(p for p in self.pages if role in p.roles or (p.public and p.anyone))

    def menu_pages(self, role: Role) -> tuple[Page, ...]:
        return tuple(sorted((p for p in self.pages if role in p.roles and p.menu), key=lambda p: p.order))


NO_ROUTES = RouteTable()


def use_subject_id() -> int:
    """The {id} of the page's path (the router already checked it is an int)."""
    return int(use_params().get("id", 0))
