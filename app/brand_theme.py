"""The white-label colours as a stylesheet: /theme.css?primary=4f46e5&... sets the CSS custom properties
console.css themes everything from.

A stylesheet and not a <style> element in the page, so that the Content-Security-Policy needs no
'unsafe-inline' for styles (app/csp.py). The colours travel in the address, so the file needs no database
read and never changes for a given address (cached for good); a brand change renders a new address.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

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


def href(branding: Any) -> str:
    """The stylesheet's address for a company's colours (app.services.company.Branding)."""
    colours = {name: _safe(getattr(branding, field), default)[1:] for name, (_p, field, default) in COLOURS.items()}
    return f"{PATH}?{urlencode(colours)}"


def css(query: Mapping[str, str]) -> str:
    properties = "".join(f"{prop}:{_safe(query.get(name), default)};" for name, (prop, _f, default) in COLOURS.items())
    return f":root{{{properties}}}"


async def stylesheet(request: Request) -> Response:
    return Response(css(request.query_params), media_type="text/css",
                    headers={"cache-control": "public, max-age=31536000, immutable"})
