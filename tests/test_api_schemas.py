"""Typed boundaries (issue 22, deliverable 3): every route of the API shows its request and its response in
/api/openapi.json, so a generated client knows what to send and what comes back. Each domain's services take and
answer its schemas (its schemas.py) and its routes declare them; a route added without them fails here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, TypeAdapter, ValidationError

from app.main import create_api
from app.web.envelope import ErrorEnvelope
from app.web.openapi_document import example_of, reply_data_schemas

# Every route module of the console (the browser's own calls, left out of the schema, are not the API's).
TYPED_DOMAINS = ["app"]

BODY_TYPES = ("application/json", "multipart/form-data", "application/x-www-form-urlencoded")


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _typed(spec: dict[str, Any], schema: dict[str, Any]) -> bool:
    """A schema that says what the value is: a scalar, null, a list of typed items, an object with named
    properties. `{}` (Any) and a bare object (dict[str, Any]) say nothing."""
    schema = _resolve(spec, schema)
    if "anyOf" in schema:
        return all(_typed(spec, option) for option in schema["anyOf"])
    kind = schema.get("type")
    if kind in ("string", "integer", "number", "boolean", "null") or "enum" in schema or "const" in schema:
        return True
    if kind == "array":
        return _typed(spec, schema.get("items", {}))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):  # {name: a typed value}
        return _typed(spec, schema["additionalProperties"])
    return kind == "object" and bool(schema.get("properties"))


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for route in iter_route_contexts(create_api().routes):
        module = getattr(route.endpoint, "__module__", "")
        if not getattr(route.route, "include_in_schema", True):  # the browser's own calls, not the API's
            continue
        if any(module == domain or module.startswith(domain + ".") for domain in TYPED_DOMAINS):
            for method in sorted(route.methods or ()):
                yield f"{method} {route.path_format}", spec["paths"][route.path_format][method.lower()]


def test_every_route_of_a_typed_domain_has_a_request_and_a_response_schema() -> None:
    spec = create_api().openapi()
    untyped, seen = [], []
    for name, operation in _operations(spec):
        seen.append(name)
        for parameter in operation.get("parameters", []):
            if not _typed(spec, parameter.get("schema", {})):
                untyped.append(f"{name}: parameter {parameter['name']}")
        body = operation.get("requestBody", {}).get("content", {})
        for kind in set(body) & set(BODY_TYPES):
            if not _typed(spec, body[kind]["schema"]):
                untyped.append(f"{name}: request body")
        success = next((code for code in ("200", "201", "202") if code in operation["responses"]), None)
        if success is None and any(code.startswith("3") for code in operation["responses"]):
            continue  # it answers a redirect (a 303 to Stripe's checkout page): a Location, no body to type
        # 202: accepted and queued (a DSP push), with its own typed answer
        answer = operation["responses"].get(success or "200", {}).get("content", {}).get("application/json", {})
        envelope = _resolve(spec, answer.get("schema", {}))
        data = envelope.get("properties", {}).get("data")
        if data is None or not _typed(spec, data):
            untyped.append(f"{name}: response")
    assert seen, "no route found for the typed domains"
    assert untyped == []


def _examples(spec: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """The bodies the document shows for a request schema: its own examples, or those of the model of an optional
    body (`Model | None`)."""
    schema = _resolve(spec, schema)
    shown = list(schema.get("examples", [])) + ([schema["example"]] if "example" in schema else [])
    return shown or [body for option in schema.get("anyOf", []) for body in _examples(spec, option)]


def test_every_json_body_shows_an_example_that_the_call_accepts() -> None:
    """/docs fills each create and update call's body from its example: every operation taking JSON has one, and
    each example passes the call's own validation (a stale example would teach integrators a refused body)."""
    spec = create_api().openapi()
    missing, refused = [], []
    for route in iter_route_contexts(create_api().routes):
        body_field = getattr(route.route, "body_field", None)
        if body_field is None or not getattr(route.route, "include_in_schema", True):
            continue
        for method in sorted(route.methods or ()):
            name = f"{method} {route.path_format}"
            media = spec["paths"][route.path_format][method.lower()]["requestBody"]["content"]
            if "application/json" not in media:
                continue
            shown = _examples(spec, media["application/json"]["schema"])
            if not shown:
                missing.append(name)
            for body in shown:
                try:
                    TypeAdapter(body_field.field_info.annotation).validate_python(body)
                except ValidationError as error:
                    refused.append(f"{name}: {error.errors()[0]['loc']} {error.errors()[0]['msg']}")
    assert not missing, "No example for the body of:\n  " + "\n  ".join(missing)
    assert not refused, "An example the call refuses:\n  " + "\n  ".join(refused)


def test_every_reply_example_is_a_reply_the_call_could_give() -> None:
    """The examples of reply models (the `data` of Envelope[...]) pass their model's validation, so a generated
    client's documentation never shows a shape the API does not answer (a model inheriting its parent's example
    would fail here)."""
    wrong = []
    for route in iter_route_contexts(create_api().routes):
        envelope = getattr(route.route, "response_model", None)
        data = getattr(envelope, "model_fields", {}).get("data")
        answer = getattr(data, "annotation", None)
        if not (isinstance(answer, type) and issubclass(answer, BaseModel)):
            continue
        extra = answer.model_config.get("json_schema_extra")
        for body in extra.get("examples", []) if isinstance(extra, dict) else []:
            try:
                answer.model_validate(body)
            except ValidationError as error:
                wrong.append(f"{answer.__name__}: {error.errors()[0]['loc']} {error.errors()[0]['msg']}")
    assert not wrong, "A reply example its model refuses:\n  " + "\n  ".join(sorted(set(wrong)))


def test_every_reply_shows_an_example_that_its_model_accepts() -> None:
    """Every call's success reply shows a filled `data` in the document (the model's own example, or one built from
    its schema by app/web/openapi_document.py), and what it shows passes the reply model's validation."""
    api = create_api()
    spec = api.openapi()
    shown = dict(reply_data_schemas(spec))
    missing, refused = [], []
    for route in iter_route_contexts(api.routes):
        data = getattr(getattr(route.route, "response_model", None), "model_fields", {}).get("data")
        if data is None or not getattr(route.route, "include_in_schema", True):
            continue
        for method in sorted(route.methods or ()):
            name = f"{method} {route.path_format}"
            schema = shown[name]
            for ref in _top_refs(schema):
                if not spec["components"]["schemas"][ref].get("examples"):
                    missing.append(f"{name}: {ref}")
            try:
                TypeAdapter(data.annotation).validate_python(example_of(spec, schema))
            except ValidationError as error:
                refused.append(f"{name}: {error.errors()[0]['loc']} {error.errors()[0]['msg']}")
    assert shown and not missing, "A reply model without an example:\n  " + "\n  ".join(missing)
    assert not refused, "A reply example its model refuses:\n  " + "\n  ".join(refused)


def _top_refs(schema: dict[str, Any]) -> list[str]:
    """The models a `data` schema names: itself, its items, its options."""
    if "$ref" in schema:
        return [schema["$ref"].rsplit("/", 1)[1]]
    return [ref for part in (schema.get("items"), *schema.get("anyOf", [])) if isinstance(part, dict)
            for ref in _top_refs(part)]


def test_every_4xx_of_every_operation_documents_the_error_shape() -> None:
    """An integrator reads one error shape for every refusal: each 4xx of each operation is the error envelope
    (code, message, data.fields naming each wrong field) with an example of that status; a 429 says Retry-After."""
    spec = create_api().openapi()
    details = spec["components"]["schemas"]["ErrorDetails"]["properties"]
    assert {"code", "message", "data"} <= set(spec["components"]["schemas"]["ErrorEnvelope"]["properties"])
    assert "fields" in details
    wrong, statuses = [], set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            name = f"{method.upper()} {path}"
            refusals = {code: r for code, r in operation["responses"].items() if code.startswith("4")}
            if not {"401", "422"} <= set(refusals) and operation.get("security") != []:
                wrong.append(f"{name}: only {sorted(refusals)}")
            for code, response in refusals.items():
                statuses.add(code)
                body = response.get("content", {}).get("application/json", {})
                if body.get("schema") != {"$ref": "#/components/schemas/ErrorEnvelope"}:
                    wrong.append(f"{name} {code}: {body.get('schema')}")
                    continue
                shown = ErrorEnvelope.model_validate(body["example"])
                if shown.code != int(code) or shown.success:
                    wrong.append(f"{name} {code}: example {body['example']}")
                if code == "422" and not (shown.data and shown.data.fields):
                    wrong.append(f"{name} 422: the example names no field")
                if code == "429" and "Retry-After" not in response.get("headers", {}):
                    wrong.append(f"{name} 429: no Retry-After")
    assert not wrong, "\n".join(wrong)
    assert {"400", "401", "403", "404", "409", "422", "429"} <= statuses
