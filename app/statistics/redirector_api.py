"""The spec's `redirector` call: a click tracking link that counts the click and forwards (302) to the ad's
landing page. Public: the link is followed by whoever clicked the ad. What it forwards to, and how the click is
counted, is app/statistics/click_redirects.py."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from app.statistics import click_redirects
from app.web.envelope import error_response

router = APIRouter(tags=["click tracking"])

HELP = """Counts one click of an ad and forwards the browser (302) to the ad's landing page.

It forwards only to the creative's own click URL (the default), or to a `to` the server signed for this
campaign and creative (`sig`); any other target answers 400 naming `to`, so the link is no open redirect.
The click is stored as one hour of statistics with clicks 1 (no spend), so it shows in the campaign's click
count on dashboards and reports. The same `click_id` counts once; without one every request counts.
Nothing about the visitor is stored.

Example: `GET /api/redirector?campaign_id=12&creative_id=34&country=DE&click_id=abc123`"""

_QUERY_PARAMETERS = [{"name": name, "in": "query", "required": name in click_redirects.REQUIRED,
                      "schema": {"type": "string"}, "description": text}
                     for name, text in click_redirects.PARAMETERS.items()]


@router.get("/redirector", summary="Count a click and forward to the ad's landing page", description=HELP,
            response_class=RedirectResponse, status_code=302,
            responses={302: {"description": "The click is counted; `Location` is the landing page.",
                             "headers": {"Location": {"schema": {"type": "string"}}}},
                       400: error_response("Not a link of ours: a parameter is missing or wrong, or the target "
                                           "is not allowed; `data.fields` names it. Nothing was counted.")},
            openapi_extra={"parameters": _QUERY_PARAMETERS})
async def redirector(request: Request) -> RedirectResponse:
    # Database and statistics writes block: on a worker thread, never on the event loop.
    forward = await run_in_threadpool(click_redirects.follow_click, params=dict(request.query_params))
    # no-store: a browser or proxy that cached the 302 would forward a second click without counting it.
    return RedirectResponse(forward.target, status_code=302, headers={"cache-control": "no-store",
                                                                      "referrer-policy": "no-referrer"})
