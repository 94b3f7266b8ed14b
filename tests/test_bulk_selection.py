"""Selections that follow the list (the Python half; tests/e2e/test_bulk_selection.py drives the grid itself): after
Apply, the chosen rows the list no longer shows are taken out of the selection and the results say how many; on the
agency assignment page another "from" agency ends the choice, so one move never takes two agencies' advertisers."""

from __future__ import annotations

from sqlmodel import Session

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from components.accounts.agencies.assign_advertiser import AssignAdvertiserPage
from components.campaigns.bulk_edit import BulkStatusPage
from tests.helpers import actor_of, user_by_email
from tests.render import (
    attribute_of,
    deliver_in_turn,
    element_event,
    grid_choice,
    paged_grid,
    signed_in_console,
    walk,
)
from tests.test_campaign_pages import SETTINGS

ADMIN, ADVERTISER, AGENCY = "admin@demo.example", "advertiser@demo.example", "agency@demo.example"


def test_a_chosen_campaign_archived_meanwhile_leaves_the_selection_after_apply(db: Session) -> None:
    """Chosen on the list, then archived by someone else: Apply refuses it, and since the list no longer shows it
    the grid is told to drop it, so the next Apply cannot act on a row the user cannot see."""
    advertiser = actor_of(db, ADVERTISER)
    running, gone = (campaigns.create_campaign(db, actor=advertiser,
                                               data=CampaignUpdate.model_validate({**SETTINGS, "name": name})).id
                     for name in ("Harbour Run", "Harbour Gone"))
    campaigns.set_status(db, actor=advertiser, campaign_id=running, status="active")
    campaigns.set_status(db, actor=advertiser, campaign_id=gone, status="archived")
    db.commit()
    chosen, applied = deliver_in_turn(
        BulkStatusPage, signed_in_console(ADMIN), f"/admin/bulk-campaign-status?ids={running},{gone}",
        (grid_choice(running, gone), element_event("data-action", "apply-bulk", "onClick", {})))
    assert paged_grid(chosen)["dropSelection"] == {"revision": 0, "keys": []}
    assert attribute_of(applied, "data-results") == "1/2"  # paused; the archived one refused
    assert paged_grid(applied)["dropSelection"]["keys"] == [str(gone)]
    assert attribute_of(applied, "data-unselected") == 1


def test_rows_still_listed_after_apply_stay_chosen(db: Session) -> None:
    advertiser = actor_of(db, ADVERTISER)
    made = campaigns.create_campaign(db, actor=advertiser,
                                     data=CampaignUpdate.model_validate({**SETTINGS, "name": "Harbour Stay"})).id
    campaigns.set_status(db, actor=advertiser, campaign_id=made, status="active")
    db.commit()
    _chosen, applied = deliver_in_turn(
        BulkStatusPage, signed_in_console(ADMIN), f"/admin/bulk-campaign-status?ids={made}",
        (grid_choice(made), element_event("data-action", "apply-bulk", "onClick", {})))
    assert attribute_of(applied, "data-results") == "1/1"
    assert paged_grid(applied)["dropSelection"]["keys"] == []  # nothing for the grid to drop
    assert not [node for node in walk(applied) if "data-unselected" in node.get("attributes", {})]


def test_another_from_agency_ends_the_choice(db: Session) -> None:
    agency, advertiser = user_by_email(db, AGENCY), user_by_email(db, ADVERTISER)
    chosen, elsewhere = deliver_in_turn(
        AssignAdvertiserPage, signed_in_console(ADMIN), f"/admin/assignAdvertiser?from={agency.id}",
        (grid_choice(advertiser.id or 0), element_event("name", "from", "onChange", {"target": {"value": ""}})))
    assert attribute_of(chosen, "data-move-count") == 1
    assert paged_grid(chosen)["dropSelection"] == {"revision": 0, "keys": None}
    # The move card forgets the choice at once and the grid is told to drop every chosen row.
    assert attribute_of(elsewhere, "data-move-count") == 0
    assert paged_grid(elsewhere)["dropSelection"] == {"revision": 1, "keys": None}
    assert "Choosing another agency here clears the selection." in str(elsewhere)
