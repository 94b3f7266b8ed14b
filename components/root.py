"""Root: reads the session cookie and host at the websocket handshake, provides the console context,
and routes to the pages of the user's role."""

from __future__ import annotations

import itertools
from typing import Any

from reactpy import component, html, use_memo, use_scope, use_state
from reactpy_router import browser_router, route

from app.api.deps import SESSION_COOKIE
from app.auth.roles import Role
from app.db import run
from app.errors import ServiceError
from app.i18n.catalog import LANGUAGE_COOKIE, normalise_language, translator
from app.middleware import cookie, header
from app.services import preferences as preferences_service
from app.services import sessions
from app.services.console import console_state
from app.settings import get_settings
from components.pages import pages_for
from components.shell.brand_style import brand_style
from components.shell.context import Console, ConsoleContext
from components.shell.frame import PageFrame
from components.shell.redirect import RedirectScreen
from components.shell.toasts import ToastHost, use_toast_ref
from components.widgets.document_effects import document_effects
from components.widgets.session_agent import session_agent

# Paths whose pages show the inactivity prompt (spec section 4).
EDIT_PATH_MARKERS: tuple[str, ...] = ("campaignEditForm", "applist/edit", "campaignClone", "bulk-campaign-edit")
_navigation_ids = itertools.count(1)


def _preferences_dict(state: Any) -> dict[str, Any]:
    row = state.preferences
    if row is None:
        return {}
    return {key: getattr(row, key) for key in preferences_service.THEME_CHOICES}


@component
def Root() -> Any:
    scope = use_scope()
    token = cookie(scope, SESSION_COOKIE)
    host = header(scope, b"host")
    state = use_memo(lambda: run(console_state, token=token, host=host), dependencies=[])
    language, set_language = use_state(normalise_language(cookie(scope, LANGUAGE_COOKIE)))
    preferences, set_preferences_state = use_state(lambda: _preferences_dict(state))
    ticket, set_ticket = use_state(None)
    logout_requested, set_logout_requested = use_state(False)
    navigation, set_navigation = use_state(None)
    toast_ref = use_toast_ref()
    t = translator(language)

    def toast(kind: str, text: str) -> None:
        if toast_ref.current:
            toast_ref.current(kind, text)

    def logout() -> None:
        if state.actor and state.actor.session_id:
            # Revoke now, so every other tab's next event is refused even before the browser reacts.
            run(sessions.revoke, session_id=state.actor.session_id)
        set_logout_requested(True)

    def go(path: str) -> None:
        set_navigation({"id": next(_navigation_ids), "url": path})

    def set_preferences(values: dict[str, Any]) -> None:
        try:
            run(preferences_service.update_preferences, actor=state.actor, values=values)
        except ServiceError as error:
            toast("error", t(error.message))
            return
        set_preferences_state(lambda current: {**current, **values})

    console = Console(state=state, language=language, t=t, set_language=set_language, toast=toast, logout=logout,
                      go=go, begin_session=lambda tk, nxt: set_ticket({"ticket": tk, "next": nxt}),
                      set_preferences=set_preferences, preferences=preferences)
    role: Role | None = state.role
    pages = pages_for(role, maintenance=state.branding.maintenance_mode)
    routes = [route(page.path, PageFrame(page, key=page.path)) for page in pages]
    routes += [route("/", RedirectScreen()), route("/{rest:path}", RedirectScreen())]
    settings = get_settings()
    return ConsoleContext(
        html.div(
            {"className": "dsp-root", "data-language": language, "data-signed-in": "yes" if state.actor else "no"},
            brand_style(state.branding),
            session_agent(
                session_key=state.actor.session_id if state.actor else None,
                issued_at_ms=state.session_issued_ms,
                expires_at_ms=state.session_expires_ms,
                lifetime_ms=settings.session_lifetime_ms,
                ticket=ticket["ticket"] if ticket else None,
                next_path=ticket["next"] if ticket else "/",
                logout_requested=logout_requested,
                language=language,
                on_language_detected=lambda code: set_language(normalise_language(code)),
                inactivity_path_markers=list(EDIT_PATH_MARKERS),
                inactivity_limit_ms=settings.inactivity_limit_ms,
                inactive_title=t("session.inactive_title"),
                refresh_label=t("session.refresh"),
            ),
            document_effects(navigate_to=navigation),
            ToastHost(toast_ref),
            browser_router(*routes),
        ),
        value=console,
    )
