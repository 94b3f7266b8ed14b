"""The funds list is paged on the server (funds.funds_list_page, as the campaign list): the grid gets one page of
advertisers, the next page shows the ones that follow, the totals count every advertiser in scope, and another
tenant's advertisers never appear."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.funds import service as funds
from components.funds.funds_overview import PAGE_SIZE, FundsOverviewPage
from tests.helpers import actor_of, agency_shops, user_by_email
from tests.render import deliver_and_settle, handler_target, signed_in_console, text_of, walk

AGENCY = "agency@demo.example"


def _grid_rows(model: dict[str, Any]) -> list[str]:
    grids = [node["attributes"] for node in walk(model) if "pageSize" in node.get("attributes", {})]
    assert len(grids) == 1
    return [row["company"] for row in grids[0]["rows"]]


def test_page_two_of_the_funds_list_shows_the_advertisers_that_follow(db: Session) -> None:
    agency_shops(db)
    first, _sent = deliver_and_settle(FundsOverviewPage, signed_in_console(AGENCY), "/agency/funds",
                                      lambda model: (handler_target(model, "onPageChange"), ["2"]))
    shown = _grid_rows(first)
    assert shown == [f"Shop {n:02d}" for n in range(49, 55)]  # page 1: Acme Outdoor, Shop 00..48
    assert "56" in text_of(first)  # the advertisers counted in the totals: every page's
    assert "Rival Shoes" not in shown


def test_the_list_sorts_and_searches_in_sql_within_scope(db: Session) -> None:
    agency_shops(db)
    actor = actor_of(db, AGENCY)
    # Every word somewhere in the row, in any order (app/kernel/grid_search.py): the shops with a 5 in their name.
    page = funds.funds_list_page(db, actor=actor, search="5 shop", sort="-company", page_size=PAGE_SIZE)
    fives = [f"Shop {n:02d}" for n in range(54, -1, -1) if "5" in f"{n:02d}"]
    assert [row.company for row in page.rows] == fives and page.total == len(fives)
    assert page.totals.advertisers == 56 and page.agencies == [(user_by_email(db, AGENCY).id, "Blue Harbor Agency")]
    rival = funds.funds_list_page(db, actor=actor, search="rival")
    assert rival.rows == [] and rival.total == 0
    admin = funds.funds_list_page(db, actor=actor_of(db, "admin@demo.example"), search="rival")
    assert [row.company for row in admin.rows] == ["Rival Shoes"]
