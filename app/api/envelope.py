"""The reply shape of every API call: {success, code, message, data} (spec section 8)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.errors import Invalid, ServiceError


def ok(data: Any = None, message: str = "OK") -> dict[str, Any]:
    return {"success": True, "code": 200, "message": message, "data": data}


def _reply(code: int, message: str, data: Any = None) -> JSONResponse:
    return JSONResponse({"success": False, "code": code, "message": message, "data": data}, status_code=code)


async def service_error_handler(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return _reply(error.code, error.message, error.data)


async def validation_error_handler(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    fields: dict[str, str] = {}
    for item in error.errors():
        location = [str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path")]
        fields[".".join(location) or "body"] = str(item.get("msg", "Invalid value."))
    invalid = Invalid(fields)
    return _reply(422, invalid.message, invalid.data)
