"""Campaigns in a real browser: an advertiser creates one (a field error keeps what was typed), edits it,
clones it and archives the clone; an agency and an admin find it in their lists."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot
from tests.helpers import actor_of
from tests.test_campaign_pages import SETTINGS
from tests.test_campaign_rules import end_flight

pytestmark = pytest.mark.e2e
VIEW = re.compile(r"/campaign/(\d+)/$")


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-toast-kind=success]", has_text=text)).to_be_visible()


def _pick(page: Page, picker: str, typed: str, option: str) -> None:
    page.fill(f"[data-picker={picker}] input", typed)
    page.click(f"[data-picker={picker}] [data-option='{option}']")
    expect(page.locator(f"[data-picker={picker}] [data-chip='{option}']")).to_be_visible()


def test_an_advertiser_creates_edits_clones_and_archives_a_campaign(page: Page) -> None:
    login(page, "advertiser@demo.example")
    page.click(".dsp-sidebar a[href='/campaign']")
    expect(page.locator("[data-page=campaigns] h1")).to_have_text("Campaigns")
    page.click("[data-action=new-campaign]")
    page.wait_for_url("**/campaignForm")
    page.fill("#field-name", "Winter Launch")
    page.select_option("#field-objective", "conversions")
    page.fill("#field-starts_at", "2026-12-01")
    page.fill("#field-total_budget", "5000")
    _pick(page, "countries", "germ", "DE")
    _pick(page, "regions", "bay", "DE-BY")
    page.click("[data-preset=business]")
    expect(page.locator("[data-summary-row=schedule]")).to_contain_text("60 hours a week")
    page.click("[data-action=save-campaign]")
    expect(page.locator("[data-field-error=bid]")).to_have_text("Enter an amount, e.g. 2.50.")
    expect(page.locator("#field-name")).to_have_value("Winter Launch")  # nothing typed is lost
    expect(page.locator("[data-picker=regions] [data-chip='DE-BY']")).to_be_visible()
    screenshot(page, "campaign-form-error")
    page.fill("#field-bid", "2.40")
    expect(page.locator("[data-summary-row=bid]")).to_contain_text("$2.40")
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    _toast(page, "Winter Launch was created as a draft.")
    expect(page.locator("[data-page=campaign-view]")).to_contain_text("Bayern (DE)")
    expect(page.locator("[data-status=draft]")).to_be_visible()
    screenshot(page, "campaign-view")

    page.click("[data-move=active]")
    expect(page.locator("[data-status=active]")).to_be_visible()
    page.click("[data-tab='campaign.edit']")
    page.wait_for_url("**/campaignEditForm/*")
    expect(page.locator("#field-name")).to_have_value("Winter Launch")
    page.fill("#field-daily_budget", "1e3")  # was saved as $1,000.00
    expect(page.locator("[data-summary-row=budget]")).not_to_contain_text("1,000")
    page.click("[data-action=save-campaign]")
    expect(page.locator("[data-field-error=daily_budget]")).to_have_text(
        "Write the amount out in full, e.g. 1000 rather than 1e3.")
    page.fill("#field-daily_budget", "6,000")
    page.click("[data-action=save-campaign]")
    expect(page.locator("[data-field-error=daily_budget]")).to_have_text(
        "The daily budget cannot exceed the total budget.")
    page.fill("#field-daily_budget", "250")
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    _toast(page, "Winter Launch was saved.")
    expect(page.locator("[data-page=campaign-view]")).to_contain_text("$250.00")

    page.click("[data-tab='campaign.clone']")
    page.wait_for_url("**/campaignClone/*")
    expect(page.locator("#field-name")).to_have_value("Winter Launch copy")
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    _toast(page, "Winter Launch copy was created as a draft.")
    # The clone form has the same tabs: click the view's, once it is drawn (the form's tab is gone by then, and a
    # click on it in between would be ignored by the server: its handler unmounted with the form).
    expect(page.locator("[data-page=campaign-view] h1")).to_contain_text("Winter Launch copy")

    page.click("[data-tab='campaign.change_log']")
    expect(page.locator("[data-action=create]")).to_be_visible()
    page.goto("/campaign")
    grid = page.locator("[data-page=campaigns] .dsp-grid")
    expect(grid.locator("tbody tr")).to_have_count(2)
    grid.locator("tr", has_text="Winter Launch copy").locator("[data-action=more]").click()
    page.click(".dsp-grid-menu [data-action=archive]")
    page.click("[data-confirm=yes]")
    _toast(page, "Winter Launch copy is archived.")
    expect(grid.locator("tbody tr")).to_have_count(1)
    screenshot(page, "campaign-list")


def test_the_status_switch_pauses_and_resumes_from_the_list(page: Page) -> None:
    run(lambda db: campaigns.set_status(db, actor=actor_of(db, "advertiser@demo.example"), status="active",
                                        campaign_id=campaigns.create_campaign(
                                            db, actor=actor_of(db, "advertiser@demo.example"), data=CampaignUpdate.model_validate(SETTINGS)).id))
    login(page, "advertiser@demo.example")
    page.goto("/campaign")
    row = page.locator(".dsp-grid tr", has_text="Autumn Push")
    expect(row.locator("[data-action=toggle_active]")).to_be_checked()
    row.locator("[data-action=toggle_active]").click()
    _toast(page, "Autumn Push is paused.")
    expect(row.locator("[data-status], .badge", has_text="Paused")).to_be_visible()
    expect(row.locator("[data-action=toggle_active]")).not_to_be_checked()


def test_an_agency_and_an_admin_find_the_advertisers_campaign(page: Page) -> None:
    run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"), data=CampaignUpdate.model_validate(SETTINGS)))
    login(page, "agency@demo.example")
    page.click(".dsp-sidebar a[href='/agency/campaign']")
    row = page.locator(".dsp-grid tr", has_text="Autumn Push")
    expect(row).to_contain_text("Acme Outdoor")
    screenshot(page, "agency-campaign-list")
    row.click()
    page.wait_for_url("**/agency/campaign/viewCampaign/*")
    expect(page.locator("[data-tab='campaign.clone']")).to_have_count(1)  # issue 39: the agency seat clones itself
    page.context.clear_cookies()
    login(page, "admin@demo.example")
    page.goto("/admin/campaign")
    expect(page.locator(".dsp-grid tr", has_text="Autumn Push")).to_be_visible()
    screenshot(page, "admin-campaign-list")


def _three_campaigns() -> None:
    def make(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        for name, bid in (("North Wave", "1.75"), ("South Wave", "2.10"), ("East Wave", "1.75")):
            campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**SETTINGS, "name": name, "bid": bid}))
    run(make)


def test_a_bulk_edit_applies_or_refuses_each_selected_campaign(page: Page) -> None:
    _three_campaigns()
    login(page, "advertiser@demo.example")
    page.goto("/campaign")
    grid = page.locator(".dsp-grid")
    for name in ("North Wave", "South Wave"):
        grid.locator("tr", has_text=name).locator("input[data-select]").check()
    expect(page.locator("[data-selection]")).to_have_attribute("data-selection", "2")
    page.click("[data-bulk='campaign.bulk_edit']")
    page.wait_for_url("**/bulk-campaign-edit?ids=*")
    expect(page.locator("[data-action=apply-bulk]")).to_have_text("Apply to 2 selected")
    page.click("[data-group=bids] input[type=checkbox]")
    expect(page.locator("[data-group=bids] input[type=checkbox]")).to_be_checked()
    page.fill("#field-bid_min", "2")
    page.fill("#field-bid_max", "3")
    page.click("[data-action=apply-bulk]")
    results = page.locator("[data-results]")
    expect(results).to_have_attribute("data-results", "1/2")
    expect(page.locator("[data-result=refused]")).to_contain_text("North Wave")
    expect(page.locator("[data-result=refused]")).to_contain_text("the lowest bid cannot be above the bid")
    expect(page.locator("[data-result=ok]")).to_contain_text("South Wave")
    screenshot(page, "campaign-bulk-edit")


def test_a_bulk_edit_changes_the_bid_of_two_campaigns_and_refuses_the_one_whose_highest_bid_is_lower(
        page: Page) -> None:
    def make(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        return [campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**SETTINGS, "name": name, "bid_max": cap})).id
                for name, cap in (("Tight Cap", "2.00"), ("Open Cap", "10"))]
    tight, open_cap = run(make)
    login(page, "advertiser@demo.example")
    page.goto(f"/bulk-campaign-edit?ids={tight},{open_cap}")
    expect(page.locator("[data-action=apply-bulk]")).to_have_text("Apply to 2 selected")
    page.click("[data-group=bids] input[type=checkbox]")
    page.fill("#field-bid", "2.50")  # the lowest and highest bid stay empty: each campaign keeps its own
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "1/2")
    refused = page.locator("[data-result=refused]")
    expect(refused).to_contain_text("Tight Cap")
    expect(refused).to_contain_text("Bid: the bid cannot exceed the highest bid.")
    expect(page.locator("[data-result=ok]")).to_contain_text("Open Cap")
    screenshot(page, "campaign-bulk-bid")
    saved = run(lambda db: [campaigns.get_campaign(db, actor=actor_of(db, "advertiser@demo.example"), campaign_id=i)
                            for i in (tight, open_cap)])
    assert [(c.bid, c.bid_max) for c in saved] == [("1.75", "2.00"), ("2.50", "10.00")]


def test_an_admin_pauses_campaigns_in_bulk_and_an_agency_has_no_such_page(page: Page) -> None:
    _three_campaigns()
    run(lambda db: [campaigns.set_status(db, actor=actor_of(db, "advertiser@demo.example"), campaign_id=row.id,
                                         status="active")
                    for row in campaigns.list_campaigns(db, actor=actor_of(db, "advertiser@demo.example"))])
    login(page, "admin@demo.example")
    page.goto("/admin/campaign")
    page.locator(".dsp-grid thead input[data-select=all]").check()
    page.click("[data-bulk='campaign.bulk_status']")
    page.wait_for_url("**/admin/bulk-campaign-status?ids=*")
    page.select_option("#field-status", "paused")
    page.click("[data-action=apply-bulk]")
    expect(page.locator("[data-results]")).to_have_attribute("data-results", "3/3")
    expect(page.locator(".dsp-grid .badge", has_text="Paused")).to_have_count(3)
    screenshot(page, "admin-bulk-status")
    page.context.clear_cookies()
    login(page, "agency@demo.example")
    page.goto("/agency/campaign")
    expect(page.locator("[data-bulk]")).to_have_count(0)
    expect(page.locator(".dsp-grid input[data-select]")).to_have_count(0)


def test_the_campaign_form_chooses_the_creatives_it_shows(page: Page) -> None:
    def prepare(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
        creative = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "html", "name": "Tall Box", "html": "<p>hi</p>", "width": 160, "height": 600}))
        return campaign.id, creative.id

    campaign_id, creative_id = run(prepare)
    login(page, "advertiser@demo.example")
    page.goto(f"/campaignEditForm/{campaign_id}")
    box = page.locator(f"[data-section=creatives] #creative_ids-{creative_id}")
    expect(box).not_to_be_checked()
    box.click()  # the server owns the box's state: a click, then wait for the render that says so
    expect(box).to_be_checked()
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    _toast(page, "Autumn Push was saved.")
    expect(page.locator(f"#campaign_creatives-{creative_id}")).to_be_checked()
    page.click("[data-tab='campaign.clone']")
    expect(page.locator(f"[data-section=creatives] #creative_ids-{creative_id}")).to_be_checked()  # a clone keeps them


def _campaign_with_boxes(db: Any, *, shown: tuple[str, ...], archived: str = "") -> tuple[int, list[int]]:
    """The advertiser's campaign (SETTINGS) and its html creatives "Tall Box" and "Wide Box": (campaign id, their
    ids); the campaign shows those named in `shown`, and the one named `archived` is then archived."""
    advertiser = actor_of(db, "advertiser@demo.example")
    campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
    made = {name: creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
        "type": "html", "name": name, "html": "<p>hi</p>", "width": 160, "height": 600})).id
        for name in ("Tall Box", "Wide Box")}
    creatives.set_campaign_creatives(db, actor=advertiser, campaign_id=campaign.id,
                                     creative_ids=[made[name] for name in shown])
    if archived:
        creatives.archive_creative(db, actor=advertiser, creative_id=made[archived])
    return campaign.id, list(made.values())


def test_a_campaign_save_whose_creative_is_refused_saves_nothing(page: Page) -> None:
    """A campaign save is one unit of work: when a creative chosen in the form was archived after the form
    loaded, the save is refused on the creatives and neither the edit's new name nor a clone is saved."""
    def archive(creative_id: int) -> None:
        run(lambda db: creatives.archive_creative(db, actor=actor_of(db, "advertiser@demo.example"),
                                                  creative_id=creative_id))

    def names() -> list[str]:
        return run(lambda db: sorted(c.name for c in campaigns.list_campaigns(
            db, actor=actor_of(db, "advertiser@demo.example"))))

    campaign_id, (tall, wide) = run(lambda db: _campaign_with_boxes(db, shown=("Wide Box",)))
    login(page, "advertiser@demo.example")
    page.goto(f"/campaignEditForm/{campaign_id}")
    page.fill("#field-name", "Winter Push")
    box = page.locator(f"[data-section=creatives] #creative_ids-{tall}")
    expect(box).not_to_be_checked(timeout=15_000)  # the pickers' data is in
    box.click()
    expect(box).to_be_checked()
    archive(tall)  # someone archives it while the form is open
    page.click("[data-action=save-campaign]")
    expect(page.locator("[data-field-error=creative_ids]")).to_have_text("Tall Box is archived.")
    expect(page.locator("#field-name")).to_have_value("Winter Push")  # nothing typed is lost
    assert names() == ["Autumn Push"]  # and the new name was not saved without its creatives

    page.goto(f"/campaignClone/{campaign_id}")
    # The form is the heaviest page: on a busy machine its pickers' data can take a while.
    expect(page.locator(f"[data-section=creatives] #creative_ids-{wide}")).to_be_checked(timeout=15_000)  # kept
    archive(wide)
    page.click("[data-action=save-campaign]")
    expect(page.locator("[data-field-error=creative_ids]")).to_have_text("Wide Box is archived.")
    assert names() == ["Autumn Push"]  # no clone without its creatives


def test_a_clone_leaves_out_the_originals_archived_creatives(page: Page) -> None:
    """The clone page starts from the original's creatives, less the archived ones (an archived creative takes no
    new campaign, and the picker does not offer it to untick): the clone saves with the others and names the one
    it left out."""
    campaign_id, (_tall, wide) = run(lambda db: _campaign_with_boxes(db, shown=("Tall Box", "Wide Box"),
                                                                     archived="Tall Box"))
    login(page, "advertiser@demo.example")
    page.goto(f"/campaignClone/{campaign_id}")
    expect(page.locator("[data-note=left-out]")).to_contain_text("Tall Box", timeout=15_000)
    expect(page.locator(f"[data-section=creatives] #creative_ids-{wide}")).to_be_checked(timeout=15_000)
    page.click("[data-action=save-campaign]")
    page.wait_for_url(VIEW)
    _toast(page, "Autumn Push copy was created as a draft.")
    clone_id = int(VIEW.search(page.url)[1])  # type: ignore[index]
    shown = run(lambda db: creatives.campaign_creatives(db, actor=actor_of(db, "advertiser@demo.example"),
                                                        campaign_id=clone_id))
    assert [c.id for c in shown] == [wide]


def test_the_agency_list_shows_flight_dates_whole(page: Page) -> None:
    """With the advertiser column the agency's list cut its dates at 1366 px ("Nov 25, 20…")."""
    run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                             data=CampaignUpdate.model_validate({**SETTINGS, "name": "Wide Dates", "starts_at": "2026-11-25T09:00",
                                                   "ends_at": "2026-12-24T09:00"})))
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, "agency@demo.example")
    page.goto("/agency/campaign")
    row = page.locator(".dsp-grid tr", has_text="Wide Dates")
    for day in ("Nov 25, 2026", "Dec 24, 2026"):
        cell = row.locator(f"td[title='{day}']")
        expect(cell).to_be_visible()
        assert cell.evaluate("cell => cell.scrollWidth <= cell.clientWidth"), f"{day} is cut off"


def test_an_ended_flight_shows_a_badge_with_an_edge_in_the_list(page: Page) -> None:
    """The "Ended" badge is Bootstrap's light one: on the white list it read as loose text until it had a border."""
    def ended(db):
        made = campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"),
                                         data=CampaignUpdate.model_validate({**SETTINGS, "name": "Long Over"}))
        end_flight(db, made.id)
    run(ended)
    login(page, "advertiser@demo.example")
    page.goto("/campaign")
    badge = page.locator(".dsp-grid tr", has_text="Long Over").locator(".badge", has_text="Ended")
    expect(badge).to_be_visible()
    assert badge.evaluate("b => getComputedStyle(b).borderTopStyle") == "solid"


def test_the_row_buttons_stay_in_view_when_the_list_is_wider_than_its_card(page: Page) -> None:
    """At 1366 px the admin's list (with the advertiser column) is wider than its card: the row buttons were scrolled
    off its right edge; they stay at that edge, over what scrolls beneath."""
    _three_campaigns()
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, "admin@demo.example")
    page.goto("/admin/campaign")
    row = page.locator(".dsp-grid tr", has_text="North Wave")
    edit = row.locator("[data-action='campaign.edit']")
    expect(edit).to_be_visible()
    scroller = page.locator(".dsp-grid-scroll").bounding_box()
    button = edit.bounding_box()
    assert scroller is not None and button is not None
    assert button["x"] + button["width"] <= scroller["x"] + scroller["width"], "the edit button is scrolled off"


def test_the_bulk_edit_grid_fits_beside_its_changes_panel(page: Page) -> None:
    """At 1366 px the bulk edit's grid was wider than its card: the bids, the figures the page is about, were cut."""
    _three_campaigns()
    page.set_viewport_size({"width": 1366, "height": 900})
    login(page, "advertiser@demo.example")
    page.goto("/bulk-campaign-edit")
    expect(page.locator(".dsp-grid tr", has_text="North Wave")).to_be_visible()
    assert page.locator(".dsp-grid-scroll").evaluate("s => s.scrollWidth <= s.clientWidth"), "the grid scrolls sideways"


def _many_campaigns() -> None:
    """60 paused campaigns (Lot 01 to Lot 60) and 5 drafts of the demo advertiser, written in one insert."""
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from app.campaigns.models import Campaign

    def make(db):
        advertiser_id = actor_of(db, "advertiser@demo.example").id
        now = datetime.now(UTC)
        names = [(f"Lot {n:02d}", "paused") for n in range(1, 61)] + [(f"Other {n}", "draft") for n in range(1, 6)]
        db.execute(insert(Campaign), [{
            "advertiser_id": advertiser_id, "name": name, "objective": "traffic", "status": status, "starts_at": now,
            "ends_at": None, "time_zone": "UTC", "total_budget_micros": 1_000_000_000, "daily_budget_micros": None,
            "pacing": "even", "bid_strategy": "cpm", "bid_micros": 2_000_000, "traffic_type": "app",
            "goal_metric": "none", "goal_target": "", "targeting": {}, "created_at": now, "updated_at": now}
            for name, status in names])
    run(make)


def test_the_list_pages_on_the_server_with_a_filter_and_a_sort(page: Page) -> None:
    _many_campaigns()
    login(page, "advertiser@demo.example")
    page.goto("/campaign")
    grid = page.locator("[data-page=campaigns] .dsp-grid")
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 65")
    page.select_option("#field-status_filter", "paused")
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 60")  # the total, counted on the server
    grid.locator("thead th", has_text="Name").locator("button").click()
    expect(grid.locator("tbody tr[data-row]").first).to_contain_text("Lot 01")
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 1 of 2")
    # The table says it is waiting from the click until the server's page arrives, and not a moment after. The
    # mark is set in the click's own render, before any answer can come, so an observer always sees it.
    page.evaluate("""() => { const scroll = document.querySelector('[data-page=campaigns] .dsp-grid-scroll');
        window.busyMarks = []; new MutationObserver(() => window.busyMarks.push(scroll.getAttribute('aria-busy')))
        .observe(scroll, { attributes: true, attributeFilter: ['aria-busy'] }); }""")
    grid.locator("[data-action=next-page]").click()
    expect(grid.locator(".dsp-grid-pager")).to_contain_text("Page 2 of 2")
    expect(grid.locator(".dsp-grid-scroll")).not_to_have_attribute("aria-busy", "true")
    assert page.evaluate("window.busyMarks")[:2] == ["true", None]
    names = [f"Lot {n}" for n in range(51, 61)]
    expect(grid.locator("tbody tr[data-row] td:nth-child(2)")).to_have_text(names)
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 60")
    expect(grid.locator("[data-action=next-page]")).to_be_disabled()
    screenshot(page, "campaign-list-page-2")
    page.fill(".dsp-grid-search input", "lot 5")  # a new search starts again from its first page
    expect(grid.locator(".dsp-grid-count")).to_have_text("Rows: 15")
    expect(grid.locator(".dsp-grid-pager")).to_have_count(0)
