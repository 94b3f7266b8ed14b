"""What the OpenAPI document adds to what FastAPI generates, in one place and derived rather than written per route:

- an example on every model a call answers with (its `data`): a model's own example (app/kernel/schema_examples.py)
  where it declares one, else one built from its schema (field types, formats, bounds and names), so /docs and a
  generated client show a filled reply for every call;
- the error shape on every 4xx of every operation: the envelope ({success: false, code, message, data}, `data.fields`
  naming each wrong field), an example for that status, and `Retry-After` on a 429.

tests/test_api_schemas.py checks both: every reply example passes its model's validation, every 4xx is documented.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

ERROR_SCHEMA = "#/components/schemas/ErrorEnvelope"
SUCCESS = ("200", "201", "202")

# A 4xx's example message by status (the 422's fields: one named field, as the API names them).
ERROR_EXAMPLES: dict[int, tuple[str, dict[str, Any] | None]] = {
    400: ("The request body is not valid JSON.", None),
    401: ("Please sign in.", None),
    403: ("Your role cannot do this.", None),
    404: ("Not found.", None),
    409: ("This is in use and cannot be removed.", None),
    413: ("The upload is larger than this call accepts.", None),
    422: ("name: Give it a name.", {"fields": {"name": "Give it a name."}}),
    429: ("Too many requests: try again in 30 seconds.", None),
}
RETRY_AFTER = {"description": "Seconds to wait before trying again.", "required": True, "schema": {"type": "integer"}}


def document(api: FastAPI) -> None:
    """Make `api.openapi()` answer the document with the additions above (built once, as FastAPI caches it)."""
    generate = api.openapi

    def openapi() -> dict[str, Any]:
        if api.openapi_schema is None:
            spec = generate()
            restore_nulls(spec)
            add_reply_examples(spec)
            document_errors(spec)
            api.openapi_schema = spec
        return api.openapi_schema

    api.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend its document


# --- replies ---------------------------------------------------------------------------------------------------

def _components(spec: dict[str, Any]) -> dict[str, Any]:
    schemas: dict[str, Any] = spec.get("components", {}).get("schemas", {})
    return schemas


def reply_data_schemas(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """("METHOD /path", the schema of `data`) of every operation's JSON success reply in the envelope."""
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status in SUCCESS:
                schema = (operation["responses"].get(status, {}).get("content", {}).get("application/json", {})
                          .get("schema"))
                if schema is None:
                    continue
                envelope = _components(spec).get(schema.get("$ref", "").rsplit("/", 1)[-1], schema)
                data = envelope.get("properties", {}).get("data")
                if data is not None:
                    found.append((f"{method.upper()} {path}", data))
    return found


def add_reply_examples(spec: dict[str, Any]) -> None:
    """An `examples` entry on every component schema a success reply's `data` reaches that has none."""
    components = _components(spec)
    seen: set[str] = set()

    def visit(schema: Any) -> None:
        if isinstance(schema, list):
            for item in schema:
                visit(item)
            return
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name in seen or name not in components:
                return
            seen.add(name)
            visit(components[name])
            if not components[name].get("examples"):
                components[name]["examples"] = [example_of(spec, components[name])]
            return
        for key, value in schema.items():
            if key not in ("examples", "example", "default", "const", "enum"):
                visit(value)

    for _name, data in reply_data_schemas(spec):
        visit(data)


def restore_nulls(spec: dict[str, Any]) -> None:
    """Put back the nulls of the models' own examples: FastAPI writes the document without null values (its
    encoder's exclude_none), which also drops an example's `"ends_at": null`, and the example then lacks a required
    field. A required property missing from an example whose schema allows null was exactly such a null."""
    components = _components(spec)

    def fill(value: Any, schema: dict[str, Any], depth: int = 0) -> None:
        if depth > 8:
            return
        if "$ref" in schema:
            fill(value, components.get(schema["$ref"].rsplit("/", 1)[-1], {}), depth + 1)
        elif isinstance(value, list) and "items" in schema:
            for item in value:
                fill(item, schema["items"], depth + 1)
        elif isinstance(value, dict):
            properties = schema.get("properties", {})
            for name in schema.get("required", []):
                if name not in value and _allows_null(properties.get(name, {})):
                    value[name] = None
            for name, item in value.items():
                if name in properties:
                    fill(item, properties[name], depth + 1)
            for option in schema.get("anyOf", []) + schema.get("allOf", []):
                fill(value, option, depth + 1)

    for schema in components.values():
        for shown in schema.get("examples", []):
            fill(shown, schema)


def _allows_null(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "null" or any(option.get("type") == "null" for option in schema.get("anyOf", []))


# Values for strings by what their field is called (the first name part that matches wins), so a built example
# reads like a reply: an `email` holds an address, a `budget` an amount in dollars. Name parts are matched whole
# where a short word hides in longer ones ("end" in "spend").
_NAMED_TEXT: tuple[tuple[str, str], ...] = (
    (r"email", "ada@example.com"), (r"url|link|href|endpoint", "https://example.com/path"),
    (r"_at$|^date_?time|timestamp|^created$|^updated$", "2026-11-26T09:30:00Z"),
    (r"date|^day$|(^|_)(start|end)(_|$)|period|_on$", "2026-11-26"), (r"error", ""), (r"_id$|^id$", "c-1042"),
    (r"budget|bid|balance|amount|spend|spent|price|cost|revenue|cpm|cpc|cpa|ecpm|total|fee|expected|deposit|charge",
     "125.00"),
    (r"margin|percent|rate|ctr|vcr", "15.00"), (r"currency", "USD"), (r"country", "US"), (r"language", "en"),
    (r"time_zone|timezone", "UTC"), (r"status|state", "active"), (r"role", "ADVERTISER"),
    (r"message|reason|note|description|help", "Done."), (r"token|secret|key", "dsp_3fa85f64b1c2"),
    (r"filename|file_name|file", "report.csv"), (r"content_type|mime", "text/csv"), (r"^type$|kind", "image"),
    (r"company|agency|advertiser", "Acme Apps Ltd"), (r"first_name|firstname", "Ada"),
    (r"last_name|lastname", "Lovelace"), (r"name|title|label", "Spring sale"),
)
_FORMATS = {"date-time": "2026-11-26T09:30:00Z", "date": "2026-11-26", "email": "ada@example.com",
            "uri": "https://example.com/path", "binary": "", "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6"}


def _text(schema: dict[str, Any], name: str) -> str:
    value: str | None = _FORMATS.get(schema.get("format", ""))
    if value is None:  # by the field's name, else by what its description says it holds
        said = f"{name} {schema.get('description', '')}".lower()
        value = next((text for pattern, text in _NAMED_TEXT if re.search(pattern, name.lower())),
                     "125.00" if re.search(r"dollar|amount", said) else "example")
    pattern = schema.get("pattern")
    if pattern and not re.search(pattern, value):
        # A value of the field's own pattern where the name's guess does not fit (a code, an id of letters).
        value = next((c for c in ("125.00", "US", "abc", "ABC", "1", "a-1", "") if re.search(pattern, c)), value)
    low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
    value = value + "x" * max(0, low - len(value))
    return value[:int(high)] if high is not None else value


def _number(schema: dict[str, Any], name: str, whole: bool) -> int | float:
    value: int | float = 12_500_000 if name.endswith("_micros") else 7 if whole else 12.5
    if "minimum" in schema:
        value = max(value, schema["minimum"])
    if "exclusiveMinimum" in schema:
        value = max(value, schema["exclusiveMinimum"] + 1)
    if "maximum" in schema:
        value = min(value, schema["maximum"])
    if "exclusiveMaximum" in schema:
        value = min(value, schema["exclusiveMaximum"] - 1)
    return int(value) if whole else value


def example_of(spec: dict[str, Any], schema: dict[str, Any], name: str = "", depth: int = 0) -> Any:
    """A value of `schema` built from it: its own example or default where given, else by type (bounds kept, a
    string chosen by the field's name and format). `name` is the field it is for."""
    components = _components(spec)
    if "$ref" in schema:
        target = components[schema["$ref"].rsplit("/", 1)[-1]]
        shown = target.get("examples")
        return shown[0] if shown else example_of(spec, target, name, depth + 1)
    if schema.get("examples"):
        return schema["examples"][0]
    for key in ("const", "example"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    if schema.get("default") is not None:
        return schema["default"]
    options = schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
    if options:
        typed = [option for option in options if option.get("type") != "null"]
        return example_of(spec, typed[0], name, depth) if typed else None
    builders: dict[str, Callable[[], Any]] = {
        "string": lambda: _text(schema, name),
        "integer": lambda: _number(schema, name, whole=True),
        "number": lambda: _number(schema, name, whole=False),
        "boolean": lambda: True,
        "null": lambda: None,
        "array": lambda: [example_of(spec, schema.get("items", {}), name, depth + 1)
                          for _ in range(max(1, schema.get("minItems", 1)))] if depth < 8 else [],
        "object": lambda: _object(spec, schema, depth),
    }
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"]
        kind = next((k for k in kind if k != "null"), "null")
    return builders[kind]() if kind in builders else None


def _object(spec: dict[str, Any], schema: dict[str, Any], depth: int) -> dict[str, Any]:
    if depth >= 8:
        return {}
    properties = schema.get("properties", {})
    if properties:
        return {key: example_of(spec, value, key, depth + 1) for key, value in properties.items()}
    extra = schema.get("additionalProperties")
    return {"name": example_of(spec, extra, "name", depth + 1)} if isinstance(extra, dict) else {}


# --- errors ----------------------------------------------------------------------------------------------------

def error_example(status: int) -> dict[str, Any]:
    message, data = ERROR_EXAMPLES.get(status, ("Refused.", None))
    return {"success": False, "code": status, "message": message, "data": data}


def document_errors(spec: dict[str, Any]) -> None:
    """Every 4xx of every operation in the error envelope, with an example of its status; a 429 with Retry-After."""
    for operations in spec["paths"].values():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                if not status.startswith("4"):
                    continue
                response["content"] = {"application/json": {"schema": {"$ref": ERROR_SCHEMA},
                                                             "example": error_example(int(status))}}
                if status == "429":
                    response.setdefault("headers", {})["Retry-After"] = RETRY_AFTER
