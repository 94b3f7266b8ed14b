"""One page of a list for a server-paged grid (components/widgets/datagrid.py GridPaging): pages counted from 1, the
grid's sort by one of the list's columns, only the page's rows read (LIMIT/OFFSET) and the total by a COUNT.

Numbered pages rather than the API's keyset cursors (app/kernel/paging.py): the grid's pager names a page number and
a user may sort by columns no index covers, while the grids' lists stay in the tens of thousands, where an OFFSET
costs milliseconds. Declared once for the grids that page this way (creatives, audiences)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field
from sqlmodel import Session, func

from app.kernel.db import select_columns
from app.kernel.errors import Invalid

T = TypeVar("T")

MAX_PAGE_SIZE = 500


class NumberedPage(BaseModel, Generic[T]):
    """One page of a grid's list and how many rows its filters match in all."""

    rows: list[T]
    total: int
    page: int = Field(description="Counted from 1")
    page_size: int


def check_page(page: int, page_size: int, *, things: str, most: int = MAX_PAGE_SIZE) -> None:
    """Invalid naming `page` or `page_size` (`things`: what the list holds, for the message; `most`: a list whose
    rows cost more to make allows fewer a page)."""
    if page < 1:
        raise Invalid({"page": "Pages count from 1."})
    if not 1 <= page_size <= most:
        raise Invalid({"page_size": f"Show between 1 and {most} {things} a page."})


def column_order(sort: str, keys: Mapping[str, Any], tie: Any, *, default: str) -> list[Any]:
    """ORDER BY for `sort`, a key of `keys` ("-" first for descending; empty: `default`). A key's SQL is one
    expression, a tuple of them (a column shown from several), or None for `tie` alone (the id); empty values last
    either way, ties by `tie` in the same direction, so rows of equal values keep one order from page to page."""
    text = (sort or default).strip()
    descending, column = text.startswith("-"), text.lstrip("-")
    if column not in keys:
        raise Invalid({"sort": f"Sort by one of: {', '.join(keys)} (a leading - for descending)."})
    key = keys[column]
    parts = () if key is None else key if isinstance(key, tuple) else (key,)
    if descending:
        return [*(part.desc().nulls_last() for part in parts), tie.desc()]
    return [*(part.asc().nulls_last() for part in parts), tie.asc()]


def read_numbered(db: Session, query: Any, order: Sequence[Any], *, page: int,
                  page_size: int) -> tuple[Sequence[Any], int]:
    """(the page's raw rows of `query` (filters and row scope applied; an order of its own is replaced) in `order`,
    the rows it matches in all). The COUNT goes through the connection, which does not autoflush: this unit of
    work's changes are flushed first, so a row just written is counted."""
    db.flush()
    counted = select_columns(func.count()).select_from(query.order_by(None).subquery())
    total = db.connection().execute(counted).scalar_one()
    rows = db.exec(query.order_by(None).order_by(*order).limit(page_size).offset((page - 1) * page_size)).all()
    return rows, int(total)
