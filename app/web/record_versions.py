"""Record versions over HTTP (app/history/versions.py): a GET answers the record's version as its ETag, and an edit
names the version it was made from in If-Match (or as `version` in its body).

If-Match is optional, so clients written before it keep working: without it (and without a body `version`) an edit
is not checked against a version, yet still changes only the fields it sends (and the targeting kinds it names),
as one conditional UPDATE. Given, it is enforced: a record saved since answers 409 naming who changed what. "*"
matches any version."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from fastapi import Header, Response

from app.kernel.errors import Invalid
from app.web.envelope import error_response

IF_MATCH_HELP = ("The ETag of the GET you edited from (e.g. \"3\"). Optional; when given, a record saved since is "
                 "refused with 409 naming who changed what. The same as `version` in the body")
IF_MATCH_BAD = "Give the ETag of the GET you edited from, e.g. \"3\" (or *)."
IF_MATCH_DISAGREES = "If-Match and version name different versions: send one."
# What a GET declares, so /docs and generated clients read the header.
ETAG_HEADER: dict[int | str, dict[str, Any]] = {200: {"headers": {"ETag": {
    "description": "The record's version, quoted (\"3\"): send it back as If-Match with an edit",
    "schema": {"type": "string"}}}}}
# What an edit declares besides the errors every call may answer.
STALE_REPLY: dict[int | str, dict[str, Any]] = {
    200: ETAG_HEADER[200],
    409: error_response("Saved by someone else since the version you read (If-Match or `version`): the message says "
                        "who changed which fields and when; `data` has the current `version` and each change "
                        "({version, by, at, fields}). Nothing was saved: reload, then edit again."),
}


def if_match_header() -> Any:
    """The If-Match parameter of an edit route (a FastAPI Header)."""
    return Header(None, alias="If-Match", description=IF_MATCH_HELP)


def expected_version(if_match: str | None, body_version: int | None) -> int | None:
    """The version an edit was made from: If-Match's ("3", W/"3", 3; "*": none), else the body's `version`; None
    when neither names one. Invalid (on `If-Match`) for anything else, or when the two disagree."""
    if if_match is None or not if_match.strip():
        return body_version
    tag = if_match.strip()
    if tag == "*":
        return body_version
    text = tag.removeprefix("W/").strip('"')
    if not text.isdigit():
        raise Invalid({"If-Match": IF_MATCH_BAD})
    version = int(text)
    if body_version is not None and body_version != version:
        raise Invalid({"If-Match": IF_MATCH_DISAGREES})
    return version


class _HasVersion(Protocol):
    version: int


R = TypeVar("R", bound=_HasVersion)


def tagged(response: Response, record: R) -> R:
    """`record`, with its version as the answer's ETag."""
    response.headers["ETag"] = f'"{record.version}"'
    return record
