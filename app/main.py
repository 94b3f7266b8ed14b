"""create_app(): the one server. /api (JSON), /docs (OpenAPI UI), /static, /files, and every page."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import mimetypes
import re
from collections.abc import AsyncIterator
from html import escape as html_escape
from typing import Any, Literal

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from reactpy import html
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from app import jobs
from app.access import session_changes, sessions
from app.access.sessions import SESSION_COOKIE
from app.accounts import auth_api, second_factor_api, users_api
from app.accounts import spec_calls_api as spec_account_calls_api
from app.alerts import api as alerts_api
from app.campaigns import api as campaigns_api
from app.campaigns import audience_targeting_api, exchange_approvals_api, targeting_api
from app.campaigns import spec_calls_api as spec_campaign_calls_api
from app.campaigns import tools_api as campaign_tools_api
from app.campaigns.diagnosis import api as diagnosis_api
from app.creatives import api as creatives_api
from app.dsps import api as dsps_api
from app.funds import api as funds_api
from app.jobs import clock
from app.kernel import log_context, media, metrics
from app.kernel.config import REPO_ROOT, get_settings
from app.kernel.db import read_on_kept_connection
from app.kernel.errors import ServiceError
from app.kernel.uploads import MB, BodyLimit, Limit
from app.reference import geo_api, metadata_api
from app.reports import api as reports_api
from app.reports import sheet_data_api
from app.settings import brand_theme, client_settings_api, company, company_api
from app.settings import spec_calls_api as spec_settings_calls_api
from app.statistics import api as statistics_api
from app.statistics import csv_batches, dashboards_api, postbacks_api, redirector_api
from app.supply import app_entries, app_lists_api, audience_devices, audiences_api, list_routes
from app.web import csp, export_files, kinds_api, openapi_document, readiness
from app.web.bounds import bounded_integers
from app.web.client_envelope import ClientEnvelope
from app.web.envelope import (
    FAULT_CLASSES,
    UNEXPECTED_ERROR,
    Envelope,
    common_error_responses,
    error_response,
    fault_error_handler,
    http_error_handler,
    reply,
    service_error_handler,
    unexpected_error_handler,
    validation_error_handler,
)
from app.web.html_shell import ConsolePages
from app.web.metrics import metrics_page
from app.web.middleware import HtmlShellHeaders, PageGrant, WebsocketGuard
from app.web.observe import RequestObserver
from app.web.route_commits import CommittingAPI
from app.web.socket_budget import EventBudget
from app.web.stored_files import not_found as not_found_file
from app.web.stored_files import stored_file_response
from app.web.write_limits import WriteLimits

# The UI is configured by name so that app/ never imports components/ at module level.
ROOT_COMPONENT = "components.root:Root"
API_TITLE = "DSP Console API"


class HealthRead(BaseModel):
    status: Literal["ok"] = Field(description="Always ok: the server process answers")


class ReadyPart(BaseModel):
    name: str = Field(description="database, statistics, job queue or disk")
    status: Literal["ok", "failed"]
    reason: str = Field(description="What was seen, in a few words")


class ReadyRead(BaseModel):
    status: Literal["ready", "not ready"]
    parts: list[ReadyPart]


def create_api() -> FastAPI:
    api = CommittingAPI(title=API_TITLE, version="1", docs_url=None, redoc_url=None, openapi_url="/openapi.json",
                        description="Bearer-token API of the DSP Console. Either use an API key (`dsp_...`, "
                                    "generated on your Settings page when API access is enabled for your account; it "
                                    "works until revoked), or log in with `POST /api/auth/login/` for a 2-hour token. "
                                    "Send it as `Authorization: Bearer <token>`. Every reply is "
                                    "`{success, code, message, data}`.",
                        servers=[{"url": "/api"}], dependencies=[Depends(bounded_integers)],
                        responses=common_error_responses())
    openapi_document.document(api)  # reply examples and the error shape, derived for every operation
    api.add_exception_handler(ServiceError, service_error_handler)
    api.add_exception_handler(RequestValidationError, validation_error_handler)
    api.add_exception_handler(StarletteHTTPException, http_error_handler)
    for fault_class in FAULT_CLASSES:
        api.add_exception_handler(fault_class, fault_error_handler)
    api.add_exception_handler(Exception, unexpected_error_handler)
    api.add_middleware(WriteLimits)  # inside the envelope: a 429 to the spec's client is wrapped as it expects
    api.add_middleware(ClientEnvelope)  # off unless DSP_CLIENT_ENVELOPE_KEY is set
    api.include_router(auth_api.router)
    api.include_router(auth_api.user_settings_router)
    api.include_router(second_factor_api.router)
    api.include_router(company_api.router)
    api.include_router(users_api.router)
    api.include_router(spec_account_calls_api.router)
    api.include_router(campaigns_api.router)
    api.include_router(diagnosis_api.router)
    api.include_router(creatives_api.router)
    api.include_router(creatives_api.spec_router)
    api.include_router(campaign_tools_api.router)
    api.include_router(spec_campaign_calls_api.router)
    api.include_router(geo_api.router)
    api.include_router(targeting_api.router)
    api.include_router(client_settings_api.router)
    api.include_router(spec_settings_calls_api.router)
    api.include_router(metadata_api.router)
    api.include_router(dashboards_api.router)
    api.include_router(exchange_approvals_api.router)
    api.include_router(reports_api.router)
    api.include_router(alerts_api.router)
    api.include_router(funds_api.router)
    api.include_router(statistics_api.router)
    api.include_router(postbacks_api.router)
    api.include_router(redirector_api.router)
    api.include_router(sheet_data_api.router)
    api.include_router(dsps_api.router)
    api.include_router(app_lists_api.router)
    api.include_router(app_lists_api.smart_router)
    api.include_router(list_routes.router())  # every declared list kind's own routes (after the fixed paths)
    api.include_router(app_lists_api.spec_router)
    api.include_router(audiences_api.router)
    api.include_router(audiences_api.spec_router)
    api.include_router(audience_targeting_api.router)
    api.include_router(audience_targeting_api.spec_router)
    api.include_router(kinds_api.router())  # every declared kind's status routes

    @api.get("/health", tags=["health"])
    async def health() -> Envelope[HealthRead]:
        """Liveness: the process answers. Checks nothing else (a database outage must not make a supervisor
        restart a healthy process); /api/ready does."""
        return reply(HealthRead(status="ok"))

    @api.get("/ready", tags=["health"], response_model=Envelope[ReadyRead],
             responses={503: error_response("A part is not ready; `data` names it.")})
    def ready() -> Envelope[ReadyRead] | JSONResponse:
        """Readiness: the database, the statistics store, the job queue and the data directory's free disk, each
        named with ok or failed and a short reason. 503 names the failing parts."""
        answers = readiness.check_all()
        parts = [ReadyPart(name=name, status="ok" if ok else "failed", reason=why)
                 for name, (ok, why) in answers.items()]
        failing = [part.name for part in parts if part.status == "failed"]
        if failing:
            data = ReadyRead(status="not ready", parts=parts).model_dump()
            return JSONResponse({"success": False, "code": 503, "message": f"Not ready: {', '.join(failing)}.",
                                 "data": data}, status_code=503)
        return reply(ReadyRead(status="ready", parts=parts))

    if get_settings().environment == "test":
        @api.post("/testing/reset-statistics", include_in_schema=False)
        def reset_statistics() -> Envelope[None]:
            """Browser tests only (the server owns its statistics file, so the test process cannot empty it);
            absent outside DSP_ENVIRONMENT=test."""
            from app.warehouse import get_store

            get_store().clear()
            return reply(None)

    return api


_DOCS_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="icon" href="/static/vendor/swagger-ui/favicon-32x32.png">
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/docs/swagger-init.js"></script></body></html>"""


async def not_found(request: Request, error: Exception) -> Response:
    """A path the outer router matches nowhere. Under /api that is still an API call, answered in the envelope:
    a path with a control character (`/api/users/%0A`) is not matched by the /api mount (Starlette's mount
    pattern stops at a newline), and fell through to a plain-text 404 (found by Schemathesis)."""
    assert isinstance(error, StarletteHTTPException)
    if request.url.path == "/api" or request.url.path.startswith("/api/"):
        return await http_error_handler(request, error)
    return PlainTextResponse(str(error.detail), status_code=error.status_code, headers=error.headers)


_ERROR_PAGE_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Server error</title>
<link rel="stylesheet" href="/static/vendor/bootstrap/bootstrap.min.css"></head>
<body class="container py-5"><h1 class="h3">Server error</h1><p>{message}</p>
<p class="text-secondary">Request id: <code>{request_id}</code> (quote it when you report this)</p></body></html>"""


async def server_error_page(_request: Request, _error: Exception) -> Response:
    """A failure outside the API (a file route, the docs): a page that gives the request id to quote. The API
    answers its own 500s in the envelope (app/web/envelope.py). Starlette logs the traceback after this."""
    request_id = html_escape(str(log_context.current().get("request_id", "")))
    return HTMLResponse(_ERROR_PAGE_HTML.format(message=html_escape(UNEXPECTED_ERROR), request_id=request_id),
                        status_code=500, headers={"cache-control": "no-store"})


async def api_docs(_request: Request) -> HTMLResponse:
    return HTMLResponse(_DOCS_HTML.format(title=API_TITLE),
                        headers={"cache-control": "no-store", "content-security-policy": csp.DOCS_POLICY})


_CREATIVE_FRAME_HTML = ('<!doctype html><html><head><meta charset="utf-8">'
                        '<script src="/static/shell/creative-frame.js"></script></head><body></body></html>')


async def creative_frame(_request: Request) -> HTMLResponse:
    """The empty document an html creative's preview is written into (static/shell/creative-frame.js), under
    its own policy: sandboxed to an opaque origin, open for ad markup (app/web/csp.py)."""
    return HTMLResponse(_CREATIVE_FRAME_HTML, headers={"content-security-policy": csp.CREATIVE_FRAME_POLICY})


def branding_file(request: Request) -> Response:
    """A brand's logo or favicon (public: the login page shows them). Sync: Starlette runs it on a worker
    thread, as the file store may be a bucket."""
    key = company.branding_file(request.path_params["name"])
    if key is None:
        return not_found_file()
    return stored_file_response(request, key, media_type=mimetypes.guess_type(key)[0],
                                headers={"cache-control": "public, max-age=86400", "x-content-type-options": "nosniff",
                                         "content-security-policy": "default-src 'none'"})


def creative_file(request: Request) -> Response:
    """A creative's image or video. Public, as on an ad server: exchanges and browsers fetch ad files without
    signing in. Names are content hashes, so a file never changes and may be cached for good. The content type
    is the one read from the bytes at upload; HtmlShellHeaders adds `X-Content-Type-Options: nosniff`. Sync: on a
    worker thread, as the file store may be a bucket."""
    found = media.stored_file(request.path_params["name"])
    if found is None:
        return not_found_file()
    key, content_type = found
    return stored_file_response(request, key, media_type=content_type,
                                headers={"cache-control": "public, max-age=31536000, immutable",
                                         "content-security-policy": "default-src 'none'"})


def _session_live_until(token: str) -> PageGrant | None:
    # Called on the guard's session-check threads (app/web/middleware.py) at a page's handshake and its events.
    live = read_on_kept_connection(lambda connection: sessions.live_until(connection, token=token))
    if live is None:
        return None
    log_context.bind(user_id=live.acting_id)  # the page session's access line names its user
    return PageGrant(live.grant, live.expires_at)


ICON_CSS = "/static/vendor/bootstrap-icons/bootstrap-icons.min.css"


def icon_font_url() -> str:
    """The icon font's URL as its stylesheet names it (the build writes a content hash into it), for a preload."""
    css = (REPO_ROOT / ICON_CSS.lstrip("/")).read_text(encoding="utf-8")
    found = re.search(r'url\("?\./(fonts/[^")]+)"?\)', css)
    if found is None:
        raise RuntimeError(f"no font url in {ICON_CSS}")
    return ICON_CSS.rsplit("/", 1)[0] + "/" + found.group(1)


def _html_head() -> Any:
    return html.head(
        html.meta({"charset": "utf-8"}),
        html.meta({"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        html.title("DSP Console"),
        html.link({"rel": "icon", "href": "/static/img/favicon.svg"}),
        html.link({"rel": "stylesheet", "href": "/static/vendor/bootstrap/bootstrap.min.css"}),
        html.link({"rel": "stylesheet", "href": ICON_CSS}),
        # Fetched beside the CSS rather than once the first render uses an icon (the URL is the stylesheet's own).
        html.link({"rel": "preload", "href": icon_font_url(), "as": "font", "type": "font/woff2", "crossorigin": ""}),
        html.link({"rel": "stylesheet", "href": "/static/css/console.css"}),
        html.link({"rel": "stylesheet", "href": brand_theme.PATH}),  # this host's colours before the first paint
    )


def _boot_spinner() -> Any:
    # Shown until the first render replaces it (console.css hides it once #app has content). Only ever turned into
    # the shell's HTML text, whose writer takes `class` as it is (it wrote `className` as `classname`).
    return html.div({"class": "boot-spinner", "role": "status", "aria-label": "Loading"},
                    html.div({"class": "spinner-border text-primary"}))


@contextlib.asynccontextmanager
async def lifespan(_app: Starlette) -> AsyncIterator[None]:
    """Background work of this process: the job queue's worker (report runs, scheduled reports, e-mail,
    postback forwards, alert checks) and the process clock that queues the periodic ones (report schedules, alert
    checks), whose start fails the report runs a dead process left running.
    Started and stopped off the event loop: both touch the database and join threads."""
    await asyncio.to_thread(jobs.start)
    await asyncio.to_thread(clock.start)
    try:
        yield
    finally:
        await asyncio.to_thread(clock.shutdown)
        await asyncio.to_thread(jobs.stop)
        metrics.process_exited()


def upload_limits() -> tuple[Limit, ...]:
    """The request-body limits of the routes that take files or batches (BodyLimit; any other body gets the
    default). Declared with the routes' owners' constants; the settings are read per request (tests lower them)."""
    settings = get_settings()
    return (
        Limit(re.compile(r"^/api/(uploads/creative|withOutRole/upload)/?$"), settings.max_creative_video_bytes),
        Limit(re.compile(r"^/api/(company-config/[^/]+/[^/]+|uploadLogo)/?$"), settings.max_image_upload_bytes),
        Limit(re.compile(r"^/api/uploads/(inventory-list|smart-app-list)/?$"), app_entries.MAX_UPLOAD_BYTES),
        Limit(re.compile(r"^/api/audiences/[^/]+/devices/?$"), audience_devices.MAX_FILE_BYTES),
        Limit(re.compile(r"^/api/statistics/batches/csv/?$"), csv_batches.MAX_CSV_BYTES, field="body"),
        Limit(re.compile(r"^/api/statistics/batches/?$"), 64 * MB, field="body"),
    )


def create_app() -> Any:
    module_name, _, attr = ROOT_COMPONENT.partition(":")
    root = getattr(importlib.import_module(module_name), attr)
    pages = ConsolePages(root, html_head=_html_head(), prepend_body=_boot_spinner())
    starlette = Starlette(
        routes=[
            Mount("/api", app=create_api()),
            Route("/docs", api_docs),
            Route(csp.CREATIVE_FRAME_PATH, creative_frame),
            Route(brand_theme.PATH, brand_theme.stylesheet),
            Mount("/static", app=StaticFiles(directory=REPO_ROOT / "static")),
            Route("/files/branding/{name}", branding_file),
            Route("/files/creatives/{name}", creative_file),
            Route("/files/exports/{token}", export_files.download),
            Route("/metrics", metrics_page),
            Mount("", app=pages),
        ],
        lifespan=lifespan,
        exception_handlers={404: not_found, 500: server_error_page},
    )
    starlette.add_middleware(GZipMiddleware, minimum_size=1024)
    guarded = WebsocketGuard(HtmlShellHeaders(BodyLimit(starlette, limits=upload_limits)), cookie_name=SESSION_COOKIE,
                             live_until=_session_live_until, changes=session_changes.epoch,
                             recheck_seconds=get_settings().session_recheck_ms / 1000)
    # A page's frames are bounded before the guard checks its session: junk and floods cost no database question.
    return RequestObserver(EventBudget(guarded))
