"""The download helper's four messages and states (spec section 8)."""

from __future__ import annotations

from app.kernel.i18n.catalog import translator
from components.ui.download import NO_URL_ERROR, run_download
from tests.render import run_async


def _run(reply=None, error=None):
    toasts: list[tuple[str, str]] = []
    started: list[dict[str, str]] = []

    async def request():
        if error:
            raise error
        return reply

    outcome = run_async(run_download(request, filename="RunningApps.csv", toast=lambda k, m: toasts.append((k, m)),
                                       t=translator("en"), start=started.append))
    return outcome, toasts, started


def test_success_starts_the_file_and_says_so():
    outcome, toasts, started = _run({"success": True, "data": {"csv_download_url": "https://x.example/f.csv"}})
    assert outcome.status == "completed"
    assert toasts == [("info", "Starting download: RunningApps.csv"), ("success", "Download successful: RunningApps.csv")]
    assert started[0]["url"] == "https://x.example/f.csv" and started[0]["filename"] == "RunningApps.csv"


def test_reply_without_url_fails():
    outcome, toasts, started = _run({"success": True, "data": {}})
    assert (outcome.status, outcome.error) == ("failed", NO_URL_ERROR)
    assert toasts[-1] == ("error", "Download failed: RunningApps.csv") and not started


def test_request_error_reports_its_message():
    outcome, toasts, _ = _run(error=TimeoutError("timed out"))
    assert outcome.status == "failed"
    assert toasts[-1] == ("error", "Download error: timed out")
