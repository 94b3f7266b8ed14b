"""The download helper (spec section 8): ask a service for a file, then start it in the browser.

States: pending, then completed or failed (failure carries an error text). The four toasts are the
spec's, with the file name. The service runs off the event loop, as use_query's and use_action's do.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from reactpy import component, html, use_state

from app.kernel.db import run_off_loop
from app.kernel.errors import Invalid, ServiceError
from components.ui.console import use_console
from components.ui.hooks import background
from components.widgets.document_effects import Download, document_effects

NO_URL_ERROR = "No download URL in response"


class DownloadLink(Protocol):
    """A service's answer naming a file to download (a schema with a csv_download_url, e.g. ExportLink)."""

    @property
    def csv_download_url(self) -> str: ...


# What a download's service answers: {csv_download_url, ...} or a schema that has one.
LinkService = Callable[..., "dict[str, str] | DownloadLink"]
_download_ids = itertools.count(1)


@dataclass(frozen=True)
class DownloadOutcome:
    status: str  # completed | failed
    error: str = ""
    url: str = ""


async def run_download(
    request: Callable[[], Awaitable[dict[str, Any]]],
    *,
    filename: str,
    toast: Callable[[str, str], None],
    t: Callable[..., str],
    start: Callable[[Download], None],
) -> DownloadOutcome:
    """`request` returns a reply like {success, data: {csv_download_url}}; `start` hands the URL to
    DocumentEffects' `download` prop."""
    toast("info", t("download.starting", file=filename))
    try:
        reply = await request()
    except Exception as error:  # the request itself failed: network, server or service error
        message = getattr(error, "message", None) or str(error) or error.__class__.__name__
        toast("error", t("download.error", message=message))
        return DownloadOutcome("failed", message)
    url = ((reply or {}).get("data") or {}).get("csv_download_url") if (reply or {}).get("success") else None
    if not url:
        toast("error", t("download.failed", file=filename))
        return DownloadOutcome("failed", NO_URL_ERROR)
    start(Download(id=str(next(_download_ids)), url=url, filename=filename))
    toast("success", t("download.success", file=filename))
    return DownloadOutcome("completed", url=url)


class _Failed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def use_service_download(service: LinkService, on_invalid: Callable[[dict[str, str]], None] | None = None,
                         ) -> tuple[Callable[..., None], bool, Any]:
    """(start, busy, effects): `start(kwargs, filename)` asks `service(db, actor=..., **kwargs)` for a
    {csv_download_url} and downloads it through the download helper and its four toasts (spec section 8);
    `effects` must be rendered. A refusal naming fields (422) also goes to `on_invalid`, translated, so a form
    can show each message under its field."""
    console = use_console()
    t = console.t
    no_download: Download | None = None
    download, set_download = use_state(no_download)
    busy, set_busy = use_state(False)

    async def fetch(kwargs: dict[str, Any], filename: str) -> None:
        async def request() -> dict[str, Any]:
            try:
                link = await run_off_loop(service, actor=console.actor, **kwargs)
                url = link.get("csv_download_url") if isinstance(link, dict) else link.csv_download_url
                return {"success": True, "data": {"csv_download_url": url}}
            except Invalid as refused:
                shown = {field: t(message) for field, message in refused.fields.items()}
                if on_invalid:
                    on_invalid(shown)
                raise _Failed(" ".join(shown.values())) from refused
            except ServiceError as error:
                raise _Failed(t(error.message)) from error

        try:
            await run_download(request, filename=filename, toast=console.toast, t=t, start=set_download)
        finally:
            set_busy(False)

    def start(kwargs: dict[str, Any], filename: str) -> None:
        if not busy:
            set_busy(True)
            background(fetch(kwargs, filename))

    return start, busy, document_effects(download=download) if download else ""


def download_icon(busy: bool, icon: str = "bi-download") -> Any:
    """A download button's icon: a spinner while the file is being made."""
    if busy:
        return html.span({"className": "spinner-border spinner-border-sm me-2"})
    return html.i({"className": f"bi {icon} me-1"})


@component
def ServiceDownload(service: LinkService, kwargs: dict[str, Any], filename: str, label: str,
                    action: str, class_name: str = "btn btn-light border", icon: str = "bi-download",
                    title: str = "") -> Any:
    """A button that downloads what `service(db, actor=..., **kwargs)` links to (use_service_download)."""
    start, busy, effects = use_service_download(service)
    return html.div({"className": "d-inline-flex"},
                    html.button({"type": "button", "className": class_name, "disabled": busy, "data-action": action,
                                 "title": title, "onClick": lambda _event: start(kwargs, filename)},
                                download_icon(busy, icon), label),
                    effects)
