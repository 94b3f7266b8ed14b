"""The campaign list's Export CSV in a real browser, for an admin (one advertiser's list), an agency and an
advertiser: with a column hidden, a search typed and a column sorted, the downloaded file holds the rows the
grid shows, in its order, under its titles, and nothing of another tenant."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from tests.e2e.conftest import login
from tests.helpers import actor_of, other_tenant

pytestmark = pytest.mark.e2e
FLIGHT = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
          "bid_strategy": "cpm", "bid": "2"}
# Names whose text order and "as people read them" order differ (2 before 10), one paused by its switch.
OURS = ("Wave 10", "Wave 2", "Wave 1", "Calm Sea")


def _campaigns() -> None:
    def make(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        made = [campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**FLIGHT, "name": name})) for name in OURS]
        campaigns.set_status(db, actor=advertiser, campaign_id=made[1].id, status="active")
        rival_agency, rival_advertiser = other_tenant(db)
        campaigns.create_campaign(db, actor=actor_of(db, rival_agency.email), advertiser_id=rival_advertiser.id,
                                  data=CampaignUpdate.model_validate({**FLIGHT, "name": "Wave Rival"}))
    run(make)


def _grid(page: Page) -> list[list[str]]:
    """The grid's titles and its rows' cells as shown, without the selection and action columns."""
    titles = [text.strip() for text in page.locator(".dsp-grid thead th:not(.dsp-grid-check)").all_text_contents()]
    titles = titles[:-1] if titles and not titles[-1] else titles  # the actions column has no title
    rows = [[text.strip() for text in row.locator("td:not(.dsp-grid-check)").all_text_contents()][:len(titles)]
            for row in page.locator(".dsp-grid tbody tr[data-row]").all()]
    return [titles, *rows]


def _export(page: Page) -> list[list[str]]:
    with page.expect_download() as caught:
        page.click("[data-action=export]")
    path = caught.value.path()
    assert path is not None
    return list(csv.reader(io.StringIO(Path(path).read_text(encoding="utf-8-sig"))))


def _hide_search_sort(page: Page) -> None:
    """Hide the Bid column, search "wave", sort by name (A to Z)."""
    expect(page.locator(".dsp-grid tr", has_text="Wave 10")).to_be_visible()
    page.click("[data-action=choose-columns]")
    page.uncheck(".dsp-grid-columns [data-column=bid]")
    page.keyboard.press("Escape")
    page.fill(".dsp-grid-search input", "wave")
    expect(page.locator(".dsp-grid tr", has_text="Calm Sea")).to_have_count(0)
    page.locator(".dsp-grid thead th", has_text="Name").locator("button").click()
    expect(page.locator(".dsp-grid thead th[aria-sort=ascending]")).to_have_text("Name")
    # The list is searched and sorted on the server (a page at a time): the header turns at the click, the rows
    # when the server's page comes. Wait for the rows the user waits for.
    rows = page.locator(".dsp-grid tbody tr[data-row]")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Wave 1")


def _check_file(page: Page, with_advertiser: bool) -> None:
    shown = _grid(page)
    exported = _export(page)
    titles = ["Name", *(["Advertiser"] if with_advertiser else []), "Status", "On", "Starts", "Ends", "Budget"]
    assert shown[0] == titles and exported[0] == titles  # the Bid column is hidden, so left out
    assert [row[0] for row in shown[1:]] == [row[0] for row in exported[1:]] == ["Wave 1", "Wave 2", "Wave 10"]
    status = titles.index("Status")
    assert [row[status] for row in shown[1:]] == [row[status] for row in exported[1:]] == ["Draft", "Active", "Draft"]
    assert [row[titles.index("On")] for row in exported[1:]] == ["Off", "On", "Off"]  # the switch, readable
    assert {row[titles.index("Starts")] for row in exported[1:]} == {"2026-12-01"}
    assert {row[titles.index("Budget")] for row in exported[1:]} == {"1000.00"}
    if with_advertiser:
        assert {row[1] for row in exported[1:]} == {"Acme Outdoor"}


def test_an_advertiser_exports_the_list_as_shown(page: Page) -> None:
    _campaigns()
    login(page, "advertiser@demo.example")
    page.goto("/campaign")
    _hide_search_sort(page)
    _check_file(page, with_advertiser=False)


def test_an_agency_exports_its_advertisers_campaigns_as_shown(page: Page) -> None:
    _campaigns()
    login(page, "agency@demo.example")
    page.goto("/agency/campaign")
    _hide_search_sort(page)
    _check_file(page, with_advertiser=True)  # the rival agency's "Wave Rival" is absent


def test_an_admin_exports_one_advertisers_list_as_shown(page: Page, demo: dict[str, int]) -> None:
    _campaigns()
    login(page, "admin@demo.example")
    page.goto(f"/admin/CampaignList/{demo['advertiser@demo.example']}")
    _hide_search_sort(page)
    _check_file(page, with_advertiser=True)  # another advertiser's "Wave Rival" is absent
    page.goto("/admin/campaign")  # every advertiser's campaigns
    page.fill(".dsp-grid-search input", "wave")
    expect(page.locator(".dsp-grid tr", has_text="Wave Rival")).to_be_visible()
    assert sorted(row[0] for row in _export(page)[1:]) == ["Wave 1", "Wave 10", "Wave 2", "Wave Rival"]
