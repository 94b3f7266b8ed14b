"""The download helper (spec section 8): ask the server for a file, then start it in the browser.

States: pending, then completed or failed (failure carries an error text). The four toasts are the
spec's, with the file name.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

NO_URL_ERROR = "No download URL in response"
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
    start: Callable[[dict[str, str]], None],
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
    start({"id": str(next(_download_ids)), "url": url, "filename": filename})
    toast("success", t("download.success", file=filename))
    return DownloadOutcome("completed", url=url)
