"""The running-apps export in a browser: the person who runs it names the file (default RunningApps.csv, spec
section 9); a name the spec's file-name rule refuses is explained under the field and nothing downloads."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


def test_the_running_apps_file_downloads_under_the_name_typed(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.goto("/report")
    name = page.locator("form[name=running-apps] input[name=file_name]")
    expect(name).to_have_value("RunningApps.csv")

    downloads: list[str] = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    name.fill("xmas apps.csv")
    page.click("[data-action=running-apps]")
    expect(page.locator("[data-field-error=file_name]")).to_have_text(
        "File names use letters, digits, _ and - with single spaces, an extension, and may not start with x.")
    expect(name).to_have_attribute("aria-invalid", "true")
    screenshot(page, "running-apps-bad-name")

    name.fill("Holiday apps 2026.csv")
    with page.expect_download() as caught:
        page.click("[data-action=running-apps]")
    assert caught.value.suggested_filename == "Holiday apps 2026.csv"
    expect(page.locator("[data-field-error=file_name]")).to_have_count(0)
    assert downloads == ["Holiday apps 2026.csv"]  # the refused name started no download
    screenshot(page, "running-apps-named")
