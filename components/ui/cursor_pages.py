"""A grid over a keyset-paged list (a service answering app.kernel.paging.Page): the same page function the API
calls, read a page at a time, and the grid's pager (GridPaging) driving it. The pager only steps to the previous
or next page, so the cursors of the pages read so far are kept as a stack: next pushes the shown page's
next_cursor, previous pops. New filters (or search) start again from the first page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reactpy import use_state

from components.ui.console import use_console
from components.ui.hooks import Query, use_query
from components.widgets.datagrid import GridPaging


@dataclass(frozen=True)
class _Position:
    """The cursors of the first page up to the shown one (the first page's is None), for these filters."""

    filters: tuple[Any, ...]
    cursors: tuple[str | None, ...] = (None,)


@dataclass(frozen=True)
class CursorPages:
    query: Query  # its value: the shown Page, or None while the first load runs
    paging: GridPaging

    @property
    def items(self) -> list[Any]:
        return list(self.query.value.items) if self.query.value is not None else []


def use_cursor_pages(read: Callable[..., Any], /, *, filters: Sequence[Any], page_size: int,
                     **kwargs: Any) -> CursorPages:
    """Page `read(..., limit=page_size, cursor=...)` (its other arguments in kwargs; `filters`: the ones that
    change, which restart at the first page)."""
    t = use_console().t
    key = tuple(filters)
    position, set_position = use_state(_Position(key))
    # Filters changed since the cursors were kept: this render already reads the first page of the new ones.
    cursors = position.cursors if position.filters == key else (None,)
    query = use_query(read, limit=page_size, cursor=cursors[-1], **kwargs, deps=[*key, cursors])
    shown = query.value

    def step(page: int) -> None:
        if page < len(cursors) and len(cursors) > 1:
            set_position(_Position(key, cursors[:-1]))
        elif page > len(cursors) and shown is not None and shown.next_cursor:
            set_position(_Position(key, (*cursors, shown.next_cursor)))

    total = shown.total if shown is not None and shown.total is not None else 0
    return CursorPages(query, GridPaging(total=total, page=len(cursors), page_size=page_size, on_page_change=step,
                                         label=t("grid.page"), previous_label=t("grid.previous_page"),
                                         next_label=t("grid.next_page")))
