"""The report, DSP, inventory-list and smart-app-list grids page on the server (each through components/ui/offset_pages.py, as the creative
list): the next page shows the rows that follow, a new sort or search starts from the first page, and another
tenant's rows never appear."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session

from app.dsps import service as dsps
from app.dsps.models import Dsp
from app.kernel.errors import Forbidden
from app.reports import service as reports
from app.reports.models import Report
from app.supply import app_lists, smart_apps
from app.supply.models import AppList, ListStatus, SmartAppList
from components.dsps.dsp_list import DspListPage
from components.reports.report_list import ReportListPage
from components.supply.app_lists.inventory_pages import InventoryListsPage
from components.supply.app_lists.smart_pages import SmartAppListsPage
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.render import deliver_in_turn, grid_view, paged_grid, signed_in_console, to_page

AGENCY = "agency@demo.example"
ADVERTISER = "advertiser@demo.example"
START = datetime(2026, 1, 1, tzinfo=UTC)


def _shown(model: dict[str, Any]) -> tuple[list[str], int, int]:
    """(the names the grid shows, its page, the total it pages through)."""
    grid = paged_grid(model)
    return [row["name"] for row in grid["rows"]], grid["page"], grid["total"]


def _named(count: int) -> list[str]:
    return [f"Report {n:02}" for n in range(1, count + 1)]


# One walk through a grid: page 2, a sort (back to page 1), page 2 of that sort, a search (back to page 1). The
# search's words in any order, each somewhere in the row (app/kernel/grid_search.py).
WALK = (to_page(2), grid_view(sort="name"), to_page(2), grid_view(query="5 report", sort="name"))
# What that search finds among "Report 01" .. "Report 55": every name with a 5 in it.
FIVES = [name for name in _named(55) if "5" in name]


def _walked(seen: list[dict[str, Any]]) -> None:
    """55 rows "Report 01" (changed first) .. "Report 55" walked through WALK."""
    newest_first, by_name, by_name_2, searched = (_shown(model) for model in seen)
    assert newest_first == (["Report 05", "Report 04", "Report 03", "Report 02", "Report 01"], 2, 55)
    assert by_name == (_named(50), 1, 55)
    assert by_name_2 == (_named(55)[50:], 2, 55)
    assert searched == (FIVES, 1, len(FIVES))


def test_the_report_grid_pages_sorts_and_searches_on_the_server_within_scope(db: Session) -> None:
    mine = user_by_email(db, ADVERTISER)
    _agency, rival = other_tenant(db)
    for n, name in enumerate(_named(55), start=1):
        db.add(Report(owner_id=mine.id or 0, advertiser_id=mine.id, name=name, report_type="campaign",
                      updated_at=START + timedelta(minutes=n)))
    db.add(Report(owner_id=rival.id or 0, advertiser_id=rival.id, name="Report 99", report_type="campaign",
                  updated_at=START + timedelta(days=1)))
    db.commit()
    _walked(deliver_in_turn(ReportListPage, signed_in_console(AGENCY), "/agency/report", WALK))
    agency, admin = actor_of(db, AGENCY), actor_of(db, "admin@demo.example")
    assert reports.list_reports_page(db, actor=agency, search="report 99").total == 0
    # The search reads the advertiser as the grid shows it, too.
    assert [r.name for r in reports.list_reports_page(db, actor=admin, search="rival shoes").rows] == ["Report 99"]


def test_the_dsp_grid_pages_sorts_and_searches_on_the_server_for_admin_only(db: Session) -> None:
    # Changed in reverse: the newest-first order is not the name order the grid starts in.
    for n, name in enumerate(_named(55), start=1):
        db.add(Dsp(name=name, endpoint_url=f"https://dsp{n}.example/rtb", updated_at=START - timedelta(minutes=n)))
    db.commit()
    walk = (to_page(2), grid_view(sort="-updated_at"), to_page(2), grid_view(query="report 5", sort="name"))
    by_name_2, oldest_last, oldest_last_2, searched = (_shown(m) for m in deliver_in_turn(
        DspListPage, signed_in_console("admin@demo.example"), "/admin/dsplist", walk))
    assert by_name_2 == (_named(55)[50:], 2, 55)
    assert oldest_last == (_named(50), 1, 55)
    assert oldest_last_2 == (_named(55)[50:], 2, 55)
    assert searched == (FIVES, 1, len(FIVES))
    assert dsps.list_dsps_page(db, actor=actor_of(db, "admin@demo.example"), search="dsp7.example").total == 1
    with pytest.raises(Forbidden):
        dsps.list_dsps_page(db, actor=actor_of(db, AGENCY))


def test_the_inventory_list_grid_pages_sorts_and_searches_on_the_server_within_scope(db: Session) -> None:
    mine = user_by_email(db, ADVERTISER)
    _agency, rival = other_tenant(db)
    for n, name in enumerate(_named(55), start=1):
        db.add(AppList(advertiser_id=mine.id or 0, name=name, updated_at=START + timedelta(minutes=n)))
    db.add(AppList(advertiser_id=rival.id or 0, name="Report 99", updated_at=START + timedelta(days=1)))
    db.commit()
    _walked(deliver_in_turn(InventoryListsPage, signed_in_console(AGENCY), "/agency/inventory-list", WALK))
    agency, admin = actor_of(db, AGENCY), actor_of(db, "admin@demo.example")
    assert app_lists.list_lists_page(db, actor=agency, search="report 99").total == 0
    assert [r.name for r in app_lists.list_lists_page(db, actor=admin, search="rival shoes").rows] == ["Report 99"]
    assert app_lists.list_lists_page(db, actor=agency, kind="block").total == 0


def test_the_smart_app_list_grid_pages_sorts_and_searches_on_the_server(db: Session) -> None:
    for n, name in enumerate(_named(55), start=1):
        db.add(SmartAppList(name=name, category_id="36", genre_id="6014", updated_at=START + timedelta(minutes=n)))
    db.add(SmartAppList(name="Report 99", category_id="36", genre_id="6014", status=ListStatus.ARCHIVED,
                        updated_at=START - timedelta(days=1)))
    db.commit()
    seen = deliver_in_turn(SmartAppListsPage, signed_in_console("admin@demo.example"), "/admin/smart-apps", WALK)
    # Staff see the archived list too (last, the oldest change): page 2 of 56 has "Report 99" after "Report 01".
    newest_first, by_name, by_name_2, searched = (_shown(model) for model in seen)
    assert newest_first == (["Report 05", "Report 04", "Report 03", "Report 02", "Report 01", "Report 99"], 2, 56)
    assert (by_name, by_name_2) == ((_named(50), 1, 56), ([*_named(55)[50:], "Report 99"], 2, 56))
    assert searched == (FIVES, 1, len(FIVES))
    # Everyone else only the active ones.
    assert smart_apps.list_lists_page(db, actor=actor_of(db, AGENCY), search="report 99").total == 0
