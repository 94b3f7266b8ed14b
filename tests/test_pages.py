"""The route table and what derives from it: route sets, menus, redirect targets, titles."""

from __future__ import annotations

from datetime import UTC, datetime

from app.access.roles import ROLE_HOME, Role
from components.pages import PAGES, menu_pages, pages_for, profile_path, settings_path
from components.shell.footer import footer_text
from components.shell.redirect import redirect_target
from components.shell.title import capitalised_path, page_title
from tests.render import branding

PUBLIC_PATHS = {"/login", "/register", "/forgot-password", "/maintenance", "/documentation/general",
                "/documentation/console"}


def test_logged_out_users_get_exactly_the_public_routes():
    assert {p.path for p in pages_for(None)} == PUBLIC_PATHS


def test_each_role_gets_only_its_own_prefix():
    prefixes = {Role.ADMIN: "/admin/", Role.CO_ADMIN: "/co-admin/", Role.AGENCY: "/agency/"}
    for role in Role:
        own = [p for p in pages_for(role) if not p.public]
        assert own, role
        for page in own:
            if role in prefixes:
                assert page.path.startswith(prefixes[role]) or (role == Role.CO_ADMIN and page.co_admin == "shared"), page.path
            else:
                assert not page.path.startswith(("/admin/", "/co-admin/", "/agency/")), page.path
        assert ROLE_HOME[role] in {p.path for p in own}
        assert profile_path(role) in {p.path for p in own}


def test_co_admin_mirrors_admin_without_exclusions():
    admin = {p.path.removeprefix("/admin") for p in PAGES if Role.ADMIN in p.roles and p.path.startswith("/admin/")
             and p.co_admin == "mirror"}
    co_admin = {p.path.removeprefix("/co-admin") for p in PAGES if Role.CO_ADMIN in p.roles and p.path.startswith("/co-admin/")}
    assert admin == co_admin
    assert "/co-admin/settings" not in {p.path for p in PAGES}  # co-admin has no settings route
    assert settings_path(Role.CO_ADMIN) is None
    assert settings_path(Role.ADMIN) == "/admin/settings"


def test_signed_in_users_keep_the_documentation_but_not_the_login_pages():
    paths = {p.path for p in pages_for(Role.ADVERTISER)}
    assert {"/documentation/general", "/documentation/console", "/maintenance"} <= paths
    assert not {"/login", "/register", "/forgot-password"} & paths


def test_maintenance_leaves_non_staff_only_the_maintenance_page():
    assert [p.path for p in pages_for(Role.ADVERTISER, maintenance=True)] == ["/maintenance"]
    assert [p.path for p in pages_for(Role.AGENCY, maintenance=True)] == ["/maintenance"]
    assert "/admin/dashboard" in {p.path for p in pages_for(Role.ADMIN, maintenance=True)}
    assert "/co-admin/dashboard" in {p.path for p in pages_for(Role.CO_ADMIN, maintenance=True)}
    assert redirect_target("AGENCY", maintenance=True, staff=False) == "/maintenance"
    assert redirect_target("ADMIN", maintenance=True, staff=True) == "/admin/dashboard"


def test_redirect_screen_targets_are_the_specs():
    assert redirect_target(None, maintenance=False, staff=False) == "/login"
    assert redirect_target("ADMIN", maintenance=False, staff=True) == "/admin/dashboard"
    assert redirect_target("CO-ADMIN", maintenance=False, staff=True) == "/co-admin/dashboard"
    assert redirect_target("AGENCY", maintenance=False, staff=False) == "/agency/dashboard"
    assert redirect_target("ADVERTISER", maintenance=False, staff=False) == "/dashboard"


def test_menus_start_with_the_dashboard():
    for role in Role:
        menu = menu_pages(role)
        assert menu[0].path == ROLE_HOME[role]
        assert [p.order for p in menu] == sorted(p.order for p in menu)


def test_page_title_and_footer():
    assert capitalised_path("/admin/dashboard") == "Admin Dashboard"
    assert capitalised_path("/campaignEditForm/12") == "Campaign Edit Form"
    assert page_title("/dashboard", "Northwind DSP", "Northwind") == "Dashboard | Northwind DSP | Northwind"
    assert page_title("/dashboard", "Acme", "Acme") == "Dashboard | Acme"
    brand = branding(footer_start_year=2021, footer_text="Acme Ads.")
    assert footer_text(brand, now=datetime(2026, 5, 1, tzinfo=UTC)) == "© 2021–2026 Acme Ads."
    assert footer_text(branding(footer_start_year=2026), now=datetime(2026, 5, 1, tzinfo=UTC)) == "© 2026 Acme Ads"


# Spec §2, "Top menus": each role's pages in this order, nothing more (API Docs and Help & Support are the
# conditional links after them, tested in test_shell_components).
SPEC_MENUS: dict[Role, list[str]] = {
    Role.ADVERTISER: ["/dashboard", "/campaign", "/creatives", "/funds", "/audience", "/inventory-list", "/report"],
    Role.ADMIN: ["/admin/dashboard", "/admin/users", "/admin/campaign", "/admin/creative", "/admin/funds",
                 "/admin/audience", "/admin/inventory-list", "/admin/smart-apps", "/admin/dsplist", "/admin/newdsp",
                 "/admin/agencies", "/admin/report", "/admin/exchange-approval"],
    Role.AGENCY: ["/agency/dashboard", "/agency/advertiser", "/agency/campaign", "/agency/creative", "/agency/funds",
                  "/agency/audience", "/agency/inventory-list", "/agency/report"],
    Role.CO_ADMIN: ["/co-admin/dashboard", "/co-admin/users", "/co-admin/campaign", "/co-admin/creative",
                    "/co-admin/funds", "/co-admin/audience", "/co-admin/inventory-list", "/co-admin/smart-apps",
                    "/co-admin/agencies", "/co-admin/report", "/co-admin/exchange-approval"],
}


def test_each_roles_menu_is_the_specs_list_in_order():
    for role, paths in SPEC_MENUS.items():
        assert [p.path for p in menu_pages(role)] == paths, role
