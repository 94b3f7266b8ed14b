"""Navigating from Python event handlers (grid actions, after a save) without a page load."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import use_state
from reactpy_router import navigate


def use_navigation() -> tuple[Any, Callable[[str], None]]:
    """(element to render somewhere in the page, go(path)). Rendering the element moves the router."""
    nowhere: str | None = None
    target, set_target = use_state(nowhere)
    return (navigate(target) if target else ""), set_target
