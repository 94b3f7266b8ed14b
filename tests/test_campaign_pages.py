"""The campaign pages rendered as the app renders them (the real Root at a real path, signed in): what each
role sees of a campaign, and that another tenant's campaign shows as not found."""

from __future__ import annotations

from typing import Any

from reactpy.core.hooks import ConnectionContext
from reactpy.core.layout import Layout
from reactpy.types import Connection, Location

from app.access.sessions import SESSION_COOKIE
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from components.root import Root
from tests.helpers import actor_of, browser_session, other_tenant
from tests.render import run_async, settle, text_of, walk

SETTINGS: dict[str, Any] = {
    "name": "Autumn Push", "objective": "traffic", "starts_at": "2026-12-01T09:00", "ends_at": "2026-12-31T23:00",
    "time_zone": "Europe/Berlin", "total_budget": "1200", "daily_budget": "40", "bid": "1.75", "bid_strategy": "cpc",
    "targeting": {"countries": ["DE", "AT"], "languages": ["de"], "dayparting": [[9, 10], [], [], [], [], [], []]},
}


def page_at(path: str, email: str) -> dict[str, Any]:
    cookie = f"{SESSION_COOKIE}={browser_session(email)[0]}"
    connection = Connection(scope={"type": "websocket", "headers": [(b"cookie", cookie.encode())]},
                            location=Location(path, ""), carrier=None)

    async def first_render() -> dict[str, Any]:
        async with Layout(ConnectionContext(Root(), value=connection)) as layout:
            return await settle(layout, (await layout.render())["model"])

    return run_async(first_render())


def attribute_values(model: dict[str, Any], name: str) -> list[str]:
    return [node["attributes"][name] for node in walk(model) if name in node.get("attributes", {})]


def _create(email: str = "advertiser@demo.example", **changes: Any) -> dict[str, Any]:
    return run(lambda db: campaigns.create_campaign(db, actor=actor_of(db, email), data=CampaignUpdate.model_validate({**SETTINGS, **changes})))


def test_the_overview_reads_like_a_media_plan(demo_ids):
    campaign = _create()
    model = page_at(f"/campaign/{campaign.id}/", "advertiser@demo.example")
    text = text_of(model)
    assert "campaign-view" in attribute_values(model, "data-page")
    for shown in ("Autumn Push", "Draft", "Traffic", "2026-12-01 09:00", "Europe/Berlin", "$1,200.00", "$40.00",
                  "$1.75 CPC (per click)", "Austria, Germany", "German", "Mon 09:00–11:00"):
        assert shown in text, shown
    assert attribute_values(model, "data-move") == ["active", "archived"]  # a draft can only start or be archived
    assert attribute_values(model, "data-tab") == ["campaign.view", "campaign.edit", "campaign.clone",
                                                   "campaign.change_log"]


def test_an_agency_sees_its_advertisers_campaign_and_may_clone_it(demo_ids):
    campaign = _create()
    model = page_at(f"/agency/campaign/viewCampaign/{campaign.id}", "agency@demo.example")
    assert "Autumn Push" in text_of(model)
    assert attribute_values(model, "data-tab") == ["campaign.view", "campaign.edit", "campaign.clone",
                                                   "campaign.creatives", "campaign.change_log"]


def test_another_agencys_campaign_is_not_found_on_every_page(demo_ids):
    campaign = _create()
    run(lambda db: other_tenant(db))
    for path in (f"/agency/campaign/viewCampaign/{campaign.id}", f"/agency/campaignEditForm/{campaign.id}",
                 f"/agency/campaign/changelog/{campaign.id}"):
        model = page_at(path, "rival-agency@other.example")
        assert attribute_values(model, "data-state") == ["not-found"], path
        assert "Autumn Push" not in text_of(model)


def _column_of(model: dict[str, Any], field_id: str) -> str:
    """The grid column class around the form field with this id (the innermost "col-..." around it)."""
    def search(node: Any, column: str) -> str | None:
        if not isinstance(node, dict):
            return None
        classes = str(node.get("attributes", {}).get("className", ""))
        column = next((c for c in classes.split() if c.startswith("col-")), column)
        if node.get("attributes", {}).get("id") == field_id:
            return column
        return next((found for child in node.get("children", []) if (found := search(child, column))), None)
    found = search(model, "")
    assert found is not None, field_id
    return found


def test_the_overview_reads_the_schedule_as_spans_and_the_goal_target_in_its_unit(demo_ids):
    """A Monday-to-Friday office-hours schedule reads as one line, not sixty hours listed one by one; a CPA
    target reads as money, a CTR target as a percentage."""
    office = [list(range(8, 20))] * 5 + [[], [10, 11]]
    cpa = _create(goal_metric="cpa", goal_target="18", targeting={**SETTINGS["targeting"], "dayparting": office})
    text = text_of(page_at(f"/campaign/{cpa.id}/", "advertiser@demo.example"))
    assert "Mon–Fri 08:00–20:00; Sun 10:00–12:00" in text
    assert "Mon 8, 9, 10" not in text
    assert "Cost per action (CPA) · $18.00" in text
    ctr = _create(name="Click Push", goal_metric="ctr", goal_target="1.5")
    assert "Click-through rate (CTR) · 1.5%" in text_of(page_at(f"/campaign/{ctr.id}/", "advertiser@demo.example"))


def test_the_forms_summary_shows_units_in_values_not_in_labels(demo_ids):
    campaign = _create(goal_metric="cpi", goal_target="2.5")
    model = page_at(f"/campaignEditForm/{campaign.id}", "advertiser@demo.example")
    summary = next(node for node in walk(model) if "data-summary" in node.get("attributes", {}))
    text = text_of(summary)
    assert "Cost per install (CPI) · $2.50" in text
    assert "($)" not in text  # "Total budget", "Bid": the amounts carry the dollar sign


def test_the_form_gives_dates_and_long_choices_room_to_show_whole(demo_ids):
    """At 1366 px a third of the form's row cut the date-time inputs ("09:00 A") and the pacing and goal
    choices ("Even through the da"): they take half a row."""
    campaign = _create()
    model = page_at(f"/campaignEditForm/{campaign.id}", "advertiser@demo.example")
    for field in ("starts_at", "ends_at", "time_zone", "pacing", "goal_metric", "goal_target"):
        assert _column_of(model, f"field-{field}") == "col-md-6", field
