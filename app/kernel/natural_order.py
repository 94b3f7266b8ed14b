"""Names in the order people read them ("Wave 2" before "Wave 10"), as a stored, indexed column: SQL has no portable
natural order, so each sortable name keeps a key beside it whose plain byte order is that order. The lists then
sort and page (keyset) by the key in SQL, on an index, instead of reading and sorting every match in Python.

The key: text case-folded, each run of digits as its length (three digits) then the digits without leading zeros,
the parts joined by \\x01, which sorts before every character a name holds, so a shorter text sorts first as it
does in Python ("wave" < "wave 2"). Byte order is code point order in UTF-8, the order Python compares strings
in; SQLite compares text bytewise (BINARY) and PostgreSQL does under COLLATE "C", which the column declares there
(a linguistic collation such as en_US would ignore the separator and reorder punctuation).

Hand-written rather than a library's (natsort): the key must be a string a database can index, and natsort's
keys are Python tuples.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import String, event
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlmodel import Field

_DIGITS = re.compile(r"(\d+)")
_JOIN = "\x01"
# A name holds at most a few hundred characters, so a digit run's length fits in three digits.
_LENGTH_DIGITS = 3

# The column's type: byte order on PostgreSQL too (SQLite's default, BINARY, already is).
SORT_KEY_TYPE = String().with_variant(String(collation="C"), "postgresql")


def natural_sort_key(text: str) -> str:
    """"Wave 10" -> "wave \\x01" "002" "10" "\\x01": compare two keys as strings to compare the names naturally."""
    parts = _DIGITS.split(text.casefold())
    # The split keeps text at even places and digit runs at odd ones.
    return _JOIN.join(_number(part) if i % 2 else part for i, part in enumerate(parts))


def _number(digits: str) -> str:
    significant = digits.lstrip("0") or "0"
    return f"{len(significant):0{_LENGTH_DIGITS}d}{significant}"


# What a row's key is made of: its shown name, from a getter of its column values (insert parameters or attributes).
TextOf = Callable[[Callable[[str], Any]], str]


def name_column(value: Callable[[str], Any]) -> str:
    """The TextOf of a model whose shown name is its `name` column (campaigns, creatives, audiences, ...)."""
    return str(value("name"))


def sort_key_field(text_of: TextOf) -> Any:
    """The key column of a model (index it with the id, in the model's __table_args__), filled on every INSERT from the row's own values (an ORM add or a bulk
    insert alike: a column default that reads the statement's parameters). keep_sort_key keeps it on updates."""

    def on_insert(context: DefaultExecutionContext) -> str:
        given: Mapping[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]  # untyped in SQLAlchemy
        return natural_sort_key(text_of(lambda name: given.get(name) or ""))

    return Field(default=None, nullable=False, sa_type=SORT_KEY_TYPE,
                 sa_column_kwargs={"default": on_insert})


def keep_sort_key(model: type[Any], attribute: str, text_of: TextOf) -> None:
    """Recompute `attribute` whenever an ORM update of a `model` row is flushed (a rename: the key follows the name
    whichever service renamed it)."""

    def on_update(_mapper: Any, _connection: Any, row: Any) -> None:
        setattr(row, attribute, natural_sort_key(text_of(lambda name: getattr(row, name) or "")))

    event.listen(model, "before_update", on_update)
