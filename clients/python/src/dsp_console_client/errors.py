"""The one exception the client raises for a refusal or failure the API answered (or a server it never reached)."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer other than a success: `status` is the HTTP status, `code` the API's own (the same number, or 0 when
    no answer came), `message` the API's words for a person, `field` the first field it named (a 422's or a 400's
    `data.fields`; None when the whole request was refused), `fields` every one with its message, and
    `retry_after_s` the wait a 429 or 503 asked for."""

    def __init__(self, status: int, message: str, *, code: int | None = None, fields: dict[str, str] | None = None,
                 data: Any = None, retry_after_s: float | None = None) -> None:
        self.status = status
        self.code = status if code is None else code
        self.message = message
        self.fields = dict(fields or {})
        self.field = next(iter(self.fields), None)
        self.data = data
        self.retry_after_s = retry_after_s
        named = f" ({self.field}: {self.fields[self.field]})" if self.field and self.fields[self.field] not in message \
            else ""
        super().__init__(f"{status}: {message}{named}")


def fields_of(data: Any) -> dict[str, str]:
    """The field messages of an error's `data` ({fields: {name: message}}), as text."""
    if isinstance(data, dict) and isinstance(data.get("fields"), dict):
        return {str(name): str(text) for name, text in data["fields"].items()}
    return {}
