"""Translation keys derived from domain values."""

from __future__ import annotations

from app.access.roles import Role


def role_label_key(role: Role) -> str:
    return f"role.{role.value.lower().replace('-', '_')}"
