"""The campaign list with each campaign's delivery over a period (issue 39 item 1): the settings rows of
campaigns.list_campaigns_page beside entity_figures' one grouped read. Sorting by a figure orders every campaign
the filters match (their ids, then the figures of the whole scope), then pages, so the first page of
"-spend" holds the biggest spenders of all the actor's campaigns, not of one page.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel
from sqlmodel import Session, col

from app.access.policy import Actor, require
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignListRow
from app.kernel.errors import Invalid
from app.kernel.numbered_pages import check_page
from app.statistics import entity_figures
from app.warehouse.base import StatsValue


class CampaignFiguresRow(BaseModel):
    """A campaign list row and its figures over the period (entity_figures.FIGURES, spend_micros exact)."""

    campaign: CampaignListRow
    figures: dict[str, StatsValue]


class CampaignFiguresPage(BaseModel):
    rows: list[CampaignFiguresRow]
    total: int
    page: int
    page_size: int


def _figure_sort(sort: str) -> tuple[str, bool] | None:
    """(figure, descending) when the sort names a figure; None for a settings column."""
    text = sort.strip()
    key = text.lstrip("-")
    return (key, text.startswith("-")) if key in entity_figures.FIGURES else None


def list_campaigns_with_figures(db: Session, *, actor: Actor, start: date, end: date, sort: str = "",
                                page: int = 1, page_size: int = 50, advertiser_id: int | None = None,
                                status: str = "", search: str = "", include_archived: bool = False
                                ) -> CampaignFiguresPage:
    """One page of the campaign list with each row's figures over start..end (the dashboard's UTC days)."""
    require(actor, "campaign", "view")
    check_page(page, page_size, things="campaigns")
    listed: dict[str, Any] = {"actor": actor, "advertiser_id": advertiser_id, "status": status, "search": search,
                              "include_archived": include_archived}
    by_figure = _figure_sort(sort)
    if by_figure is None:
        if sort.strip().lstrip("-") and sort.strip().lstrip("-") not in campaigns.LIST_COLUMNS:
            raise Invalid({"sort": "Sort by one of: " + ", ".join((*campaigns.LIST_COLUMNS, *entity_figures.FIGURES))
                           + " (a leading - for descending)."})
        shown = campaigns.list_campaigns_page(db, sort=sort, page=page, page_size=page_size, **listed)
        figures = entity_figures.figures_by(db, actor=actor, dimension="campaign_id", start=start, end=end,
                                            ids=[row.id for row in shown.rows], advertiser_id=advertiser_id)
        return _page(shown.rows, figures, shown.total, page, page_size)
    key, descending = by_figure
    ids = matching_ids(db, **listed)
    figures = entity_figures.figures_by(db, actor=actor, dimension="campaign_id", start=start, end=end,
                                        advertiser_id=advertiser_id)

    def order(campaign_id: int) -> tuple[bool, float, int]:
        value = figures.get(campaign_id, entity_figures.zeros()).get(key)
        number = float(value) if isinstance(value, int | float) else None
        # Empty figures (no impressions: no CTR) last either way, as the settings columns' empty values.
        return (number is None, -(number or 0) if descending else (number or 0), -campaign_id if descending else campaign_id)

    ordered = sorted(ids, key=order)
    chosen = ordered[(page - 1) * page_size: page * page_size]
    rows = {row.id: row for row in campaigns.list_campaigns_page(db, page=1, page_size=max(1, len(chosen)),
                                                                 ids=chosen, **listed).rows} if chosen else {}
    return _page([rows[i] for i in chosen if i in rows], figures, len(ids), page, page_size)


def matching_ids(db: Session, *, actor: Actor, advertiser_id: int | None, status: str, search: str,
                 include_archived: bool) -> list[int]:
    """The ids of every campaign the list's filters match, in the actor's scope (one narrow query)."""
    query = campaigns.listed_query(actor, advertiser_id=advertiser_id, status=status, search=search,
                                   include_archived=include_archived)
    db.flush()
    return [int(r[0]) for r in db.connection().execute(query.with_only_columns(col(Campaign.id)))]


def _page(rows: list[CampaignListRow], figures: dict[int, dict[str, StatsValue]], total: int, page: int,
          page_size: int) -> CampaignFiguresPage:
    return CampaignFiguresPage(rows=[CampaignFiguresRow(campaign=row, figures=figures.get(row.id) or entity_figures.zeros())
                                     for row in rows], total=total, page=page, page_size=page_size)
