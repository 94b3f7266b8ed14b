"""/files/exports/{token}: an exported CSV (a list, a report's results), sent as an attachment to the user
who made it.

Outside /api (a browser follows the link like any download), so it answers refusals itself, in plain text.
The request must be signed in (session cookie or bearer token, as for the API) as the user the signed link
names; see app/kernel/csv_exports.py.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from app.kernel import csv_exports
from app.kernel.db import session_scope
from app.kernel.errors import ServiceError
from app.web.deps import get_actor
from app.web.stored_files import stored_file_response


def download(request: Request) -> Response:
    """Synchronous on purpose: Starlette runs it on a worker thread, off the event loop (database and file
    store)."""
    try:
        with session_scope() as db:
            actor = get_actor(request, db)
            key, filename = csv_exports.open_export(token=request.path_params["token"], actor=actor)
    except ServiceError as refusal:
        return PlainTextResponse(refusal.message, status_code=refusal.code, headers={"cache-control": "no-store"})
    answer = stored_file_response(request, key, media_type="text/csv; charset=utf-8", filename=filename,
                                  headers={"cache-control": "no-store", "x-content-type-options": "nosniff"})
    if answer.status_code == 404:  # removed between the check and now (an expiry sweep)
        return PlainTextResponse(csv_exports.GONE, status_code=404, headers={"cache-control": "no-store"})
    return answer
