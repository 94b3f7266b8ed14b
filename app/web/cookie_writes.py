"""Where a write signed in by the browser's session cookie comes from (issue 37). SameSite=Lax keeps the cookie off
cross-site requests, but a page of the same site on another port or subdomain (a user's own test server, a
compromised marketing subdomain) is same-site: its POST carried the cookie and cloned a campaign. So every
POST, PUT, PATCH and DELETE that the cookie signs in must come from the console's own origin: its Origin header
names the host the request was sent to (app/web/middleware.py's same_origin, the websocket's check), or, without
an Origin, its Sec-Fetch-Site says same-origin. Anything else answers 403 before the call reads its session.

A write with neither header is let through: browsers send Origin on every cross-origin POST, PUT, PATCH and DELETE
(fetch, XHR and forms alike; Chromium and Firefox on same-origin ones too), and Sec-Fetch-Site on every request, so
only a non-browser client (curl or a script holding a copied cookie) sends neither, and it could send any Origin
it liked anyway: refusing it would protect nothing. Bearer calls (a JWT from POST /auth/login/, or a dsp_ API key)
are not checked: a foreign page cannot make a browser send an Authorization header it does not know. Calls that
read no session (sign-in, register, the Stripe webhook, postbacks) never get here."""

from __future__ import annotations

from starlette.requests import Request

from app.access.write_limits import WRITE_METHODS
from app.kernel.errors import Forbidden
from app.web.middleware import same_origin

COOKIE_WRITE_REFUSED = ("Cross-site change refused: it came from a page that is not this console's, carrying your "
                        "sign-in cookie. Make changes on the console's own pages, or call the API with a bearer token "
                        "or API key. Behind a proxy, pass the browser's Host header on (deploy/nginx/dsp-console.conf).")
OWN_FETCH_SITES = frozenset({"same-origin", "none"})  # "none": the user's own action (typed, bookmarked)


def require_own_origin(request: Request) -> None:
    """Refuse (403) a cookie-signed write sent from another origin; reads and bearer calls are not asked."""
    if request.method not in WRITE_METHODS:
        return
    if request.headers.get("origin"):
        if not same_origin(request.scope, "write signed in by the session cookie"):
            raise Forbidden(COOKIE_WRITE_REFUSED)
        return
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site and fetch_site not in OWN_FETCH_SITES:
        raise Forbidden(COOKIE_WRITE_REFUSED)
