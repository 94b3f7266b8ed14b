"""What every upload route shares: a request-body limit enforced while the body streams in, and the name an
uploaded file is shown under.

BodyLimit is ASGI middleware. Starlette's multipart parser spools a whole upload to a temporary file before a
route runs, so a limit checked in the route comes after the bytes have been received and written to disk: a
10 GB upload would fill the data disk before the route's "too large" answer. BodyLimit refuses a request whose
Content-Length is past its route's limit before reading any of it, and one without a Content-Length (chunked)
as soon as the bytes received pass the limit; the parser's temporary file is dropped with the request. The
refusal is a 413 in the API's envelope naming the field (`file` for uploads, `body` for JSON calls).

The limits are declared once, by the application that mounts the routes (app/main.py upload_limits), from the
constants the services check (a route still checks its own exact limit, e.g. 2 MB for an image, where the
multipart form decides which limit applies). This module knows no route and no domain.
"""

from __future__ import annotations

import contextlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MB = 1024 * 1024
MULTIPART_SLACK = 64 * 1024  # the form's boundaries, headers and small fields around the file
DEFAULT_BODY_BYTES = 16 * MB  # any JSON call: far above the largest legitimate body (typed list entries, 8 MB)
DISPLAY_NAME_CHARS = 120
UNNAMED = "upload"


@dataclass(frozen=True)
class Limit:
    pattern: re.Pattern[str]
    file_bytes: int  # the limit users are told
    field: str = "file"

    @property
    def body_bytes(self) -> int:
        return self.file_bytes + (MULTIPART_SLACK if self.field == "file" else 0)


def too_large(limit: int) -> str:
    """The message for a file past `limit` bytes, in the words the routes' own checks use."""
    return f"The file is larger than {limit / MB:g} MB." if limit >= MB else f"The file is larger than {limit // 1024} KB."


def limit_for(path: str, limits: Iterable[Limit]) -> Limit:
    """The first of `limits` whose pattern matches the path; any other body gets DEFAULT_BODY_BYTES."""
    for limit in limits:
        if limit.pattern.match(path):
            return limit
    return Limit(re.compile(""), DEFAULT_BODY_BYTES, field="body")


class _TooLarge(Exception):
    pass


def _content_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", ()):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """`limits` is called for each request body (the upload routes' limits read the settings, which tests change)."""

    def __init__(self, app: ASGIApp, *, limits: Callable[[], Iterable[Limit]]) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = limit_for(scope.get("path", ""), self.limits())
        declared = _content_length(scope)
        if declared is not None and declared > limit.body_bytes:
            await _refuse(send, limit)
            return
        received = 0
        exceeded = started = False

        async def limited_receive() -> Message:
            nonlocal received, exceeded
            if exceeded:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit.body_bytes:
                    exceeded = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if exceeded:
                return  # the app's own answer to a body it could not finish reading (FastAPI says 400)
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(_TooLarge):
            await self.app(scope, limited_receive, guarded_send)
        if exceeded and not started:
            await _refuse(send, limit)


async def _refuse(send: Send, limit: Limit) -> None:
    message = too_large(limit.file_bytes) if limit.field == "file" else (
        f"The request body is larger than {limit.file_bytes / MB:g} MB.")
    body = json.dumps({"success": False, "code": 413, "message": f"{limit.field}: {message}",
                       "data": {"fields": {limit.field: message}}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


_UNSHOWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, bidi overrides and other invisible formatting


def shown_file_name(filename: str | None) -> str:
    """The name an uploaded file is shown and recorded under: its last path part (either slash), without
    control characters, NUL bytes or bidi overrides (which make "exe.png" out of "gnp.exe"), at most
    DISPLAY_NAME_CHARS characters keeping the extension. Never a path: files are stored under names the
    server makes. Markup in it stays text: pages escape it."""
    text = "".join(" " if unicodedata.category(ch) in _UNSHOWN else ch for ch in unicodedata.normalize("NFC", filename or ""))
    name = text.replace("\\", "/").rsplit("/", 1)[-1]
    name = " ".join(name.split()).strip(" .")
    if not name:
        return UNNAMED
    if len(name) > DISPLAY_NAME_CHARS:
        suffix = PurePosixPath(name).suffix[:12]
        name = name[: DISPLAY_NAME_CHARS - len(suffix) - 1] + "…" + suffix
    return name
