"""The four roles and every per-role fact the spec states, declared once."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ADMIN = "ADMIN"
    CO_ADMIN = "CO-ADMIN"
    AGENCY = "AGENCY"
    ADVERTISER = "ADVERTISER"


ALL_ROLES: tuple[Role, ...] = tuple(Role)
STAFF_ROLES = frozenset({Role.ADMIN, Role.CO_ADMIN})

# URL prefix of each role's pages (spec section 2).
ROLE_PREFIX: dict[Role, str] = {
    Role.ADMIN: "/admin",
    Role.CO_ADMIN: "/co-admin",
    Role.AGENCY: "/agency",
    Role.ADVERTISER: "",
}

# Where the redirect screen sends each role.
ROLE_HOME: dict[Role, str] = {
    Role.ADMIN: "/admin/dashboard",
    Role.CO_ADMIN: "/co-admin/dashboard",
    Role.AGENCY: "/agency/dashboard",
    Role.ADVERTISER: "/dashboard",
}

# Who may act as whom (spec section 4).
IMPERSONATION_TARGETS: dict[Role, frozenset[Role]] = {
    Role.ADMIN: frozenset({Role.AGENCY, Role.ADVERTISER}),
    Role.CO_ADMIN: frozenset({Role.AGENCY, Role.ADVERTISER}),
    Role.AGENCY: frozenset({Role.ADVERTISER}),
    Role.ADVERTISER: frozenset(),
}

# "Back To ..." buttons: label key and destination for the user that is being returned to.
BACK_DESTINATION: dict[Role, str] = {
    Role.ADMIN: "/admin/users",
    Role.CO_ADMIN: "/co-admin/users",
    Role.AGENCY: "/agency/advertiser",
}


def home_path(role: str | None) -> str:
    try:
        return ROLE_HOME[Role(role)] if role else "/login"
    except ValueError:
        return "/login"
