"""The grids' search box, one rule for every list it searches: each word typed must occur (any case, anywhere) in
one of the columns that list searches, so "spring acme" finds the campaign "Spring sale" of the advertiser "Acme
Ltd" and the order of the words does not matter. LIKE's wildcards in what was typed are matched as themselves.

In SQL, so the count and the page a grid reads agree with the search (app/kernel/numbered_pages.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_
from sqlmodel import func


def every_word(search: str, *columns: Any) -> list[Any]:
    """WHERE conditions, one a word of `search`: the word in one of `columns` (a NULL column matches no word).
    An empty search makes none: `query.where(*every_word(...))` then keeps every row."""
    return [or_(*(func.lower(column).contains(word, autoescape=True) for column in columns))
            for word in search.lower().split()]


def words_in_text(search: str, *texts: str) -> bool:
    """every_word's rule over texts made in Python (a list read whole and cut there, such as the statement)."""
    shown = [text.lower() for text in texts if text]
    return all(any(word in text for text in shown) for word in search.lower().split())
