"""The white-label colours as a stylesheet: /theme.css?primary=4f46e5&... sets the CSS custom properties
console.css themes everything from.

A stylesheet and not a <style> element in the page, so that the Content-Security-Policy needs no
'unsafe-inline' for styles (app/web/csp.py). Two addresses:
- /theme.css?<colours> (href): the colours travel in the address, so the file needs no database read and never
  changes for a given address (cached for good). Pages render it, so a brand change shows in open tabs at once.
- /theme.css with no query: the requesting host's colours as they are now. The page shell links it in <head>,
  where a stylesheet holds the first paint until it has loaded; the rendered link arrives only after the page's
  first render, so without this a branded console showed the default colours for a moment on every load. It
  is revalidated on each load (an ETag; one small read).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from app.kernel.db import run_off_loop
from app.settings import company

PATH = "/theme.css"

# query name: (CSS custom property, Branding field, default)
COLOURS = {
    "primary": ("--dsp-primary", "primary_color", "#4f46e5"),
    "hover": ("--dsp-primary-hover", "hover_color", "#4338ca"),
    "on-primary": ("--dsp-on-primary", "text_agency_color", "#ffffff"),
    "card": ("--dsp-card-bg", "card_background_color", "#ffffff"),
    "navbar": ("--dsp-navbar", "navbar_color", "#111827"),
}
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


def _safe(colour: str | None, fallback: str) -> str:
    found = _HEX.match(colour or "")
    return f"#{found.group(1).lower()}" if found else fallback  # only validated hex ever reaches the CSS


def _colours(branding: Any) -> dict[str, str]:
    return {name: _safe(getattr(branding, field), default)[1:] for name, (_p, field, default) in COLOURS.items()}


def href(branding: Any) -> str:
    """The stylesheet's address for a company's colours (app.settings.company.Branding)."""
    return f"{PATH}?{urlencode(_colours(branding))}"


def css(query: Mapping[str, str]) -> str:
    properties = "".join(f"{prop}:{_safe(query.get(name), default)};" for name, (prop, _f, default) in COLOURS.items())
    return f":root{{{properties}}}"


def _host_css(db: Any, *, host: str) -> str:
    return css(_colours(company.branding_for_host(db, host)))


async def stylesheet(request: Request) -> Response:
    if request.query_params:
        return Response(css(request.query_params), media_type="text/css",
                        headers={"cache-control": "public, max-age=31536000, immutable"})
    text = await run_off_loop(_host_css, host=request.url.hostname or "")
    headers = {"cache-control": "no-cache",
               "etag": f'"{hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()}"'}
    if request.headers.get("if-none-match") == headers["etag"]:
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="text/css", headers=headers)
