"""/admin/metadata in a real browser: the admin manages a reference list; co-admin shares the page;
an agency never gets it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from app.access.models import UserSettings
from app.kernel.db import run
from app.reference.metadata import seed_reference_values
from app.reference.models import ReferenceValue
from tests.e2e.conftest import login, screenshot
from tests.helpers import user_by_email

pytestmark = pytest.mark.e2e


@pytest.fixture
def lists(demo: dict[str, int]) -> dict[str, int]:
    """Reference data seeded, and Magnite in use by the demo advertiser's allowed exchanges."""
    def prepare(db):
        seed_reference_values(db)
        magnite = db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange",
                                                       ReferenceValue.name == "Magnite")).one()
        for other in db.exec(select(UserSettings)):  # whatever the demo seeds, only this one use counts here
            other.allowed_exchanges = []
            db.add(other)
        advertiser = user_by_email(db, "advertiser@demo.example")
        settings = db.get(UserSettings, advertiser.id) or UserSettings(user_id=advertiser.id)
        settings.allowed_exchanges = [magnite.id]
        db.add(settings)
    run(prepare)
    return demo


def _row(page: Page, name: str):
    return page.locator(f"[data-kind-panel] tr[data-value='{name}']")


def _choose(select, value: str) -> None:
    """Choose an option as the browser does on a user's pick: set the value, announce the change. Playwright's
    select_option never returned on the 250-country select (it did on short ones), even forced."""
    select.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('change', {bubbles: true})); }", value)
    expect(select).to_have_value(value)


def _open_from_user_menu(page: Page) -> None:
    page.click("[data-dropdown=user] button")
    page.click("[data-menu=reference-lists]")
    page.wait_for_url("**/admin/metadata")
    expect(page.locator("[data-page=metadata] h1")).to_have_text("Reference lists")


def test_admin_adds_renames_retires_and_deletes_values(page: Page, lists) -> None:
    login(page, "admin@demo.example")
    _open_from_user_menu(page)
    panel = page.locator("[data-kind-panel=exchange]")
    expect(panel).to_be_visible()
    expect(page.locator("[data-kind=exchange] [data-count]")).to_have_text("10")
    expect(_row(page, "Magnite").locator("[data-used]")).to_have_text("Used by 1")
    expect(_row(page, "Magnite").locator("[data-action=delete]")).to_have_count(0)  # in use: retire only
    expect(_row(page, "Magnite").locator("[data-action=delete-locked]")).to_have_attribute(
        "title", "In use: it can be retired, not deleted.")
    expect(_row(page, "OpenX").locator("[data-used]")).to_have_text("Not used")

    add = page.locator("form[name=add-value] input[name=name]")
    add.fill("Equativ")
    add.press("Enter")
    expect(page.locator("[data-toast-kind=success]").last).to_contain_text("“Equativ” added.")
    expect(_row(page, "Equativ")).to_be_visible()
    expect(add).to_have_value("")
    expect(page.locator("[data-kind=exchange] [data-count]")).to_have_text("11")

    add.fill("  openx ")
    page.click("form[name=add-value] button[type=submit]")
    expect(page.locator("form[name=add-value] [data-field-error=name]")).to_have_text("This name is already in the list.")
    expect(add).to_have_attribute("aria-invalid", "true")

    _row(page, "Equativ").locator("[data-action=rename]").click()
    rename = page.locator("form[name=rename-value] input[name=name]")
    rename.fill("PubMatic")
    rename.press("Enter")
    expect(page.locator("form[name=rename-value] [data-field-error=name]")).to_have_text(
        "This name is already in the list.")
    screenshot(page, "metadata-admin-rename-error")
    rename.fill("Equativ SSP")
    rename.press("Enter")
    expect(_row(page, "Equativ SSP")).to_be_visible()
    expect(_row(page, "Equativ")).to_have_count(0)
    expect(page.locator("form[name=rename-value]")).to_have_count(0)

    _row(page, "Equativ SSP").locator("[data-action=retire]").click()
    expect(_row(page, "Equativ SSP")).to_have_attribute("data-retired", "true")
    expect(_row(page, "Equativ SSP").locator("[data-status]")).to_have_text("Retired")
    expect(page.locator("[data-kind=exchange] [data-count]")).to_have_text("10")
    expect(page.locator("[data-summary=exchange]")).to_have_text("10 active · 1 retired")

    _row(page, "Magnite").locator("[data-action=retire]").click()
    expect(_row(page, "Magnite")).to_have_attribute("data-retired", "true")
    _row(page, "Magnite").locator("[data-action=restore]").click()
    expect(_row(page, "Magnite")).to_have_attribute("data-retired", "false")
    screenshot(page, "metadata-admin-exchanges")

    _row(page, "Equativ SSP").locator("[data-action=delete]").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Delete this value?")
    page.click("[data-confirm=yes]")
    expect(_row(page, "Equativ SSP")).to_have_count(0)
    expect(page.locator("[data-toast-kind=success]").last).to_contain_text("“Equativ SSP” deleted.")

    add.fill("Half-typed")
    page.click("[data-kind=traffic_type]")
    panel = page.locator("[data-kind-panel=traffic_type]")
    expect(page.locator("form[name=add-value] input[name=name]")).to_have_value("")
    expect(panel.locator("tr[data-value]")).to_have_count(3)
    expect(panel).to_contain_text("Traffic types")
    page.click("[data-kind=os_version]")
    expect(_row(page, "iOS 15")).to_have_attribute("data-retired", "true")
    screenshot(page, "metadata-admin-os-versions")


def test_co_admin_shares_the_page(page: Page, lists) -> None:
    login(page, "coadmin@demo.example")
    page.click("[data-dropdown=user] button")
    expect(page.locator("[data-menu=reference-lists]")).to_have_attribute("href", "/admin/metadata")
    screenshot(page, "metadata-co-admin-user-menu")
    page.click("[data-menu=reference-lists]")
    page.wait_for_url("**/admin/metadata")
    page.click("[data-kind=carrier]")
    expect(page.locator("[data-kind-panel=carrier]")).to_be_visible()
    add = page.locator("[data-kind-panel=carrier] form[name=add-value] input[name=name]")
    add.fill("Three UK")
    add.press("Enter")
    expect(_row(page, "Three UK")).to_be_visible()
    screenshot(page, "metadata-co-admin-carriers")


def test_agency_does_not_get_the_page(page: Page, lists) -> None:
    login(page, "agency@demo.example")
    page.click("[data-dropdown=user] button")
    expect(page.locator("[data-dropdown=user] a[href='/agency/profile']")).to_be_visible()
    expect(page.locator("[data-menu=reference-lists]")).to_have_count(0)
    page.goto("/admin/metadata")
    page.wait_for_url("**/agency/dashboard")
    expect(page.locator("[data-dashboard]")).to_be_visible()
    expect(page.locator("[data-page=metadata]")).to_have_count(0)


def test_empty_list_shows_an_empty_state(page: Page, demo) -> None:
    def empty(db):
        for value in db.exec(select(ReferenceValue).where(ReferenceValue.kind == "exchange")):
            db.delete(value)
        for settings in db.exec(select(UserSettings)):
            settings.allowed_exchanges = []
            db.add(settings)
    run(empty)
    login(page, "admin@demo.example")
    page.goto("/admin/metadata")
    panel = page.locator("[data-kind-panel=exchange]")
    expect(panel.locator("[data-empty]")).to_contain_text("This list is empty")
    expect(page.locator("[data-kind=exchange] [data-count]")).to_have_text("0")
    screenshot(page, "metadata-empty")


def test_admin_sets_the_system_of_an_os_version_and_the_country_of_a_carrier(page: Page, lists) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/metadata")
    page.click("[data-kind=os_version]")
    expect(_row(page, "iOS 18").locator("[data-detail=parent_id]")).to_have_text("iOS")

    page.locator("form[name=add-value] select[name=parent_id]").select_option(label="Android")
    add = page.locator("form[name=add-value] input[name=name]")
    add.fill("Android 16")
    add.press("Enter")  # the choice and the typed name go out together, from the submit itself
    expect(page.locator("[data-toast-kind=success]").last).to_contain_text("“Android 16” added.")
    expect(_row(page, "Android 16").locator("[data-detail=parent_id]")).to_have_text("Android")

    _row(page, "iOS 18").locator("[data-action=rename]").click()
    edit = page.locator("form[name=rename-value]")
    expect(edit.locator("select[name=parent_id]")).to_have_value(str(run(
        lambda db: db.exec(select(ReferenceValue.id).where(ReferenceValue.name == "iOS")).one())))
    edit.locator("select[name=parent_id]").select_option(label="iPadOS")
    edit.locator("button[type=submit]").click()
    expect(_row(page, "iOS 18").locator("[data-detail=parent_id]")).to_have_text("iPadOS")

    page.click("[data-kind=carrier]")
    expect(_row(page, "Deutsche Telekom").locator("[data-detail=country]")).to_have_text("Germany")
    _choose(page.locator("form[name=add-value] select[name=country]"), "CH")
    page.locator("form[name=add-value] input[name=name]").fill("Swisscom")
    page.click("form[name=add-value] button[type=submit]")
    expect(_row(page, "Swisscom").locator("[data-detail=country]")).to_have_text("Switzerland")
    _row(page, "Jio").locator("[data-action=rename]").click()
    _choose(page.locator("form[name=rename-value] select[name=country]"), "")
    page.locator("form[name=rename-value] input[name=name]").press("Enter")
    expect(_row(page, "Jio").locator("[data-detail=country]")).to_have_text("—")
    screenshot(page, "metadata-admin-carriers")
    assert run(lambda db: db.exec(select(ReferenceValue.country).where(ReferenceValue.name == "Swisscom")).one()) == "CH"
