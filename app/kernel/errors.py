"""The one error model: services raise these; the API maps them to {success, code, message, data},
pages map them to toasts or field errors."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    code = 500

    def __init__(self, message: str, *, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data


class NotAuthenticated(ServiceError):
    code = 401


class Forbidden(ServiceError):
    code = 403


class NotFound(ServiceError):
    code = 404


class Conflict(ServiceError):
    code = 409


class Invalid(ServiceError):
    """Bad input. `fields` maps a field name to its message, so forms can show it beside the field."""

    code = 422

    def __init__(self, fields: dict[str, str], message: str | None = None) -> None:
        self.fields = fields
        super().__init__(message or "; ".join(f"{k}: {v}" for k, v in fields.items()), data={"fields": fields})


class BadRequest(Invalid):
    """A request that cannot be acted on as sent, answered 400 rather than 422 where a caller is no form (a click
    redirect's link, followed by a browser): `fields` names what is wrong, as for Invalid."""

    code = 400


class TooManyAttempts(ServiceError):
    """Refused for now; `retry_after_s` says how long to wait (the API's Retry-After header)."""

    code = 429

    def __init__(self, message: str, *, retry_after_s: int | None = None, data: Any = None) -> None:
        super().__init__(message, data=data)
        self.retry_after_s = retry_after_s
