"""Per-user choices (dashboard view, theme panel) and the admin-set per-user settings."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.auth.policy import Actor, require
from app.errors import Invalid
from app.models.user import UserPreferences, UserSettings

# Allowed values of each theme-panel option (spec section 1), declared once for the panel and checks.
THEME_CHOICES: dict[str, tuple[Any, ...]] = {
    "layout": ("vertical", "horizontal"),
    "width": ("fluid", "boxed", "scrollable"),
    "topbar": ("light", "dark", "brand"),
    "sidebar": ("default", "compact", "icon"),
    "sidebar_color": ("dark", "light", "brand"),
    "preloader": (True, False),
    "dashboard_view": ("old", "new"),
}


def preferences_of(db: Session, user_id: int) -> UserPreferences:
    return db.get(UserPreferences, user_id) or UserPreferences(user_id=user_id)


def settings_of(db: Session, user_id: int) -> UserSettings:
    """A failed or missing config reads as the empty config (spec section 6)."""
    return db.get(UserSettings, user_id) or UserSettings(user_id=user_id)


def update_preferences(db: Session, *, actor: Actor, values: dict[str, Any]) -> UserPreferences:
    require(actor, "preferences", "update")
    errors = {k: "Unknown setting." if k not in THEME_CHOICES else "Not an allowed value."
              for k, val in values.items() if val not in THEME_CHOICES.get(k, ())}
    if errors:
        raise Invalid(errors)
    row = preferences_of(db, actor.id)
    for key, val in values.items():
        setattr(row, key, val)
    db.add(row)
    return row
