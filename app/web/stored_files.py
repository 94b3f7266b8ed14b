"""The HTTP answer for a stored file (app/kernel/storage.py), whichever backend keeps it: the /files routes'
one way to send a file, with the headers they choose.

A file on this machine's disk goes out as Starlette's FileResponse (as it always did: sendfile, range requests,
etag). A file in a bucket is streamed from it in chunks (never whole in memory), with the same length, etag,
last-modified and download-name headers; a single byte range ("bytes=0-" from a video player, a seek) is asked
of the bucket itself, so videos play and seek as they do from disk. Synchronous: called from sync routes, which
Starlette runs on a worker thread, and the body is read on worker threads too (iterate_in_threadpool).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from email.utils import formatdate
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response, StreamingResponse

from app.kernel.storage import CHUNK_BYTES, Storage, get_storage

_SINGLE_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def not_found() -> Response:
    return Response("Not found", status_code=404)


def _content_disposition(filename: str) -> str:
    # As FileResponse writes it, so a download keeps its name (accents included) whichever backend sent it.
    quoted = quote(filename)
    return f"attachment; filename*=utf-8''{quoted}" if quoted != filename else f'attachment; filename="{filename}"'


UNSATISFIABLE = (-1, -1)


def _range(request: Request, size: int, etag: str, modified: str) -> tuple[int, int] | None:
    """The one byte range asked for, (first, last) within the file; UNSATISFIABLE when it starts past the end;
    None for the whole file (no range, a stale If-Range, several ranges, or one that does not parse)."""
    asked = _SINGLE_RANGE.match(request.headers.get("range", "").replace(" ", ""))
    if_range = request.headers.get("if-range")
    if asked is None or (if_range is not None and if_range not in (etag, modified)):
        return None
    start, end = asked.groups()
    if not start:  # the last N bytes
        return (max(0, size - int(end)), size - 1) if end and int(end) > 0 and size else None
    first = int(start)
    if first >= size:
        return UNSATISFIABLE
    last = min(int(end), size - 1) if end else size - 1
    return (first, last) if first <= last else None


def _chunks(storage: Storage, key: str, first: int, last: int | None) -> Iterator[bytes]:
    with storage.open(key, first, last) as source:
        while chunk := source.read(CHUNK_BYTES):
            yield chunk


def stored_file_response(request: Request, key: str, *, media_type: str | None, headers: Mapping[str, str],
                         filename: str | None = None) -> Response:
    """`key` sent with `headers` (caching, CSP, ...), as `media_type`, as an attachment named `filename` when
    given; 404 when there is no such file."""
    storage = get_storage()
    path = storage.local_path(key)
    if path is not None:
        if not path.is_file():
            return not_found()
        return FileResponse(path, media_type=media_type, filename=filename, headers=dict(headers))
    found = storage.stat(key)
    if found is None:
        return not_found()
    etag, modified = f'"{found.etag}"', formatdate(found.modified.timestamp(), usegmt=True)
    sent = {**headers, "accept-ranges": "bytes", "etag": etag, "last-modified": modified}
    if filename is not None:
        sent["content-disposition"] = _content_disposition(filename)
    if request.method == "HEAD":
        return Response(headers={**sent, "content-length": str(found.size)}, media_type=media_type)
    asked = _range(request, found.size, etag, modified)
    if asked == UNSATISFIABLE:
        return PlainTextResponse(status_code=416, headers={"content-range": f"bytes */{found.size}"})
    if asked is not None:
        first, last = asked
        return StreamingResponse(_chunks(storage, key, first, last), status_code=206, media_type=media_type,
                                 headers={**sent, "content-length": str(last + 1 - first),
                                          "content-range": f"bytes {first}-{last}/{found.size}"})
    return StreamingResponse(_chunks(storage, key, 0, None), media_type=media_type,
                             headers={**sent, "content-length": str(found.size)})
