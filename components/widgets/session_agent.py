"""Session agent: the browser half of the session rules (spec section 4).

Cookies are HttpOnly and read only at the websocket handshake, so login, logout, token
refresh, cross-tab sync and the inactivity prompt need JS; this wrapper drives it with props.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

SESSION_LIFETIME_MS = 7_200_000
INACTIVITY_LIMIT_MS = 300_000

_SessionAgent = widget_component("session", "SessionAgent")


def session_agent(
    *,
    session_key: str | None,
    issued_at_ms: int | None,
    expires_at_ms: int | None,
    refresh_url: str = "/api/auth/session/refresh",
    logout_url: str = "/api/auth/session/logout",
    ticket_url: str = "/api/auth/session",
    lifetime_ms: int = SESSION_LIFETIME_MS,
    ticket: str | None = None,
    next_path: str = "/",
    logout_requested: bool = False,
    logout_next: str = "/login",
    language: str = "en",
    on_language_detected: Callable[[str], Any] | None = None,
    on_ticket_error: Callable[[int], Any] | None = None,
    track_inactivity: bool = False,
    inactivity_path_markers: list[str] | None = None,
    inactivity_limit_ms: int = INACTIVITY_LIMIT_MS,
    inactive_title: str = "This tab was inactive for some time!",
    refresh_label: str = "Refresh",
    key: str | None = None,
) -> VdomDict:
    """Render once per page, high in the tree (it shows nothing but the inactivity prompt).

    - `session_key` identifies the session across tabs (localStorage "auth" marker); it must
      not be the cookie's secret. None when logged out.
    - Login: set `ticket` (one-time, from the login form's handler); the agent POSTs it to
      `ticket_url` (which sets the cookie) and loads `next_path` in full. A failed exchange
      calls `on_ticket_error(http_status)` (0 when the network failed).
    - Logout: set `logout_requested`; the agent POSTs `logout_url`, clears local storage
      (keeping the language) and loads `logout_next`. Other tabs follow within ~1 s.
    - Refresh: POSTs `refresh_url` (JSON reply {"issuedAt", "expiresAt"} in ms; 401 logs out)
      at 90% of `lifetime_ms` or on a random timer 1-10% before expiry.
    - Inactivity: the prompt is armed with `track_inactivity`, or while the browser's path
      contains one of `inactivity_path_markers` (checked every 0.5 s, so router moves count).
    - Language: `on_language_detected(code)` reports a stored choice that differs from
      `language`; a changed `language` is stored and set as the dsp_lang cookie.
    """
    props: dict[str, Any] = {
        "sessionKey": session_key,
        "issuedAt": issued_at_ms,
        "expiresAt": expires_at_ms,
        "lifetimeMs": lifetime_ms,
        "refreshUrl": refresh_url,
        "logoutUrl": logout_url,
        "ticketUrl": ticket_url,
        "ticket": ticket,
        "next": next_path,
        "logoutRequested": logout_requested,
        "logoutNext": logout_next,
        "language": language,
        "trackInactivity": track_inactivity,
        "inactivityPathMarkers": inactivity_path_markers or [],
        "inactivityLimitMs": inactivity_limit_ms,
        "inactiveTitle": inactive_title,
        "refreshLabel": refresh_label,
    }
    optional = {
        "onLanguageDetected": on_language_detected,
        "onTicketError": on_ticket_error,
        "key": key,
    }
    props.update({name: value for name, value in optional.items() if value is not None})
    return _SessionAgent(props)
