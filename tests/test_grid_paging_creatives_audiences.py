"""The creative and audience grids page on the server (creatives.list_creatives_page, audiences.list_audiences_page,
as the campaign list): the grid gets one page, the next page shows the rows that follow, a new sort or search asks
the server again and starts from the first page, and another tenant's rows never appear."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session

from app.creatives import service as creatives
from app.creatives.models import Creative
from app.kernel.errors import Invalid
from app.supply import audiences
from app.supply.models import Audience, AudienceKind
from components.creatives.creative_list import CreativeListPage
from components.supply.audiences.audience_list import AudienceListPage
from tests.helpers import actor_of, other_tenant, user_by_email
from tests.render import (
    deliver_in_turn,
    grid_view,
    paged_grid,
    signed_in_console,
    to_page,
)

AGENCY = "agency@demo.example"
ADVERTISER = "advertiser@demo.example"
Event = Callable[[dict[str, Any]], tuple[str, list[Any]]]


def _shown(model: dict[str, Any]) -> tuple[list[str], int, int]:
    """(the names the grid shows, its page, the total it pages through)."""
    grid = paged_grid(model)
    return [row["name"] for row in grid["rows"]], grid["page"], grid["total"]


def _named(count: int) -> list[str]:
    return [f"Banner {n}" for n in range(1, count + 1)]


def _seed(db: Session, make: Callable[[int, str, datetime], Any]) -> None:
    """55 rows of the demo advertiser, "Banner 1" changed first and "Banner 55" last, and one of a rival agency's
    advertiser ("Banner 99"), each made by make(advertiser id, name, changed at)."""
    mine, start = user_by_email(db, ADVERTISER), datetime(2026, 1, 1, tzinfo=UTC)
    _agency, rival = other_tenant(db)
    for n, name in enumerate(_named(55), start=1):
        db.add(make(mine.id or 0, name, start + timedelta(minutes=n)))
    db.add(make(rival.id or 0, "Banner 99", start + timedelta(days=1)))
    db.commit()


def _creative(advertiser_id: int, name: str, changed: datetime) -> Creative:
    return Creative(advertiser_id=advertiser_id, name=name, type="html", html="<p>ad</p>", updated_at=changed)


def _audience(advertiser_id: int, name: str, changed: datetime) -> Audience:
    return Audience(advertiser_id=advertiser_id, name=name, kind=AudienceKind.DEVICE_IDS, updated_at=changed)


# One walk through either grid: page 2, a sort (back to page 1), page 2 of that sort, a search (back to page 1).
# The search's words in any order, each somewhere in the row (app/kernel/grid_search.py): every name with a 5.
WALK = (to_page(2), grid_view(sort="name"), to_page(2), grid_view(query="5 banner", sort="name"))


def _walked(seen: list[dict[str, Any]]) -> None:
    newest_first, by_name, by_name_2, searched = (_shown(model) for model in seen)
    assert newest_first == (["Banner 5", "Banner 4", "Banner 3", "Banner 2", "Banner 1"], 2, 55)
    # Names as people read them, on the server's pages: "Banner 9" before "Banner 10".
    assert by_name == (_named(50), 1, 55)
    assert by_name_2 == (_named(55)[50:], 2, 55)
    fives = [name for name in _named(55) if "5" in name]
    assert searched == (fives, 1, len(fives))


def test_the_creative_grid_pages_sorts_and_searches_on_the_server_within_scope(db: Session) -> None:
    _seed(db, _creative)
    _walked(deliver_in_turn(CreativeListPage, signed_in_console(AGENCY), "/agency/creative", WALK))


def test_the_audience_grid_pages_sorts_and_searches_on_the_server_within_scope(db: Session) -> None:
    _seed(db, _audience)
    seen = deliver_in_turn(AudienceListPage, signed_in_console(AGENCY), "/agency/audience", WALK)
    _walked(seen)
    # Sizes and campaign counts are figured for the page's rows only: the grid offers no sort by them.
    unsorted = {c["key"] for c in paged_grid(seen[0])["columns"] if c.get("sortable") is False}
    assert unsorted == {"size", "campaign_count"}


def test_the_list_pages_keep_scope_filters_and_refuse_bad_pages(db: Session) -> None:
    _seed(db, _creative)
    mine = user_by_email(db, ADVERTISER).id or 0
    changed = datetime(2026, 2, 1, tzinfo=UTC)
    db.add_all([_audience(mine, name, changed) for name in ("Shoppers", "Buyers 9", "Buyers 10")])
    db.commit()
    agency, admin = actor_of(db, AGENCY), actor_of(db, "admin@demo.example")
    assert creatives.list_creatives_page(db, actor=agency, search="banner 99").total == 0
    assert [r.name for r in creatives.list_creatives_page(db, actor=admin, search="banner 99").rows] == ["Banner 99"]
    # The search reads the advertiser as the grid shows it, too.
    assert creatives.list_creatives_page(db, actor=admin, search="rival shoes").total == 1
    assert creatives.list_creatives_page(db, actor=agency, type="image").total == 0
    def names(page: int) -> list[str]:
        listed = audiences.list_audiences_page(db, actor=agency, sort="-name", page=page, page_size=2)
        return [r.name for r in listed.rows]

    assert (names(1), names(2), names(3)) == (["Shoppers", "Buyers 10"], ["Buyers 9"], [])
    for bad, field in (({"page": 0}, "page"), ({"page_size": 501}, "page_size"), ({"sort": "size_unit"}, "sort")):
        with pytest.raises(Invalid) as refused:
            audiences.list_audiences_page(db, actor=agency, **bad)
        assert set(refused.value.fields) == {field}
