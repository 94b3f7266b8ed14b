"""The console context: everything a page may ask of the shell, provided once by the Root, the route table
included (pages link to each other through it, never by importing components/pages.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reactpy import create_context, use_context
from reactpy.types import Context

from app.access.policy import Actor
from app.access.roles import Role
from app.accounts.console import ConsoleState
from app.kernel.i18n.catalog import Translator, translator
from components.ui.routes import NO_ROUTES, RouteTable


@dataclass(frozen=True)
class Console:
    state: ConsoleState
    language: str
    t: Translator
    set_language: Callable[[str], None]
    toast: Callable[[str, str], None]
    logout: Callable[[], object]
    go: Callable[[str], None]  # full page load of a path (after session changes)
    begin_session: Callable[[str, str], None]  # (ticket, next path)
    set_preferences: Callable[[dict[str, Any]], object]
    preferences: dict[str, Any] = field(default_factory=dict)
    routes: RouteTable = NO_ROUTES

    def path(self, name: str, **params: Any) -> str | None:
        """The path of the page called `name` for this console's role (its own copy: /admin/..., /agency/...),
        parameters filled in; None when the role has no such page."""
        return self.routes.path(name, self.role, **params)

    @property
    def actor(self) -> Actor | None:
        return self.state.actor

    @property
    def role(self) -> Role | None:
        return self.state.role


def _noop(*_args: Any) -> None:
    return None


ConsoleContext: Context[Console | None] = create_context(None)


def use_console() -> Console:
    console = use_context(ConsoleContext)
    if console is None:  # rendering alone (tests, previews) needs ConsoleContext(..., value=inert_console(...))
        raise RuntimeError("use_console() outside the Root: wrap the component in ConsoleContext")
    return console


def inert_console(state: ConsoleState, language: str = "en", routes: RouteTable = NO_ROUTES) -> Console:
    """A console for rendering components alone (tests, previews): actions do nothing. The caller hands in the
    route table (tests/render.py gives the real one); without it no page has a path."""
    return Console(state=state, language=language, t=translator(language), set_language=_noop, toast=_noop,
                   logout=_noop, go=_noop, begin_session=_noop, set_preferences=_noop, routes=routes)
