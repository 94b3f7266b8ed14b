"""The white-label colours: console.css themes everything from CSS custom properties that /theme.css sets
(app/settings/brand_theme.py). A stylesheet link, not a <style> element: the Content-Security-Policy allows styles
from files only."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.settings import brand_theme
from app.settings.company import Branding


def brand_style(branding: Branding) -> Any:
    return html.link({"rel": "stylesheet", "href": brand_theme.href(branding), "data-brand-theme": "1"})
