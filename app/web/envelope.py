"""The reply shape of every API call: {success, code, message, data} (spec section 8)."""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

import duckdb
from botocore.exceptions import BotoCoreError, ClientError
from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import get_route_path  # type: ignore[attr-defined]  # re-imported there, not listed as exported

from app.kernel import errors, log_context
from app.kernel.errors import Invalid, ServiceError
from app.kernel.faults import Unavailable, infrastructure_error
from app.kernel.i18n.catalog import DEFAULT_LANGUAGE, translator

logger = logging.getLogger(__name__)
# The pages' wording, in English (the API's language).
UNEXPECTED_ERROR = translator(DEFAULT_LANGUAGE)("common.unexpected_error")


T = TypeVar("T")


def ok(data: Any = None, message: str = "OK") -> dict[str, Any]:
    return {"success": True, "code": 200, "message": message, "data": data}


class Envelope(BaseModel, Generic[T]):
    """A success: `data` is the call's answer. A route returning Envelope[XRead] shows that schema in OpenAPI."""

    success: bool = Field(True, description="Always true for a success.")
    code: int = Field(200, description="The HTTP status code.")
    message: str = Field("OK", description="What was done, in words for a person.")
    data: T


def reply(data: T, message: str = "OK") -> Envelope[T]:
    """ok() for a typed route: the same JSON, with `data` validated against the route's schema."""
    return Envelope(data=data, message=message)


# Where the API is mounted (app/main.py): a Location header names the new record's URL as a client calls it.
API_ROOT = "/api"


# What a create that answers with Location declares (responses=...), so generated clients read the header.
LOCATION_HEADER: dict[int | str, dict[str, Any]] = {201: {"description": "Created: the new record, whose URL under /api "
                                                                     "is in the Location header.", "headers": {
    "Location": {"description": "The new record's URL, e.g. /api/campaigns/7", "required": True,
                 "schema": {"type": "string"}}}}}


def created(response: Response, data: T, message: str, location: str | None = None) -> Envelope[T]:
    """A create's answer: 201, and the new record's URL under /api in `Location` (`location` is the path of its
    GET, e.g. `/campaigns/7`) when the API can read it back. The route declares status_code=201 too, so the
    OpenAPI document lists the answer under 201."""
    response.status_code = 201
    if location is not None:
        response.headers["Location"] = API_ROOT + location
    return Envelope(data=data, message=message, code=201)


P = ParamSpec("P")


def spec_call(endpoint: Callable[P, Envelope[T]]) -> Callable[P, Envelope[T]]:
    """A create endpoint served under one of the spec's call names (section 7): the spec's client was written
    against 200 answers, so these compatibility routes keep answering 200 without a Location; the REST path
    answers 201. Same parameters as the endpoint (functools.wraps: FastAPI reads the wrapped signature)."""

    @functools.wraps(endpoint)
    def answer_200(*args: P.args, **kwargs: P.kwargs) -> Envelope[T]:
        answer = endpoint(*args, **kwargs)
        response = kwargs["response"]
        assert isinstance(response, Response)
        response.status_code = 200
        if "location" in response.headers:
            del response.headers["location"]
        return answer.model_copy(update={"code": 200})

    return answer_200


def error_reply(code: int, message: str, data: Any = None) -> JSONResponse:
    """An error in the envelope (also sent as it is by the API's middleware, before any route runs)."""
    return JSONResponse({"success": False, "code": code, "message": message, "data": data}, status_code=code)


async def service_error_handler(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    reply = error_reply(error.code, error.message, error.data)
    retry_after_s = getattr(error, "retry_after_s", None)
    if retry_after_s:
        reply.headers["Retry-After"] = str(retry_after_s)
    return reply


NOT_JSON = "The request body is not valid JSON."


def _api_path(request: Request) -> str:
    """The path under /api, as API users write it (`/campaigns/7`)."""
    path = request.url.path
    return path[len("/api"):] if path == "/api" or path.startswith("/api/") else path


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route of this API answers at the request's path. Starlette's own Allow header names
    only the first route that matched the path, and GET and POST on one path are two routes here."""
    path = get_route_path(request.scope)
    return sorted({method for route in iter_route_contexts(getattr(request.app, "routes", ()))
                   if (pattern := getattr(route, "path_regex", None)) is not None and pattern.match(path)
                   for method in route.methods or ()})


async def http_error_handler(request: Request, error: Exception) -> JSONResponse:
    """Starlette's own refusals (no such path, method not allowed) in the same shape as ours. A 405 says which
    methods the path takes, in words and in the `Allow` header."""
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 404 and error.detail == "Not Found":
        return error_reply(404, f"No such API call: {_api_path(request)}")
    if error.status_code == 405:
        allowed = ", ".join(_allowed_methods(request)) or (error.headers or {}).get("Allow", "")
        reply = error_reply(405, f"{request.method} is not allowed here. Allowed: {allowed}.")
        reply.headers["Allow"] = allowed
        return reply
    reply = error_reply(error.status_code, str(error.detail))
    reply.headers.update(error.headers or {})
    return reply


# Errors that may be the database, the data disk or the files' bucket failing rather than a bug. Handled by class, so that a fault
# is answered by Starlette's ExceptionMiddleware: a handler for Exception itself runs in ServerErrorMiddleware,
# which sends the answer and then re-raises, so every 503 also logged "Exception in ASGI application" with a
# traceback (seen under bench/load_soak.py, for a request that waited out SQLite's write lock).
FAULT_CLASSES: tuple[type[Exception], ...] = (DBAPIError, PoolTimeout, sqlite3.Error, OSError, duckdb.Error,
                                              BotoCoreError, ClientError)


def fault_reply(error: Exception) -> JSONResponse | None:
    """The 503/507 answer when `error` is the database or the data disk failing (app/kernel/faults.py), else None."""
    fault = infrastructure_error(error)
    if fault is None:
        return None
    logger.warning("an API call failed: %s (%s: %s)", fault.message, type(error).__name__, error)
    reply = error_reply(fault.code, fault.message)
    if isinstance(fault, Unavailable):
        reply.headers["Retry-After"] = str(fault.retry_after_s)
    return reply


async def fault_error_handler(_request: Request, error: Exception) -> JSONResponse:
    """One of FAULT_CLASSES: a fault answers 503/507; anything else of those classes is a bug and goes on to
    unexpected_error_handler."""
    if (reply := fault_reply(error)) is None:
        raise error
    return reply


async def unexpected_error_handler(_request: Request, error: Exception) -> JSONResponse:
    """Anything else: a database gone away or a full or unwritable data disk answers 503 or 507 with what happened
    (app/kernel/faults.py); the rest is logged with its traceback for the operator, a plain 500 in our shape for the
    client (never the traceback, never text/plain). A fault gets here when it is the cause of an error of
    another class."""
    if (reply := fault_reply(error)) is not None:
        return reply
    logger.error("unexpected error in an API call", exc_info=error)
    # The request id (also in the X-Request-ID header and on the log line with the traceback) for the user to quote.
    request_id = log_context.current().get("request_id", "")
    return error_reply(500, f"{UNEXPECTED_ERROR} Request id: {request_id}.", {"request_id": request_id})


def _unreadable_body(error: RequestValidationError) -> bool:
    """The body is not JSON: FastAPI could not parse it (json_invalid), or did not try because it was not sent
    as JSON, and the raw bytes met the model. Either way no field is wrong, the whole body is."""
    return any(item.get("type") == "json_invalid" or isinstance(item.get("input"), bytes) for item in error.errors())


def _takes_json(request: Request) -> bool:
    """Whether the called operation's body is JSON (all but the statistics CSV call, whose body is text)."""
    body = getattr(request.scope.get("route"), "body_field", None)
    return body is None or getattr(body.field_info, "media_type", "application/json") == "application/json"


async def validation_error_handler(request: Request, error: Exception) -> JSONResponse:
    """A body or parameter of the wrong shape: 422 naming each field. A body that is not JSON at all: 400 (FastAPI
    reported it as a 422 on a field named after the byte offset of the parse error). A call that takes text (the
    statistics CSV) and got bytes that are not text keeps its 422 on the field: its body was never meant as JSON."""
    assert isinstance(error, RequestValidationError)
    if _unreadable_body(error) and _takes_json(request):
        return error_reply(400, NOT_JSON)
    fields: dict[str, str] = {}
    for item in error.errors():
        location = [str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path")]
        fields[".".join(location) or "body"] = str(item.get("msg", "Invalid value."))
    invalid = Invalid(fields)
    return error_reply(422, invalid.message, invalid.data)


# --- What the OpenAPI document declares (generated clients learn every status an operation can answer) ---

class ErrorDetails(BaseModel):
    """What an error adds to its message, when it adds anything."""

    model_config = ConfigDict(extra="allow")  # a call may add its own detail (GET /ready: the parts' states)

    fields: dict[str, str] | None = Field(None, description="Each wrong field's name (dotted for a nested one) and "
                                                            "what is wrong with it: every 422, and a 400 about one field.")
    verify: bool | None = Field(None, description="401 at sign-in: the e-mail address is not verified yet; a code "
                                                  "was sent to it.")
    request_id: str | None = Field(None, description="500: the request's id, to quote to the operator.")


class ErrorEnvelope(BaseModel):
    """A refusal or failure: `code` repeats the HTTP status, `message` says what went wrong and `data.fields` names
    each wrong field (422)."""

    success: bool = Field(False, description="Always false for an error.")
    code: int = Field(description="The HTTP status code.")
    message: str = Field(description="What went wrong, in words for a person.")
    data: ErrorDetails | None = Field(None, description="Details; for 422, `{fields: {name: message}}`.")


def error_response(description: str) -> dict[str, Any]:
    """One `responses=` entry for an error answered in the envelope."""
    return {"model": ErrorEnvelope, "description": description}


_DESCRIPTIONS = {
    400: "The request body could not be read (not JSON, or a broken multipart form).",
    401: "No valid token or session (or, at sign-in, a wrong e-mail or password).",
    403: "Signed in, but this role or this account may not do this.",
    404: "No such record in your scope (another tenant's ids answer 404 too).",
    409: "Refused in the current state (in use by campaigns, not configured, inactive).",
    422: "A field is wrong or missing; `data.fields` names each one.",
    429: "Too many attempts; try again later.",
    413: "The request body is larger than this route accepts (app/kernel/uploads.py); nothing was read past the limit.",
    503: "The database is not answering, or the server cannot write its files; nothing was saved (app/kernel/faults.py).",
    507: "The server's disk is full; nothing was saved (app/kernel/faults.py).",
}


def common_error_responses() -> dict[int | str, dict[str, Any]]:
    """The error statuses every operation declares, given once to FastAPI(responses=...) so that every route,
    present and future, inherits them.

    Generated from app/kernel/errors.py rather than listed per route: services raise these errors from any depth (a
    service calls others, and every call with an id can meet one outside the caller's scope), and the API's
    handlers answer each of them in the envelope, so no route can promise that it never answers one. A list kept
    by hand per decorator would be a guess that goes stale as services change. Added to the domain errors: 400,
    a body that cannot be parsed (FastAPI), and 422, which also covers request validation and the id bounds
    (app/web/bounds.py). Statuses only some routes answer (303 redirects, 502 from a payment provider or a
    DSP) are declared on those routes. So are the server's own failures, which any call can meet: a body past its
    route's limit (413), the database gone or the data disk full or unwritable (503, 507)."""
    codes = {400, 413, 422, 503, 507} | {cls.code for cls in vars(errors).values()
                          if isinstance(cls, type) and issubclass(cls, ServiceError) and cls is not ServiceError}
    return {code: error_response(_DESCRIPTIONS.get(code, "Refused.")) for code in sorted(codes)}
