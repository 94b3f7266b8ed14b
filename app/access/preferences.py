"""Per-user choices (dashboard view, theme panel) and the admin-set per-user settings."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.access.models import UserPreferences, UserSettings
from app.access.policy import Actor, require
from app.access.roles import STAFF_ROLES, Role
from app.kernel.errors import Forbidden, Invalid

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


def may_switch_dashboard_view(role: Role | None, settings: UserSettings | None) -> bool:
    """Spec section 6: admin and co-admin always; others only while their config has insight_dashboard."""
    return role is not None and (role in STAFF_ROLES or bool(settings and settings.insight_dashboard))


def dashboard_view(role: Role | None, settings: UserSettings | None, chosen: Any) -> str:
    """The view the dashboard shows: the stored choice only while the user may switch views, else the default
    (so a user whose Insight360 an admin switched off is not held in it by a stored 'new')."""
    default = THEME_CHOICES["dashboard_view"][0]
    return str(chosen) if chosen in THEME_CHOICES["dashboard_view"] and may_switch_dashboard_view(role, settings) else default


def update_preferences(db: Session, *, actor: Actor, values: dict[str, Any]) -> UserPreferences:
    require(actor, "preferences", "update")
    errors = {k: "Unknown setting." if k not in THEME_CHOICES else "Not an allowed value."
              for k, val in values.items() if val not in THEME_CHOICES.get(k, ())}
    if errors:
        raise Invalid(errors)
    if values.get("dashboard_view", "old") != "old" and not may_switch_dashboard_view(actor.role,
                                                                                     settings_of(db, actor.id)):
        raise Forbidden("You do not have permission to do that.")
    row = preferences_of(db, actor.id)
    for key, val in values.items():
        setattr(row, key, val)
    db.add(row)
    return row
