"""An API call's writes are committed on the thread that made them, as its route returns.

FastAPI runs a plain (`def`) route on a pool thread, then checks its reply on another pool thread, and only then ends
the dependencies (where app/web/deps.py get_db commits). Under a burst of writes every pool thread was taken by calls
waiting for a database connection or for their turn to write (app/kernel/sqlite_writes.py), while the call whose
turn it was waited for a free pool thread to check its reply on before it could commit: nothing moved until the
waits timed out (50 writes at once for one advertiser, issue 38). Committed here, a call's transaction ends on the
thread that holds it, before it needs anything else; get_db's own commit then finds nothing left to do."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from sqlmodel import Session

_COMMITS_IN_ROUTE = "_commits_in_route"


def committing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """`endpoint` (a plain route taking the unit of work as `db`), committing `db` once it has returned."""
    if (inspect.iscoroutinefunction(endpoint) or getattr(endpoint, _COMMITS_IN_ROUTE, False)
            or "db" not in inspect.signature(endpoint).parameters):
        return endpoint

    @functools.wraps(endpoint)  # FastAPI reads the route's parameters (and their module) through __wrapped__
    def route(*args: Any, **kwargs: Any) -> Any:
        answer = endpoint(*args, **kwargs)
        db = kwargs.get("db")
        if isinstance(db, Session):
            db.commit()
        return answer

    setattr(route, _COMMITS_IN_ROUTE, True)
    return route


class CommittingAPI(FastAPI):
    """The API's app: every router included into it commits in its routes (see above)."""

    def include_router(self, router: APIRouter, *args: Any, **kwargs: Any) -> None:
        for route in router.routes:
            if isinstance(route, APIRoute):
                route.endpoint = committing(route.endpoint)  # include_router builds its routes from .endpoint
        super().include_router(router, *args, **kwargs)
