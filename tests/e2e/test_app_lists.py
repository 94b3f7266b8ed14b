"""Inventory and smart-app lists in a real browser: an advertiser creates an inventory list, uploads a CSV with a
bad line over HTTP and reads the per-line result, renames the list and archives it; an admin builds a smart-app
list through the cascading category → genre → subgenre pickers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-toast-kind=success]", has_text=text).first).to_be_visible()


def test_an_advertiser_builds_uploads_edits_and_archives_an_inventory_list(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.click(".dsp-sidebar a[href='/inventory-list']")
    expect(page.locator("[data-page=inventory-lists] h1")).to_have_text("Inventory lists")
    screenshot(page, "inventory-lists-advertiser")
    page.click("[data-action=new-list]")
    expect(page.locator("[data-page=inventory-list-create]")).to_be_visible()
    page.fill("#field-name", "Premium news")
    page.fill("#field-entries", "news.example.com\ncom.example.reader")
    screenshot(page, "inventory-list-create")
    page.click("[data-action=create-list]")
    _toast(page, "List created: Premium news")
    expect(page.locator("[data-result=entries] [data-count=added]")).to_have_text("2 added")
    page.click("[data-action='applist.edit']")
    expect(page.locator("[data-page=inventory-list-edit]")).to_be_visible()

    csv = b"bundle_id\ncom.example.game\nid389801252\nthis is not valid\nnews.example.com\ncom.example.game\n"
    page.set_input_files("[data-file-input=entries_csv]",
                         files=[{"name": "apps.csv", "mimeType": "text/csv", "buffer": csv}])
    result = page.locator("[data-result=entries]")
    expect(result.locator("[data-count=added]")).to_have_text("2 added")
    expect(result.locator("[data-count=duplicates_in_batch]")).to_have_text("1 repeated in the file")
    expect(result.locator("[data-count=already_in_list]")).to_have_text("1 already in the list")
    expect(result.locator("[data-line='4']")).to_contain_text("this is not valid")
    expect(result.locator("[data-line='4']")).to_contain_text("Not an app id")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "4")
    screenshot(page, "inventory-list-upload-result")

    bad = page.locator("[data-file-input=entries_csv]")
    bad.set_input_files(files=[{"name": "sheet.xlsx", "mimeType": "application/octet-stream",
                                "buffer": b"PK\x03\x04\x00\x00binary"}])
    expect(page.locator("[data-upload-error]")).to_contain_text("not CSV text")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "4")

    page.fill("#field-name", "Premium news sites")
    page.click("[data-action=save-list]")
    _toast(page, "Saved Premium news sites")
    page.click("[data-move=archive]")
    page.click("[data-confirm=yes]")
    _toast(page, "Premium news sites is archived")
    expect(page.locator("[data-state=archived]")).to_be_visible()
    page.click("[data-tab='applist.view']")
    expect(page.locator("[data-page=inventory-list-view]")).to_contain_text("com.example.reader")
    screenshot(page, "inventory-list-view")


def test_an_admin_builds_a_smart_app_list(page: Page) -> None:
    login(page, "admin@demo.example")
    page.click(".dsp-sidebar a[href='/admin/smart-apps']")
    expect(page.locator("[data-page=smart-apps] h1")).to_have_text("Smart-app lists")
    page.click("[data-action=new-smart-list]")
    page.fill("#field-name", "Action games")
    page.select_option("#field-category_id", "36")
    expect(page.locator("#field-genre_id option[value='6014']")).to_have_count(1)
    page.select_option("#field-genre_id", "6014")
    expect(page.locator("#field-subgenre_id option[value='7001']")).to_have_text("Action")
    # Playwright's select_option never finds this third select "enabled" (the first two work); the keyboard,
    # as a person would use it, picks the first subgenre.
    page.focus("#field-subgenre_id")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#field-subgenre_id")).to_have_value("7001")
    page.fill("#field-entries", "com.example.shooter\nid389801252")
    screenshot(page, "smart-app-create")
    page.click("[data-action=create-smart-list]")
    _toast(page, "List created: Action games")
    page.click("[data-action='smartapp.view']")
    expect(page.locator("[data-page=smart-app-view]")).to_contain_text("Apple App Store › Games › Action")
    expect(page.locator("[data-total]")).to_have_attribute("data-total", "2")
    screenshot(page, "smart-app-view")

    # The edit page shows the saved taxonomy (its options arrive after the page), and a save that only renames
    # keeps it: nothing the user did not touch changes.
    page.click("[data-tab='smartapp.edit']")
    expect(page.locator("#field-subgenre_id option[value='7001']")).to_have_count(1)
    expect(page.locator("#field-category_id")).to_have_value("36")
    expect(page.locator("#field-genre_id")).to_have_value("6014")
    expect(page.locator("#field-subgenre_id")).to_have_value("7001")
    page.fill("#field-name", "Action games iOS")
    page.click("[data-action=save-list]")
    _toast(page, "Action games iOS")
    page.click("[data-tab='smartapp.view']")
    expect(page.locator("[data-page=smart-app-view]")).to_contain_text("Apple App Store › Games › Action")


def test_a_long_lists_entries_page_on_the_server_and_search_there(page: Page) -> None:
    from app.kernel.db import run
    from app.supply import app_lists
    from tests.helpers import actor_of

    values = [f"site{n:03d}.example.com" for n in range(130)]
    made = run(lambda db: app_lists.create_list(db, actor=actor_of(db, "advertiser@demo.example"), name="Long list",
                                                kind="allow", entries="\n".join(values)))
    login(page, "advertiser@demo.example")
    page.goto(f"/inventory-list/view/{made.list.id}")
    grid = page.locator("[data-page=inventory-list-view] .dsp-grid")
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 130")  # the total, counted on the server
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 1 of 2")
    expect(grid.locator("tbody tr[data-row]").first).to_contain_text("site000.example.com")
    grid.locator("[data-action=next-page]").click()
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 2 of 2")
    expect(grid.locator("tbody tr[data-row]").first).to_contain_text("site100.example.com")
    expect(grid.locator("[data-action=next-page]")).to_be_disabled()
    screenshot(page, "inventory-list-entries-page-2")
    grid.locator("[data-action=previous-page]").click()
    expect(grid.locator("tbody tr[data-row]").first).to_contain_text("site000.example.com")
    page.fill(".dsp-grid-search input", "site12")  # searched in SQL, from the first page
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 10")
    expect(grid.locator(".dsp-grid-pager")).to_have_count(0)
