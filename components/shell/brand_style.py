"""The white-label colours as CSS custom properties: console.css themes everything from these."""

from __future__ import annotations

import re
from typing import Any

from reactpy import html

from app.services.company import Branding

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _safe(colour: str, fallback: str) -> str:
    return colour if _HEX.match(colour or "") else fallback  # only validated hex ever reaches the CSS


def brand_css(branding: Branding) -> str:
    return (
        ":root{"
        f"--dsp-primary:{_safe(branding.primary_color, '#4f46e5')};"
        f"--dsp-primary-hover:{_safe(branding.hover_color, '#4338ca')};"
        f"--dsp-on-primary:{_safe(branding.text_agency_color, '#ffffff')};"
        f"--dsp-card-bg:{_safe(branding.card_background_color, '#ffffff')};"
        f"--dsp-navbar:{_safe(branding.navbar_color, '#111827')};"
        "}"
    )


def brand_style(branding: Branding) -> Any:
    return html.style(brand_css(branding))
