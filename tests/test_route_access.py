"""Walks the whole route table as each role and logged out, rendering the real Root at every path,
and checks who gets the page and who is sent away. The expected access is stated from the spec's
rules here, independently of components/pages.py."""

from __future__ import annotations

import pytest
from reactpy.core.hooks import ConnectionContext
from reactpy.core.layout import Layout
from reactpy.types import Connection, Location

from app.access.roles import Role
from app.access.sessions import SESSION_COOKIE
from components.pages import PAGES
from components.root import Root
from tests.helpers import browser_session
from tests.render import run_async, settle, walk

A, C, G, V = Role.ADMIN, Role.CO_ADMIN, Role.AGENCY, Role.ADVERTISER
PUBLIC = {"/login", "/register", "/forgot-password", "/maintenance", "/documentation/general",
          "/documentation/console"}
OPEN_TO_SIGNED_IN = {"/maintenance", "/documentation/general", "/documentation/console"}
# Admin pages co-admin opens at the same path (spec: "They share the admin editUser and metadata routes").
SHARED_WITH_CO_ADMIN = {"/admin/editUser/{id:int}", "/admin/metadata"}
EMAILS = {A: "admin@demo.example", C: "coadmin@demo.example", G: "agency@demo.example",
          V: "advertiser@demo.example"}


def expected_roles(path: str) -> set[Role | None]:
    if path in PUBLIC:
        return {None} | ({A, C, G, V} if path in OPEN_TO_SIGNED_IN else set())
    if path.startswith("/admin/"):
        return {A, C} if path in SHARED_WITH_CO_ADMIN else {A}
    if path.startswith("/co-admin/"):
        return {C}
    if path.startswith("/agency/"):
        return {G}
    return {V}


def _cookie_for(role: Role | None) -> str:
    if role is None:
        return ""
    return f"{SESSION_COOKIE}={browser_session(EMAILS[role])[0]}"


def _rendered(path: str, cookie: str) -> tuple[str | None, str | None]:
    """(data-page of the page that rendered, data-redirect-to of the redirect screen)."""
    headers = [(b"cookie", cookie.encode())] if cookie else []
    connection = Connection(scope={"type": "websocket", "headers": headers}, location=Location(path, ""),
                            carrier=None)

    async def first_render():
        async with Layout(ConnectionContext(Root(), value=connection)) as layout:
            return await settle(layout, (await layout.render())["model"])

    model = run_async(first_render())
    attributes = [node.get("attributes", {}) for node in walk(model)]
    page = next((a["data-page"] for a in attributes if "data-page" in a), None)
    redirect = next((a["data-redirect-to"] for a in attributes if "data-redirect-to" in a), None)
    return page, redirect


@pytest.mark.parametrize("role", [None, A, C, G, V], ids=["logged-out", "admin", "co-admin", "agency", "advertiser"])
def test_every_route_opens_for_exactly_the_roles_the_spec_gives_it(demo_ids, role):
    cookie = _cookie_for(role)
    own_advertiser = demo_ids["advertiser@demo.example"]
    wrong = []
    for page in PAGES:
        path = page.path.replace("{id:int}", str(own_advertiser))
        rendered, redirect = _rendered(path, cookie)
        allowed = role in expected_roles(page.path)
        if allowed and rendered != page.path:
            wrong.append(f"{path}: should open, got {rendered or 'redirect to ' + str(redirect)}")
        if not allowed and (rendered is not None or redirect is None):
            wrong.append(f"{path}: should be refused, rendered {rendered}")
    assert not wrong, "\n".join(wrong)


def test_unknown_and_malformed_paths_go_to_the_redirect_screen(demo_ids):
    cookie = _cookie_for(A)
    assert _rendered("/admin/editUser/not-a-number", cookie) == (None, "/admin/dashboard")
    assert _rendered("/no/such/page", cookie) == (None, "/admin/dashboard")
    assert _rendered("/admin/users", "") == (None, "/login")
