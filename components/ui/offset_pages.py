"""A grid over a list a service pages by number (its answer: `rows` of one page and the `total` its filters match,
as campaigns.list_campaigns_page): the grid's search and sort (GridListing) and the page asked for go to the
service, which reads only the page's rows. A new search, sort or filter starts again from the first page. (Keyset
lists, which only step to the next or previous page, use cursor_pages.use_cursor_pages.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reactpy import use_state

from components.ui.console import use_console
from components.ui.hooks import Query, use_query
from components.widgets.datagrid import GridListing, GridPaging, GridView


@dataclass(frozen=True)
class _Shown:
    """The listing shown, for these filters."""

    filters: tuple[Any, ...]
    listing: GridListing = GridListing()

    def under(self, filters: tuple[Any, ...]) -> GridListing:
        """The listing to read under `filters`: other filters keep the search and sort, from the first page."""
        return self.listing if self.filters == filters else replace(self.listing, page=1)


@dataclass(frozen=True)
class OffsetPages:
    query: Query  # its value: the service's page, or None while the first load runs
    paging: GridPaging
    on_view_change: Callable[[GridView], None]  # hand to data_grid: the search and sort typed or clicked

    @property
    def rows(self) -> list[Any]:
        return list(self.query.value.rows) if self.query.value is not None else []


def use_offset_pages(read: Callable[..., Any], /, *, filters: Sequence[Any], page_size: int,
                     **kwargs: Any) -> OffsetPages:
    """Page `read(..., search=, sort=, page=, page_size=)` (its other arguments in kwargs; `filters`: the ones that
    change, which restart at the first page)."""
    t = use_console().t
    key = tuple(filters)
    shown, set_shown = use_state(_Shown(key))
    listing = shown.under(key)
    query = use_query(read, search=listing.search, sort=listing.sort, page=listing.page, page_size=page_size,
                      **kwargs, deps=[*key, listing])

    # Functional setters: events that arrive together each see the state the one before left (ARCHITECTURE.md).
    def seen(view: GridView) -> None:
        set_shown(lambda old: _Shown(key, old.under(key).seen(view)))

    def to_page(page: int) -> None:
        set_shown(lambda old: _Shown(key, replace(old.under(key), page=page)))

    total = query.value.total if query.value is not None else 0
    return OffsetPages(query, GridPaging(total=total, page=listing.page, page_size=page_size, on_page_change=to_page,
                                         label=t("grid.page"), previous_label=t("grid.previous_page"),
                                         next_label=t("grid.next_page")), seen)
