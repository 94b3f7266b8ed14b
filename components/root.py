"""Root: reads the session cookie and host at the websocket handshake, provides the console context,
and routes to the pages of the user's role."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, MutableMapping
from typing import Any, cast

from reactpy import component, html, use_async_effect, use_memo, use_scope, use_state
from reactpy_router import browser_router, route

from app.access import preferences as preferences_service
from app.access import sessions
from app.access.roles import Role
from app.access.sessions import SESSION_COOKIE
from app.accounts.console import ConsoleState, console_state, stamp_of
from app.kernel.config import get_settings
from app.kernel.db import run_off_loop
from app.kernel.errors import ServiceError
from app.kernel.faults import infrastructure_error
from app.kernel.i18n.catalog import LANGUAGE_COOKIE, normalise_language, translator
from app.web.middleware import cookie, header
from components.pages import ROUTES
from components.shell.brand_style import brand_style
from components.shell.config_watch import CONFIG_POLL_S, follow_configuration
from components.shell.frame import PageFrame
from components.shell.redirect import RedirectScreen
from components.shell.toasts import ToastHost, use_toast_ref
from components.ui.console import Console, ConsoleContext
from components.ui.elements import spinner
from components.ui.hooks import UNEXPECTED_ERROR, background
from components.widgets.document_effects import document_effects
from components.widgets.session_agent import session_agent

# Paths whose pages show the inactivity prompt (spec section 4). The spec's applist/edit is our
# inventory-list/edit (the spec's routes name the page /inventory-list/edit/{applist_id}).
EDIT_PATH_MARKERS: tuple[str, ...] = ("campaignEditForm", "applist/edit", "inventory-list/edit", "campaignClone",
                                      "bulk-campaign-edit")
_navigation_ids = itertools.count(1)
logger = logging.getLogger(__name__)


def _preferences_dict(state: Any) -> dict[str, Any]:
    row = state.preferences
    if row is None:
        return {}
    return {key: getattr(row, key) for key in preferences_service.THEME_CHOICES}


@component
def Root() -> Any:
    scope = cast(MutableMapping[str, Any], use_scope())  # an ASGI scope; the middleware helpers read it as one
    token = cookie(scope, SESSION_COOKIE)
    host = header(scope, b"host")
    unread: ConsoleState | None = None
    state, set_state = use_state(unread)  # once read (off the event loop)
    problem, set_problem = use_state("")  # why the read is being retried, when the database or disk is at fault
    language = normalise_language(cookie(scope, LANGUAGE_COOKIE))
    # Started during the first render (as use_query does), so the read is under way before the spinner
    # is even sent.
    first_read = use_memo(lambda: background(read_console_state(token, host, set_state, set_problem)),
                          dependencies=[])

    @use_async_effect(dependencies=[])
    async def follow() -> None:
        await follow_console_state(await first_read, token, host, set_state)

    if state is None:  # spec section 2: a spinner until the company configuration is in
        return html.div({"className": "dsp-root", "data-signed-in": "pending"}, spinner("Loading"),
                        html.p({"className": "dsp-root-problem text-center text-danger", "role": "alert"},
                               f"{problem} This page opens by itself when it is back.") if problem else "")
    return ConsoleProvider(state, language, key=state.actor.session_id if state.actor else "signed-out")


async def read_console_state(token: str | None, host: str, set_state: Callable[[ConsoleState], None],
                             set_problem: Callable[[str], None] = lambda _problem: None) -> ConsoleState:
    """The tab's console state, read off the event loop; while the database is away the tab keeps its
    spinner, says why (app/kernel/faults.py) and tries again."""
    while True:
        try:
            state = await run_off_loop(console_state, token=token, host=host)
        except Exception as error:  # noqa: BLE001 - retried; the operator has the log
            fault = infrastructure_error(error)
            if fault is None:
                logger.exception("reading the console state failed; retrying")
            else:
                logger.warning("reading the console state failed: %s; retrying", fault.message)
                set_problem(fault.message)
            await asyncio.sleep(CONFIG_POLL_S)
            continue
        set_state(state)
        return state


async def follow_console_state(state: ConsoleState, token: str | None, host: str,
                               set_state: Callable[[ConsoleState], None]) -> None:
    """Keep the tab's console state in step with configuration changes made anywhere (see config_watch)."""
    current = state

    async def reread() -> None:
        nonlocal current
        try:
            fresh = await run_off_loop(console_state, token=token, host=host)
        except Exception:  # noqa: BLE001 - the next change (or reload) brings it
            logger.exception("re-reading the console state failed")
            return
        # Only the configuration may change here: a tab whose session ended or changed hands is reloaded
        # by the websocket guard and the session agent.
        if fresh.actor is not None and current.actor is not None and fresh.actor.stack == current.actor.stack:
            current = fresh
            set_state(fresh)

    stop = follow_configuration(state.actor.id if state.actor else None, host, stamp_of(state),
                                lambda: background(reread()))
    try:
        await asyncio.Event().wait()  # until the tab closes and the effect is cancelled
    finally:
        stop()


@component
def ConsoleProvider(state: ConsoleState, initial_language: str) -> Any:
    language, set_language = use_state(initial_language)
    preferences, set_preferences_state = use_state(lambda: _preferences_dict(state))
    no_ticket: dict[str, str] | None = None  # {ticket, next}: a sign-in the session agent is turning into a cookie
    ticket, set_ticket = use_state(no_ticket)
    logout_requested, set_logout_requested = use_state(False)
    no_navigation: dict[str, Any] | None = None  # {id, url}: a full page load to make
    navigation, set_navigation = use_state(no_navigation)
    toast_ref = use_toast_ref()
    t = translator(language)

    def toast(kind: str, text: str) -> None:
        if toast_ref.current:
            toast_ref.current(kind, text)

    async def revoke_then_leave() -> None:
        if state.actor and state.actor.session_id:
            # Revoke first, so every other tab's next event is refused even before the browser reacts.
            try:
                await run_off_loop(sessions.revoke, session_id=state.actor.session_id)
            except Exception:  # noqa: BLE001 - the agent's logout call revokes it too; leave regardless
                logger.exception("revoking the session at logout failed")
        set_logout_requested(True)

    def go(path: str) -> None:
        set_navigation({"id": next(_navigation_ids), "url": path})

    async def save_preferences(values: dict[str, Any]) -> None:
        try:
            await run_off_loop(preferences_service.update_preferences, actor=state.actor, values=values)
        except ServiceError as error:
            toast("error", t(error.message))
            return
        except Exception:  # noqa: BLE001 - the user must hear of it, see components.ui.hooks
            logger.exception("saving preferences failed")
            toast("error", t(UNEXPECTED_ERROR))
            return
        set_preferences_state(lambda current: {**current, **values})

    @use_async_effect(dependencies=[])
    async def tell_the_sessions_notice() -> None:
        # Why this page came back as someone else (a move ended the impersonation the tab was in): told once, by
        # the first of the session's tabs to take it.
        if not (state.notice and state.actor and state.actor.session_id):
            return
        try:
            taken = await run_off_loop(sessions.take_notice, session_id=state.actor.session_id, notice=state.notice)
        except Exception:  # noqa: BLE001 - a message, not the page: the next load offers it again
            logger.exception("taking the session's notice failed")
            return
        if taken:
            toast("info", t(state.notice))

    def ticket_failed(_status: int) -> None:
        set_ticket(None)
        toast("error", t("login.session_failed"))

    console = Console(state=state, language=language, t=t, set_language=set_language, toast=toast,
                      logout=lambda: background(revoke_then_leave()), go=go,
                      begin_session=lambda tk, nxt: set_ticket({"ticket": tk, "next": nxt}),
                      set_preferences=lambda values: background(save_preferences(values)), preferences=preferences,
                      routes=ROUTES)
    role: Role | None = state.role
    pages = ROUTES.pages_for(role, maintenance=state.branding.maintenance_mode)
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
                on_ticket_error=ticket_failed,
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
