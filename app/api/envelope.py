"""The reply shape of every API call: {success, code, message, data} (spec section 8)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import Invalid, ServiceError
from app.faults import infrastructure_error
from app.i18n.catalog import DEFAULT_LANGUAGE, translator

logger = logging.getLogger(__name__)
# The pages' wording, in English (the API's language).
UNEXPECTED_ERROR = translator(DEFAULT_LANGUAGE)("common.unexpected_error")


def ok(data: Any = None, message: str = "OK") -> dict[str, Any]:
    return {"success": True, "code": 200, "message": message, "data": data}


def _reply(code: int, message: str, data: Any = None) -> JSONResponse:
    return JSONResponse({"success": False, "code": code, "message": message, "data": data}, status_code=code)


async def service_error_handler(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return _reply(error.code, error.message, error.data)


async def http_error_handler(_request: Request, error: Exception) -> JSONResponse:
    """Starlette's own refusals (no such path, method not allowed) in the same shape as ours."""
    assert isinstance(error, StarletteHTTPException)
    return _reply(error.status_code, str(error.detail))


async def unexpected_error_handler(_request: Request, error: Exception) -> JSONResponse:
    """Anything else: a database gone away or a full or unwritable data disk answers 503 or 507 with what happened
    (app/faults.py); the rest is logged with its traceback for the operator, a plain 500 in our shape for the
    client (never the traceback, never text/plain)."""
    fault = infrastructure_error(error)
    if fault is not None:
        logger.warning("an API call failed: %s (%s: %s)", fault.message, type(error).__name__, error)
        return _reply(fault.code, fault.message)
    logger.error("unexpected error in an API call", exc_info=error)
    return _reply(500, UNEXPECTED_ERROR)


async def validation_error_handler(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    fields: dict[str, str] = {}
    for item in error.errors():
        location = [str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path")]
        fields[".".join(location) or "body"] = str(item.get("msg", "Invalid value."))
    invalid = Invalid(fields)
    return _reply(422, invalid.message, invalid.data)
