"""The users list and the agencies list are paged on the server (app/accounts/account_grids.py, as the campaign
and funds lists): the grid gets one page of accounts, the next page shows the ones that follow, a new search or
sort reads the first page again, and another agency's accounts never appear."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from sqlmodel import Session

from app.access.models import User, UserStatus
from app.access.roles import Role
from app.accounts import account_grids
from app.funds.models import LedgerEntry
from app.kernel.errors import Invalid
from app.kernel.money import MICROS_PER_DOLLAR
from components.accounts.agencies.agency_list import AgenciesPage
from components.accounts.users.user_list import PAGE_SIZE, UsersPage
from tests.helpers import actor_of, agency_shops, bearer_headers, user_by_email
from tests.render import (
    deliver_in_turn,
    grid_view,
    paged_grid,
    signed_in_console,
    to_page,
    walk,
)

ADMIN, AGENCY = "admin@demo.example", "agency@demo.example"


def _companies(model: dict[str, Any]) -> list[str]:
    return [row["company"] for row in paged_grid(model)["rows"]]


def test_the_agencys_advertisers_page_two_then_a_sort_reads_the_first_page_again(db: Session) -> None:
    agency_shops(db)
    second, sorted_ = deliver_in_turn(UsersPage, signed_in_console(AGENCY), "/agency/advertiser",
                                          [to_page(2), grid_view(sort="-company")])
    assert _companies(second) == [f"Shop {n:02d}" for n in range(49, 55)]  # page 1: Acme Outdoor, Shop 00..48
    assert (paged_grid(second)["page"], paged_grid(second)["total"]) == (2, 56)  # the rival's advertiser is not counted
    assert paged_grid(sorted_)["page"] == 1
    assert _companies(sorted_) == [f"Shop {n:02d}" for n in range(54, 4, -1)]  # a full first page, sorted


def _choose(name: str, value: str) -> Any:
    """A filter's <select> changed to `value`."""
    def event(model: dict[str, Any]) -> tuple[str, list[Any]]:
        select = next(node for node in walk(model) if node.get("attributes", {}).get("name") == name)
        return select["eventHandlers"]["onChange"]["target"], [{"target": {"value": value}}]
    return event


def test_a_role_filter_chosen_on_page_two_reads_the_first_page_of_that_role(db: Session) -> None:
    agency_shops(db)
    second, agencies = deliver_in_turn(UsersPage, signed_in_console(ADMIN), "/admin/users",
                                           [to_page(2), _choose("role_filter", Role.AGENCY.value)])
    assert paged_grid(second)["page"] == 2 and len(paged_grid(second)["rows"]) == paged_grid(second)["total"] - PAGE_SIZE
    assert paged_grid(agencies)["page"] == 1
    assert _companies(agencies) == ["Blue Harbor Agency", "Rival Media"]


def test_the_agencies_list_pages_and_a_search_goes_back_to_the_first_page(db: Session) -> None:
    for n in range(52):
        db.add(User(email=f"agency{n:02d}@bench.example", password_hash="-", role=Role.AGENCY,
                    company_name=f"Media House {n:02d}"))
    db.commit()
    second, searched = deliver_in_turn(AgenciesPage, signed_in_console(ADMIN), "/admin/agencies",
                                           [to_page(2), grid_view(query="house 5")])
    assert _companies(second) == ["Media House 49", "Media House 50", "Media House 51"]  # after Blue Harbor, 00..48
    # Every word somewhere in the name, e-mail or company: "5" in 05, 15, ... 45 and in 50, 51.
    assert (paged_grid(searched)["page"], paged_grid(searched)["total"]) == (1, 7)
    assert _companies(searched) == [f"Media House {n}" for n in ("05", "15", "25", "35", "45", "50", "51")]


def test_sort_search_and_filters_are_sql_within_the_actors_scope(db: Session) -> None:
    agency_shops(db)
    agency = actor_of(db, AGENCY)
    # Natural order: "Shop 9" would come after "Shop 10" in plain text order; numbers here are zero-padded
    # anyway, so check the company key against a name that is not.
    db.add(User(email="shop9@demo.example", password_hash="-", role=Role.ADVERTISER, company_name="Shop 9",
                agency_id=agency.id))
    db.commit()
    page = account_grids.accounts_list_page(db, actor=agency, search="shop 5", sort="-company", page_size=PAGE_SIZE)
    assert [row.company for row in page.rows] == [f"Shop {n}" for n in ("54", "53", "52", "51", "50", "45", "35",
                                                                        "25", "15", "05")]
    assert page.total == 10
    ordered = [r.company for r in account_grids.accounts_list_page(db, actor=agency, sort="company", page_size=200).rows]
    assert ordered.index("Shop 9") < ordered.index("Shop 10")
    named = [r.name for r in account_grids.accounts_list_page(db, actor=agency, sort="name", page_size=200).rows]
    assert named.index("Shop Keeper 9") < named.index("Shop Keeper 10")
    assert named[:2] == ["Arlo Advertiser", "shop9@demo.example"]  # no name: its e-mail shows, and sorts, instead
    for text in ("rival", "other.example", "Rival Media"):
        found = account_grids.accounts_list_page(db, actor=agency, search=text)
        assert found.rows == [] and found.total == 0
    admin = actor_of(db, ADMIN)
    rival = account_grids.accounts_list_page(db, actor=admin, search="rival media")  # its agency, and its advertiser
    assert {row.email for row in rival.rows} == {"rival-agency@other.example", "rival-adv@other.example"}
    assert account_grids.accounts_list_page(db, actor=actor_of(db, "coadmin@demo.example"), search="admin").rows == []
    agencies = account_grids.accounts_list_page(db, actor=admin, role=Role.AGENCY.value, sort="email")
    assert [row.email for row in agencies.rows] == ["agency@demo.example", "rival-agency@other.example"]
    assert account_grids.accounts_list_page(db, actor=admin, status=UserStatus.DISABLED).total == 0
    with pytest.raises(Invalid) as wrong:
        account_grids.accounts_list_page(db, actor=admin, sort="password_hash")
    assert set(wrong.value.fields) == {"sort"}


def test_every_column_sorts_both_ways_and_balances_sort_by_their_sums(db: Session) -> None:
    agency_shops(db)
    rich, poor = user_by_email(db, "shop07@demo.example"), user_by_email(db, "shop08@demo.example")
    db.add_all([LedgerEntry(advertiser_id=rich.id or 0, amount_micros=10_000_000 * MICROS_PER_DOLLAR, kind="deposit"),
                LedgerEntry(advertiser_id=poor.id or 0, amount_micros=-5 * MICROS_PER_DOLLAR, kind="spend")])
    db.commit()
    admin, agency = actor_of(db, ADMIN), actor_of(db, AGENCY)
    everyone = account_grids.accounts_list_page(db, actor=admin).total
    for column in account_grids.SORT_COLUMNS:
        for sort in (column, f"-{column}"):
            assert account_grids.accounts_list_page(db, actor=admin, sort=sort).total == everyone
    for column in account_grids.AGENCY_SORT_COLUMNS:
        assert account_grids.agencies_list_page(db, actor=admin, sort=f"-{column}").total == 2
    by_balance = account_grids.accounts_list_page(db, actor=agency, sort="-balance", page_size=200).rows
    assert by_balance[0].email == "shop07@demo.example" and by_balance[-1].email == "shop08@demo.example"
    richest_agency = account_grids.agencies_list_page(db, actor=admin, sort="-balance").rows[0]
    assert richest_agency.email == AGENCY and richest_agency.advertisers == 56


def test_the_users_spreadsheet_holds_every_account_the_filters_match_not_one_grid_page(client: Any, db: Session) -> None:
    agency_shops(db)
    agency = bearer_headers(client, AGENCY)
    reply = client.post("/api/sheetData", headers=agency, json={"list": "users", "filters": {"status": "active"}})
    assert reply.status_code == 200, reply.text
    download = client.get(reply.json()["data"]["csv_download_url"], headers=agency)
    emails = {row["email"] for row in csv.DictReader(io.StringIO(download.content.decode("utf-8-sig")))}
    assert len(emails) == 56 > PAGE_SIZE  # the demo's advertiser and the 55 shops, past the grid's first page
    assert "rival-adv@other.example" not in emails
