"""Every page in each role's menu, and Insight360, has no serious or critical axe-core finding: contrast,
names, labels, landmarks. Checked in Chromium with axe-core as bundled by axe-playwright-python; the rule that
a control's spoken name contains its visible text (label-content-name-mismatch) is experimental in axe and
switched on here."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from app.access.roles import Role
from components.pages import menu_pages
from tests.e2e.conftest import login
from tests.helpers import user_by_email

pytestmark = pytest.mark.e2e

AXE = Axe()
OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}


def _serious(page: Page) -> list[str]:
    # Wait for the page's data: no spinner left and the dashboard (if any) past its first load.
    expect(page.locator(".dsp-content .spinner-border")).to_have_count(0)
    expect(page.locator("[data-loading=true]")).to_have_count(0)
    found = AXE.run(page, options=OPTIONS).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("email", ["admin@demo.example", "coadmin@demo.example", "agency@demo.example",
                                   "advertiser@demo.example"])
def test_menu_pages_have_no_serious_axe_findings(page: Page, email: str, db) -> None:
    # No transitions (Bootstrap honours reduced motion): axe must read colours as they end, not half-faded
    # from the state before a click.
    page.emulate_media(reduced_motion="reduce")
    login(page, email)
    role = Role(user_by_email(db, email).role)
    problems: dict[str, list[str]] = {}
    for menu_page in menu_pages(role):
        page.goto(menu_page.path)
        expect(page.locator(".dsp-content")).not_to_be_empty()
        if found := _serious(page):
            problems[menu_page.path] = found
    home = menu_pages(role)[0].path
    page.goto(home)
    expect(page.locator("[data-dashboard=classic]")).to_be_visible()
    switch = page.get_by_role("button", name="Insight360")
    if role != Role.AGENCY:  # the demo agency has no Insight360 (its settings leave it off)
        switch.click()
        expect(page.locator("[data-dashboard=insight360]")).to_be_visible()
        if found := _serious(page):
            problems[f"{home} (Insight360)"] = found
    assert not problems, problems
