"""The dashboard in a browser: what it costs to load, and the figures a user sees."""

from __future__ import annotations

import gzip

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e

JS_BUDGET_GZIPPED = 150 * 1024  # issue 10: a dashboard loads at most 150 KB of gzipped JavaScript in all


def test_a_dashboard_loads_at_most_150_kb_of_gzipped_javascript(page: Page) -> None:
    login(page, "advertiser@demo.example")
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.reload()  # every script of the dashboard, from the start
    expect(page.locator("[data-dashboard=classic][data-loading=false]")).to_be_visible()
    page.get_by_role("button", name="Insight360").click()
    expect(page.locator("[data-dashboard=insight360][data-loading=false]")).to_be_visible()
    expect(page.locator(".dsp-chart")).to_be_visible()
    # Sizes as a gzip-compressing server sends them (the app gzips its responses).
    loaded = {url: len(gzip.compress(page.request.get(url).body(), 6)) for url in set(scripts)}
    assert any("/static/js/chart-" in url for url in loaded), loaded  # the chart is among them
    assert sum(loaded.values()) <= JS_BUDGET_GZIPPED, loaded
