"""Conversion postbacks: /api/postback/{token}, called by measurement partners. Public: the token in the path
is the credential (each client's own, shown on its settings page)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from app.settings.postbacks import CONVERSION_EVENTS, POSTBACK_MACROS
from app.statistics import postback_ingest
from app.statistics.schemas import PostbackReceipt
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["conversion postbacks"])

HELP = f"""Records one attributed event for the advertiser the token belongs to (an agency's token: for its
advertisers), as one hour of statistics with the event counted (and a conversion for
{', '.join(sorted(CONVERSION_EVENTS))}). Parameters in the query string, or for POST as a form.
The same `click_id` and `event` sent again change nothing (`duplicate: true`), so a partner may retry.

A wrong token answers 404; a wrong parameter 422 naming it, and nothing is recorded. A campaign that is not
the token owner's is refused like a missing one.

When postbacks are enabled for you with a postback URL and the event is among your chosen events, the event is
then passed on to that URL (GET, up to 3 tries), its macros replaced: {', '.join('{' + m + '}' for m in POSTBACK_MACROS)}.

Example: `GET /api/postback/<token>?click_id=abc123&event=install&campaign_id=12&country=DE&os=Android`"""


async def postback(token: str, request: Request) -> Envelope[PostbackReceipt]:
    params: dict[str, str] = dict(request.query_params)
    if request.method == "POST" and "form" in request.headers.get("content-type", ""):
        form = await request.form()
        params.update({key: value for key, value in form.items() if isinstance(value, str)})
    # Database and statistics writes block: on a worker thread, never on the event loop.
    answer = await run_in_threadpool(postback_ingest.receive_postback, token=token, params=params)
    return reply(answer, "Already recorded" if answer.duplicate else "Recorded")


_QUERY_PARAMETERS = [{"name": name, "in": "query", "required": name in ("click_id", "event", "campaign_id", "country"),
                      "schema": {"type": "string"}, "description": text}
                     for name, text in postback_ingest.PARAMETERS.items()]
# GET and POST are one operation each (generated clients need unique operation ids).
for _method in ("GET", "POST"):
    router.add_api_route("/postback/{token}", postback, methods=[_method], description=HELP,
                         summary="Receive a conversion postback", operation_id=f"postback_{_method.lower()}",
                         openapi_extra={"parameters": _QUERY_PARAMETERS})
