"""The `limit` and `cursor` query parameters every paged API list takes, declared once (the contract itself:
app/kernel/paging.py). A limit over the maximum answers 422 naming `limit` before the service is called."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Query

from app.kernel.paging import CURSOR_HELP, DEFAULT_LIMIT, LIMIT_HELP, MAX_LIMIT


@dataclass(frozen=True)
class PageQuery:
    limit: int
    cursor: str | None


def page_query(limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description=LIMIT_HELP),
               cursor: str | None = Query(None, max_length=2000, description=CURSOR_HELP)) -> PageQuery:
    return PageQuery(limit=limit, cursor=cursor)
