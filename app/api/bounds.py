"""Whole numbers in a request must fit the database's 64-bit integers; one check for every API call.

Without it an id such as 14766569749463814144 reaches the database driver, which cannot bind it (SQLite raises
OverflowError, PostgreSQL "out of range") and the call failed with a 500. Path, query, JSON body and form fields
(an upload's list id) are all checked. Installed once as a dependency of the
whole API (app/main.py), so every endpoint, present and future, answers 422 naming the field instead.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from fastapi import params
from starlette.requests import Request

from app.errors import Invalid

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
OUT_OF_RANGE = f"Must be a whole number from {INT64_MIN} to {INT64_MAX}."
_WHOLE = re.compile(r"^[+-]?\d+$")


def _too_big_text(value: str) -> bool:
    return bool(_WHOLE.match(value.strip())) and not INT64_MIN <= int(value) <= INT64_MAX


def _walk(value: Any, path: str, problems: dict[str, str]) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            problems[path or "body"] = OUT_OF_RANGE
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, f"{path}.{key}" if path else str(key), problems)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, f"{path}[{index}]", problems)


def _takes_form(request: Request) -> bool:
    """Whether the endpoint reads a form (multipart or urlencoded). Only then are form fields looked at: a form
    sent to an endpoint that reads none is not parsed here either."""
    route = request.scope.get("route")
    body_field = getattr(route, "body_field", None)
    return body_field is not None and isinstance(body_field.field_info, params.Form)


async def bounded_integers(request: Request) -> None:
    problems: dict[str, str] = {}
    for name, value in request.path_params.items():
        if isinstance(value, str) and _too_big_text(value) or isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
            problems[name] = OUT_OF_RANGE
    for name, value in request.query_params.multi_items():
        if _too_big_text(value):
            problems[name] = OUT_OF_RANGE
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/json"):
        body = await request.body()  # cached by Starlette: the endpoint reads it again
        with contextlib.suppress(ValueError):  # not JSON: the endpoint's own validation says so
            _walk(json.loads(body or b"null"), "", problems)
    elif _takes_form(request):
        # An upload's form fields (a list id beside the file): FastAPI has already parsed the form for the
        # endpoint, before its dependencies, and Starlette caches it, so this reads no byte twice.
        for name, value in (await request.form()).multi_items():
            if isinstance(value, str) and _too_big_text(value):
                problems[name] = OUT_OF_RANGE
    if problems:
        raise Invalid(problems)
