"""Whole numbers in a request must fit the database's integers; one check for every API call.

Without it an id such as 14766569749463814144 reaches the database driver, which cannot bind it (SQLite raises
OverflowError, PostgreSQL "out of range") and the call failed with a 500. Installed once as a dependency of the
whole API (app/main.py), so every endpoint, present and future, answers 422 naming the field instead.

Two bounds. Every integer the API declares (path, query and form parameters typed int, and the integer fields of
a JSON body's model: ids, sizes, counts; found from the route's own declarations, once per route) is stored in or compared with an INTEGER column, which is 32 bits on
PostgreSQL: an id from 2**31 up passed SQLite and failed on PostgreSQL ("integer out of range", found by
Schemathesis). Numbers a body carries without declaring them an integer (free-form fields) must fit 64 bits.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import params
from fastapi.dependencies.utils import get_flat_params
from pydantic import TypeAdapter
from starlette.requests import Request

from app.kernel.errors import Invalid

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
OUT_OF_RANGE = f"Must be a whole number from {INT64_MIN} to {INT64_MAX}."
ID_OUT_OF_RANGE = f"Must be a whole number from {INT32_MIN} to {INT32_MAX}."
_WHOLE = re.compile(r"^[+-]?\d+$")
T = TypeVar("T")


def _text_problem(value: str) -> str | None:
    """A declared integer parameter's text that is a whole number outside the range (anything else is left to
    the endpoint's own validation)."""
    if not _WHOLE.match(value.strip()):
        return None
    return None if INT32_MIN <= int(value) <= INT32_MAX else ID_OUT_OF_RANGE


def _allows_integer(annotation: Any) -> bool:
    """Whether a parameter's type is an integer or a list of them (a text parameter may well be all digits: a
    search for an app's store id)."""
    try:
        schema = TypeAdapter(annotation).json_schema()
    except Exception:  # noqa: BLE001 - a type pydantic cannot describe is no integer we know of
        return False
    return _integer_schema(schema, schema.get("$defs", {}))


def _integer_schema(schema: dict[str, Any], defs: dict[str, Any]) -> bool:
    for branch in _branches(_resolve(schema, defs), defs):
        items = _resolve(branch.get("items"), defs)
        if branch.get("type") == "integer" or branch.get("type") == "array" and _integer_schema(items, defs):
            return True
    return False


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


def _resolve(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema if isinstance(schema, dict) else {}


def _branches(schema: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema itself and the alternatives it allows (Optional[...] is an anyOf)."""
    alternatives = [_resolve(s, defs) for key in ("anyOf", "oneOf", "allOf") for s in schema.get(key, ())]
    return [schema, *alternatives]


def _walk_declared(value: Any, schema: dict[str, Any], defs: dict[str, Any], path: str,
                   problems: dict[str, str]) -> None:
    """The body's values where its model declares an integer: each must fit 32 bits."""
    if isinstance(value, bool):
        return
    branches = _branches(_resolve(schema, defs), defs)
    if isinstance(value, int):
        if any(b.get("type") == "integer" for b in branches) and not INT32_MIN <= value <= INT32_MAX:
            problems[path or "body"] = ID_OUT_OF_RANGE
        return
    for branch in branches:
        if isinstance(value, dict):
            for key, item in value.items():
                inner = branch.get("properties", {}).get(key, branch.get("additionalProperties"))
                if isinstance(inner, dict):
                    _walk_declared(item, inner, defs, f"{path}.{key}" if path else str(key), problems)
        elif isinstance(value, list) and isinstance(branch.get("items"), dict):
            for index, item in enumerate(value):
                _walk_declared(item, branch["items"], defs, f"{path}[{index}]", problems)


def _per_route(build: Callable[[Any], T]) -> Callable[[Any], T]:
    """Built once per route and kept on the route itself (routes are not hashable, and each app has its own)."""
    attribute = f"_bounds_{build.__name__}"

    def cached(route: Any) -> T:
        if route is None:
            return build(route)
        if attribute not in vars(route):
            setattr(route, attribute, build(route))
        built: T = vars(route)[attribute]
        return built
    return cached


@_per_route
def _body_schema(route: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The JSON schema of a route's body model, or None when it has none we can read."""
    body_field = getattr(route, "body_field", None)
    if body_field is None:
        return None
    try:
        schema = TypeAdapter(body_field.field_info.annotation).json_schema()
    except Exception:  # noqa: BLE001 - a type pydantic cannot describe: the 64-bit bound still applies
        return None
    return schema, schema.get("$defs", {})


def _route(request: Request) -> Any:
    return request.scope.get("route")


@_per_route
def _integer_parameters(route: Any) -> frozenset[str]:
    """The names of a route's path, query and form parameters declared as integers."""
    dependant = getattr(route, "dependant", None)
    if dependant is None:
        return frozenset()
    names = {field.alias for field in get_flat_params(dependant) if _allows_integer(field.field_info.annotation)}
    body_field = getattr(route, "body_field", None)
    declared = _body_schema(route)
    if declared is not None and body_field is not None and isinstance(body_field.field_info, params.Form):
        names |= {name for name, field in declared[0].get("properties", {}).items()
                  if _integer_schema(field, declared[1])}
    return frozenset(names)


def _takes_form(request: Request) -> bool:
    """Whether the endpoint reads a form (multipart or urlencoded). Only then are form fields looked at: a form
    sent to an endpoint that reads none is not parsed here either."""
    body_field = getattr(_route(request), "body_field", None)
    return body_field is not None and isinstance(body_field.field_info, params.Form)


async def bounded_integers(request: Request) -> None:
    problems: dict[str, str] = {}
    integers = _integer_parameters(_route(request))
    for name, value in [*request.path_params.items(), *request.query_params.multi_items()]:
        if name in integers and (problem := _text_problem(str(value))):
            problems[name] = problem
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/json"):
        body = await request.body()  # cached by Starlette: the endpoint reads it again
        with contextlib.suppress(ValueError):  # not JSON: the endpoint's own validation says so
            value = json.loads(body or b"null")
            _walk(value, "", problems)
            declared = _body_schema(_route(request))
            if declared is not None:
                _walk_declared(value, declared[0], declared[1], "", problems)
    elif _takes_form(request):
        # An upload's form fields (a list id beside the file): FastAPI has already parsed the form for the
        # endpoint, before its dependencies, and Starlette caches it, so this reads no byte twice.
        for name, item in (await request.form()).multi_items():
            if name in integers and isinstance(item, str) and (problem := _text_problem(item)):
                problems[name] = problem
    if problems:
        raise Invalid(problems)
