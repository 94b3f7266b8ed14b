"""The one paging contract of the API's lists, declared once: `limit` and an opaque `cursor` in, a Page out.

Keyset paging: a cursor carries the last row's sort value and id, and the next page is the rows after that pair in
the list's order (`WHERE (key, id) > (last key, last id)`), so a row inserted or removed between two reads never
makes another row repeat or vanish, as LIMIT/OFFSET would. Every order ends with the id, so the pair is unique.

A cursor is base64url JSON {position, the list it belongs to} with an HMAC of the app's secret: a client cannot
forge positions or carry a cursor over to another sort or filter (either answers 422 naming `cursor`). It is
opaque to clients on purpose, so its contents may change between versions.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field
from sqlalchemy import and_, or_

from app.kernel.config import get_settings
from app.kernel.errors import Invalid

T = TypeVar("T")

DEFAULT_LIMIT = 50
MAX_LIMIT = 500
LIMIT_HELP = f"Rows a page, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})."
CURSOR_HELP = "The previous page's next_cursor, as given; leave out for the first page. Opaque."
BAD_CURSOR = "Not a cursor this list gave: start again without one."
OTHER_LIST = "This cursor belongs to another sort or filter: start again without one."


class Page(BaseModel, Generic[T]):
    """One page of a list. Ask for the next with `cursor=next_cursor`; null when this is the last."""

    items: list[T]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")
    total: int | None = Field(description="Rows the list's filters match in all; null where counting is not cheap.")
    limit: int = Field(description="The page size asked for.")


@dataclass(frozen=True)
class After:
    """Where the previous page ended: its last row's sort value and id."""

    value: Any
    id: int


def _scope_tag(scope: Mapping[str, Any]) -> str:
    """A short fingerprint of the list a cursor belongs to (its sort and filters)."""
    return hashlib.sha256(json.dumps(scope, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _mac(payload: bytes) -> bytes:
    return hmac.new(get_settings().secret_key.encode(), payload, hashlib.sha256).digest()[:12]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _plain(value: Any) -> Any:
    # JSON has no datetime: keep its type so the comparison binds a datetime again.
    return {"dt": value.isoformat()} if isinstance(value, datetime) else value


def _typed(value: Any) -> Any:
    return datetime.fromisoformat(value["dt"]) if isinstance(value, dict) else value


def encode_cursor(after: After, scope: Mapping[str, Any]) -> str:
    payload = json.dumps({"v": _plain(after.value), "i": after.id, "s": _scope_tag(scope)},
                         separators=(",", ":"), default=str).encode()
    return f"{_b64(payload)}.{_b64(_mac(payload))}"


def decode_cursor(cursor: str | None, scope: Mapping[str, Any]) -> After | None:
    """The position a cursor names, or None for no cursor. Raises Invalid naming `cursor` for anything this list
    did not give out."""
    if not cursor:
        return None
    try:
        body, mac = cursor.split(".")
        payload = _unb64(body)
        if not hmac.compare_digest(_unb64(mac), _mac(payload)):
            raise ValueError("signature")
        data = json.loads(payload)
        after = After(value=_typed(data["v"]), id=int(data["i"]))
        tag = data["s"]
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError):
        raise Invalid({"cursor": BAD_CURSOR}) from None
    if tag != _scope_tag(scope):
        raise Invalid({"cursor": OTHER_LIST})
    return after


def check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise Invalid({"limit": f"Ask for 1 to {MAX_LIMIT} rows a page."})


def after_condition(key: Any, ident: Any, after: After, *, descending: bool) -> Any:
    """SQL for "after this position" in an order of `key` (empty values last, either direction) then `ident`, in
    the same direction. Spelt out rather than as a row-value comparison: empty values sort last both ways, which
    `(key, id) > (:v, :i)` cannot say, and SQLite and PostgreSQL both plan it on the key's index."""
    beyond = ident < after.id if descending else ident > after.id
    if key is None:
        return beyond
    if after.value is None:  # among the empty values, which come last: only ties remain
        return and_(key.is_(None), beyond)
    past = key < after.value if descending else key > after.value
    return or_(past, and_(key == after.value, beyond), key.is_(None))


def next_cursor(rows: Sequence[Any], limit: int, scope: Mapping[str, Any],
                position: Callable[[Any], tuple[Any, int]]) -> str | None:
    """The cursor after a page, from up to limit + 1 rows read (the extra one only says that a next page exists):
    `position(row)` is a row's (sort value, id). None on the last page."""
    if len(rows) <= limit or limit < 1:
        return None
    return encode_cursor(After(*position(rows[limit - 1])), scope)


def page_of_list(rows: Sequence[T], *, limit: int, cursor: str | None, scope: Mapping[str, Any],
                 key: Callable[[T], list[Any]], ident: Callable[[T], int]) -> Page[T]:
    """A page of a list already read whole and in order, ascending by (key(row), ident(row)): for lists whose rows
    are decided or figured in Python (visibility per row, running balances, grouped statements), where SQL cannot
    cut the page. The same keyset contract: the next page is the rows after the cursor's (key, id), so a row
    added or removed between two reads moves no other row; `total` is free, as every row was read. A key is a
    list of JSON values (text, numbers), so the cursor's copy compares like the row's."""
    check_limit(limit)
    after = decode_cursor(cursor, scope)
    rest = list(rows) if after is None else [r for r in rows if [key(r), ident(r)] > [after.value, after.id]]
    return Page[T](items=rest[:limit], total=len(rows), limit=limit,
                   next_cursor=next_cursor(rest, limit, scope, lambda r: (key(r), ident(r))))
