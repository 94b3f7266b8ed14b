"""The campaign list's figures (app/statistics/entity_figures.py): one grouped read that gives each campaign the
same figures as the dashboard's campaign breakdown, to the micro-dollar, and nothing of another tenant's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.campaigns import list_figures
from app.campaigns.models import Campaign, CampaignStatus
from app.kernel.errors import Invalid
from app.statistics import dashboards, entity_figures
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of

TODAY = datetime.now(UTC).date()


def _campaign(db, advertiser_id: int, name: str) -> int:
    campaign = Campaign(advertiser_id=advertiser_id, name=name, status=CampaignStatus.ACTIVE,
                        starts_at=datetime.now(UTC) - timedelta(days=5), total_budget_micros=500_000_000,
                        bid_micros=2_000_000)
    db.add(campaign)
    db.flush()
    assert campaign.id is not None
    return campaign.id


def _row(advertiser_id: int, campaign_id: int, hour: int, spend_micros: int) -> FactRow:
    return FactRow(hour=datetime.combine(TODAY, datetime.min.time()).replace(hour=hour), advertiser_id=advertiser_id,
                   campaign_id=campaign_id, creative_id=0, exchange="Magnite", os="iOS", country="US", app="com.x",
                   device_type="phone", impressions=1000 + hour, clicks=3 + hour, spend_micros=spend_micros,
                   conversions=hour % 2)


def test_each_campaign_has_the_dashboards_figures_and_no_other_tenants(db, demo_ids) -> None:
    mine = demo_ids["advertiser@demo.example"]
    first, second = _campaign(db, mine, "First"), _campaign(db, mine, "Second")
    stranger = 987_654  # an advertiser of no agency the demo knows
    get_store().ingest("figures-1", [_row(mine, first, 1, 1_234_567), _row(mine, first, 5, 765_431),
                                     _row(mine, second, 2, 999_999), _row(stranger, 4242, 3, 5_000_000)],
                       source="test")
    for email in ("advertiser@demo.example", "agency@demo.example"):
        actor = actor_of(db, email)
        figures = entity_figures.figures_by(db, actor=actor, dimension="campaign_id", start=TODAY, end=TODAY)
        assert set(figures) == {first, second}  # the stranger's campaign is out of reach
        assert figures[first]["spend_micros"] == 1_234_567 + 765_431
        assert figures[first]["impressions"] == 2006 and figures[first]["conversions"] == 2
        board = dashboards.dashboard(db, actor=actor, start=TODAY, end=TODAY)
        for row in board.breakdowns["campaign"]:
            shown = figures[row["campaign_id"]]
            assert shown["spend_micros"] == row["spend_micros"]
            assert round(shown["cpa"] or 0, 4) == (row["cpa"] or 0)
    only = entity_figures.figures_by(db, actor=actor_of(db, "admin@demo.example"), dimension="campaign_id",
                                     start=TODAY, end=TODAY, ids=[second])
    assert list(only) == [second] and only[second]["spend_micros"] == 999_999
    assert entity_figures.zeros()["spend_micros"] == 0 and entity_figures.zeros()["cpa"] is None


def test_sorting_by_spend_orders_every_campaign_before_paging(db, demo_ids) -> None:
    mine = demo_ids["advertiser@demo.example"]
    ids = [_campaign(db, mine, f"Sorted {n}") for n in range(3)]
    get_store().ingest("figures-2", [_row(mine, ids[0], 1, 10), _row(mine, ids[2], 1, 30), _row(mine, ids[1], 1, 20)],
                       source="test")
    me = actor_of(db, "advertiser@demo.example")
    first = list_figures.list_campaigns_with_figures(db, actor=me, start=TODAY, end=TODAY, sort="-spend",
                                                     page=1, page_size=2)
    assert [r.campaign.id for r in first.rows] == [ids[2], ids[1]] and first.total >= 3
    second = list_figures.list_campaigns_with_figures(db, actor=me, start=TODAY, end=TODAY, sort="-spend",
                                                      page=2, page_size=2)
    assert second.rows[0].campaign.id == ids[0] and second.rows[0].figures["spend_micros"] == 10
    by_name = list_figures.list_campaigns_with_figures(db, actor=me, start=TODAY, end=TODAY, sort="name")
    assert {r.campaign.id: r.figures["spend_micros"] for r in by_name.rows}[ids[2]] == 30
    with pytest.raises(Invalid) as refused:
        list_figures.list_campaigns_with_figures(db, actor=me, start=TODAY, end=TODAY, sort="colour")
    assert "spend" in refused.value.fields["sort"] and "name" in refused.value.fields["sort"]
