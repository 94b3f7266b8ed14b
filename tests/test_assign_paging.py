"""The agency pages' advertiser grids page on the server (account_grids.accounts_list_page with the agency filter):
the assignment page lists the "from" agency's advertisers a page at a time and moves the ones chosen on page 1 and
page 2 together; an agency's own page lists its advertisers the same way; another agency's never appear."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from app.access.models import User
from components.accounts.agencies.assign_advertiser import AssignAdvertiserPage
from components.accounts.agencies.edit_agency import AgencyAdvertisers
from tests.helpers import SHOPS, agency_shops
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

ADMIN, AGENCY = "admin@demo.example", "agency@demo.example"


def _companies(model: dict[str, Any]) -> list[str]:
    return [row["company"] for row in paged_grid(model)["rows"]]


def _by_company(model: dict[str, Any]) -> tuple[str, list[Any]]:
    return grid_view(sort="company")(model)


def test_advertisers_chosen_on_two_pages_move_together(db: Session) -> None:
    agency, rival = agency_shops(db)
    ids = {u.company_name: u.id or 0 for u in db.exec(select(User)).all()}
    steps = (_by_company, grid_choice(ids["Shop 00"]), to_page(2), grid_choice(ids["Shop 00"], ids["Shop 53"]),
             element_event("name", "agency_id", "onChange", {"target": {"value": str(rival.id)}}),
             element_event("data-action", "move", "onClick", {}), element_event("data-confirm", "yes", "onClick", {}))
    by_company, chosen, page_2, both, *_rest, moved = deliver_in_turn(
        AssignAdvertiserPage, signed_in_console(ADMIN), f"/admin/assignAdvertiser?from={agency.id}", steps)
    # Companies in order: Acme Outdoor, then the shops; the rival's advertiser is another agency's.
    assert _companies(by_company) == ["Acme Outdoor", *SHOPS[:49]]
    assert (paged_grid(by_company)["total"], paged_grid(by_company)["keepSelection"]) == (56, True)
    assert _companies(page_2) == SHOPS[49:]
    assert [attribute_of(model, "data-move-count") for model in (chosen, both)] == [1, 2]
    db.expire_all()
    agencies = {u.company_name: u.agency_id for u in db.exec(select(User)).all()}
    assert (agencies["Shop 00"], agencies["Shop 53"], agencies["Shop 01"]) == (rival.id, rival.id, agency.id)
    # The grid read again (the moved ones left the "from" agency) and the choice is over.
    assert (paged_grid(moved)["total"], attribute_of(moved, "data-move-count")) == (54, 0)


def test_an_agencys_page_lists_its_advertisers_a_page_at_a_time(db: Session) -> None:
    agency, _rival = agency_shops(db)
    page_2, = deliver_in_turn(lambda: AgencyAdvertisers(agency.id or 0), signed_in_console(ADMIN),
                              f"/admin/editAgency/{agency.id}", (to_page(2),))
    assert (paged_grid(page_2)["page"], paged_grid(page_2)["total"]) == (2, 56)  # no rival's advertiser
    assert _companies(page_2) == SHOPS[49:]  # by id: Acme Outdoor first, then the shops as made
