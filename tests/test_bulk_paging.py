"""The bulk pages' grid pages on the server (the list's reader, one page of 50) and the selection outlives a page:
campaigns chosen on page 1 and on page 2 are all changed by Apply; the ids the list page sent start as the only
rows shown ("selected only") even when they sort onto another page; another tenant's rows never appear."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlmodel import Session, select

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives.models import Creative
from components.campaigns.bulk_edit import BulkCampaignEditPage
from components.creatives.bulk_edit import BulkCreativeStatusPage
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.render import (
    attribute_of,
    deliver_in_turn,
    element_event,
    grid_choice,
    grid_view,
    paged_grid,
    signed_in_console,
    to_page,
)

ADVERTISER = "advertiser@demo.example"
ADMIN = "admin@demo.example"
Event = Callable[[dict[str, Any]], tuple[str, list[Any]]]
SETTINGS: dict[str, Any] = {"objective": "traffic", "starts_at": "2026-12-01T09:00", "ends_at": "2026-12-31T23:00",
                            "time_zone": "UTC", "total_budget": "1200", "daily_budget": "40", "bid": "1.75",
                            "bid_strategy": "cpc"}


def _names(model: dict[str, Any]) -> list[str]:
    return [row["name"] for row in paged_grid(model)["rows"]]


def _by_name(model: dict[str, Any]) -> tuple[str, list[Any]]:
    return grid_view(sort="name")(model)


def _switch(element_id: str, on: bool) -> Event:
    return element_event("id", element_id, "onChange", {"target": {"checked": on}})


_APPLY = element_event("data-action", "apply-bulk", "onClick", {})


def _campaigns(db: Session) -> dict[str, int]:
    """Wave 01..Wave 55 of the demo advertiser (three of them running) and a rival tenant's campaign; their ids."""
    advertiser = actor_of(db, ADVERTISER)
    made = {}
    for n in range(1, 56):
        name = f"Wave {n:02d}"
        made[name] = campaigns.create_campaign(db, actor=advertiser,
                                               data=CampaignUpdate.model_validate({**SETTINGS, "name": name})).id
    for name in ("Wave 02", "Wave 30", "Wave 54"):
        campaigns.set_status(db, actor=advertiser, campaign_id=made[name], status="active")
    _agency, rival = other_tenant(db)
    campaigns.create_campaign(db, actor=actor_of(db, rival.email),
                              data=CampaignUpdate.model_validate({**SETTINGS, "name": "Wave 00 rival"}))
    db.commit()
    return made


def test_a_status_change_reaches_the_campaigns_chosen_on_two_pages(db: Session) -> None:
    made = _campaigns(db)
    chosen = (made["Wave 02"], made["Wave 54"])
    by_name, _chosen, page_2, *_rest, applied = deliver_in_turn(
        BulkCampaignEditPage, signed_in_console(ADVERTISER), "/bulk-campaign-edit",
        (_by_name, grid_choice(chosen[0]), to_page(2), grid_choice(*chosen),
         _switch("field-change-status", True), _APPLY))
    assert _names(by_name) == [f"Wave {n:02d}" for n in range(1, 51)]  # the rival's campaign is not listed
    assert (paged_grid(by_name)["total"], paged_grid(by_name)["keepSelection"]) == (55, True)
    assert _names(page_2) == [f"Wave {n:02d}" for n in range(51, 56)]
    assert attribute_of(applied, "data-results") == "2/2"
    statuses = {row.name: row.status for row in campaigns.list_campaigns(db, actor=actor_of(db, ADVERTISER))}
    assert (statuses["Wave 02"], statuses["Wave 54"], statuses["Wave 30"]) == ("paused", "paused", "active")


def test_the_list_pages_ids_are_shown_alone_first_and_the_switch_browses_every_row(db: Session) -> None:
    made = _campaigns(db)
    ids = f"{made['Wave 54']},{made['Wave 03']}"
    selected_only, everything = deliver_in_turn(
        BulkCampaignEditPage, signed_in_console(ADVERTISER), f"/bulk-campaign-edit?ids={ids}",
        (_by_name, _switch("field-selected-only", False)))
    assert _names(selected_only) == ["Wave 03", "Wave 54"]
    assert sorted(paged_grid(selected_only)["initialSelection"]) == sorted(ids.split(","))
    assert (paged_grid(everything)["total"], _names(everything)[:2]) == (55, ["Wave 01", "Wave 02"])


def test_the_creative_bulk_page_pages_with_the_selection(db: Session) -> None:
    """The admin's creative status page: page 2 follows page 1, and both pages' choices are archived."""
    owner = user_by_email(db, ADVERTISER)
    for n in range(1, 53):
        db.add(Creative(advertiser_id=owner.id or 0, name=f"Banner {n:02d}", type="html", html="<p>ad</p>"))
    db.commit()
    ids = {c.name: c.id or 0 for c in db.exec(select(Creative)).all()}
    page_1, page_2 = deliver_in_turn(BulkCreativeStatusPage, signed_in_console(ADMIN), "/admin/bulk-creative-status",
                                     (_by_name, to_page(2)))
    shown = _names(page_1) + _names(page_2)
    assert [name for name in shown if name.startswith("Banner")] == [f"Banner {n:02d}" for n in range(1, 53)]
    assert len(shown) == paged_grid(page_2)["total"]
    chosen = (ids["Banner 01"], ids["Banner 52"])
    *_walk, applied = deliver_in_turn(
        BulkCreativeStatusPage, signed_in_console(ADMIN), "/admin/bulk-creative-status",
        (_by_name, grid_choice(chosen[0]), to_page(2), grid_choice(*chosen), _APPLY))
    assert attribute_of(applied, "data-results") == "2/2"
    db.expire_all()
    statuses = {c.name: c.status for c in db.exec(select(Creative)).all()}
    assert (statuses["Banner 01"], statuses["Banner 52"]) == ("paused", "paused")
    assert statuses["Banner 02"] != "paused"
