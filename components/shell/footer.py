"""Footer: start year to the current year, then the brand's text (spec section 2)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from reactpy import html

from app.settings.company import Branding


def footer_text(branding: Branding, *, now: datetime | None = None) -> str:
    year = (now or datetime.now(UTC)).year
    start = min(branding.footer_start_year, year)
    years = f"{start}–{year}" if start != year else f"{year}"
    return f"© {years} {branding.footer_text}"


def footer(branding: Branding) -> Any:
    return html.footer({"className": "dsp-footer"}, footer_text(branding))
