"""One page of a SQL list by the paging contract (app/kernel/paging.py), for the lists whose order is one column
(or SQL expression) then the id: decode the cursor, COUNT what the filters match, read limit + 1 rows after the
cursor's position, and cut the page with its next cursor. Declared once so each list only says its query, its
order and how a row is shown. (A list whose order SQL cannot say, natural name order, pages its own way:
app/campaigns/service.py.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlmodel import Session, func, select

from app.kernel.paging import Page, after_condition, check_limit, decode_cursor, next_cursor

T = TypeVar("T")


@dataclass(frozen=True)
class KeysetOrder:
    """A list's one order: `key` then `ident`, both the same way. `key` is never NULL in these lists (None: the
    id alone), so the plain ORDER BY matches after_condition and stays on the key's index."""

    key: Any
    ident: Any
    descending: bool = False

    def order_by(self) -> tuple[Any, ...]:
        columns = (self.ident,) if self.key is None else (self.key, self.ident)
        return tuple(column.desc() if self.descending else column.asc() for column in columns)


def newest_first(ident: Any) -> KeysetOrder:
    """The API lists' default order: newest first by id, which no save changes. Under a last-changed or by-name
    order a save moved a row past a reader's cursor mid-walk (a rename sent a campaign to the front), and that reader
    skipped it: 249 of 250 read (issue 38 item 11). A sort the caller asks for by a column a save can change is
    the caller's choice; the default never is one."""
    return KeysetOrder(None, ident, descending=True)


def read_page(db: Session, query: Any, order: KeysetOrder, *, limit: int, cursor: str | None,
              scope: Mapping[str, Any], position: Callable[[Any], tuple[Any, int]],
              shown: Callable[[Sequence[Any]], list[T]], counted: bool = True) -> Page[T]:
    """The page of `query` (filters and row scope applied, no order) after `cursor`. `scope` names the list and
    its filters (a cursor of another list or filter answers 422); `position(row)` is a raw row's (key, id);
    `shown(rows)` makes the page's items of its raw rows (so per-row lookups cost a page, not the list);
    `counted=False` leaves `total` null where a COUNT would not be cheap."""
    check_limit(limit)
    after = decode_cursor(cursor, scope)
    total = int(db.exec(select(func.count()).select_from(query.order_by(None).subquery())).one()) if counted else None
    if after is not None:
        query = query.where(after_condition(order.key, order.ident, after, descending=order.descending))
    raw = db.exec(query.order_by(*order.order_by()).limit(limit + 1)).all()
    return Page(items=shown(raw[:limit]), total=total, limit=limit,
                next_cursor=next_cursor(raw, limit, scope, position))
