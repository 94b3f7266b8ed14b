"""Browser tests: the real server in a subprocess on a free loopback port, driven by Debian's
chromium through Playwright (never `playwright install`)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.demo.seed import DEMO_PASSWORD
from app.kernel.config import REPO_ROOT, get_settings
from tests.conftest import reset_database

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]
# Edit pages prompt after this long in tests (the real limit is 5 minutes).
ARTIFACTS = REPO_ROOT / "test-artifacts"
ROLE_HOMES = {
    "admin@demo.example": "/admin/dashboard",
    "coadmin@demo.example": "/co-admin/dashboard",
    "agency@demo.example": "/agency/dashboard",
    "advertiser@demo.example": "/dashboard",
}

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    # Bound here and handed to the server, so no other process can take the port in between.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = int(listener.getsockname()[1])
    # Its own statistics file: DuckDB lets one process open a file, and this test process has its own store.
    # Its own job queue too: a job the tests defer in this process is theirs to run, never the browser server's
    # (which would generate a report from its own statistics file, or fail a task only the tests declare).
    env = {**os.environ, "DSP_ANALYTICS_FILE": str(Path(get_settings().data_dir) / "analytics-e2e.duckdb"),
           "DSP_JOBS_QUEUE": "e2e"}
    ARTIFACTS.mkdir(exist_ok=True)
    database = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    log = open(ARTIFACTS / f"server-{database}.log", "w")  # noqa: SIM115
    process = subprocess.Popen([sys.executable, "-m", "app", "serve", "--fd", str(listener.fileno())], cwd=REPO_ROOT,
                               env=env, stdout=log, stderr=subprocess.STDOUT, pass_fds=(listener.fileno(),))
    listener.close()  # the server holds its own copy
    url = f"http://127.0.0.1:{port}"
    # Wait for the server to answer, or to die. Start-up (migrated database, scheduler recovery, statistics file)
    # took over 30 s on a 2-core machine at a load average of 9, so the limit only guards against a hang.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.terminate()
        raise RuntimeError(f"server did not start (exit code {process.poll()}); see {log.name}")
    yield url
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: run `make test`, which installs it")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def demo(demo_ids: dict[str, int]) -> dict[str, int]:
    return demo_ids


@pytest.fixture
def context(browser: Browser, server_url: str, demo: dict[str, int],
            request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    # The test's name in the server's access log, so a failure's requests can be told from its neighbours'.
    httpx.get(f"{server_url}/api/health", params={"test": request.node.name}, timeout=10)
    httpx.post(f"{server_url}/api/testing/reset-statistics", timeout=10).raise_for_status()
    ctx = browser.new_context(base_url=server_url, viewport={"width": 1440, "height": 900})
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    page = context.new_page()
    # What the page went through, printed when a login does not land (see login()).
    journal: list[str] = []
    page.on("framenavigated", lambda frame: journal.append(f"navigated {frame.url}") if frame == page.main_frame
            else None)
    page.on("console", lambda message: journal.append(f"console {message.type}: {message.text[:200]}"))
    page.on("websocket", lambda socket: journal.append(f"websocket {socket.url}"))
    page.journal = journal  # type: ignore[attr-defined]
    return page


def login(page: Page, email: str, password: str = DEMO_PASSWORD, lands_on: str | None = None) -> None:
    page.goto("/login")
    page.fill("#field-email", email)
    page.fill("#field-password", password)
    expect(page.locator("#field-email")).to_have_value(email)
    expect(page.locator("#field-password")).to_have_value(password)
    page.click("form[name=login] button[type=submit]")
    try:
        page.wait_for_url(at_path(lands_on or ROLE_HOMES.get(email, "/")), timeout=15_000)
    except PlaywrightTimeout:
        screenshot(page, f"login-failed-{email.split('@')[0]}")
        journal = "\n  ".join(getattr(page, "journal", []))
        raise AssertionError(f"login as {email} did not land; page says: {page.inner_text('body')[:300]!r}; "
                             f"the page went through:\n  {journal}") from None
    page.wait_for_selector(".dsp-shell" if lands_on is None else "body")


def at_path(path: str) -> Callable[[str], bool]:
    """A wait_for_url matcher for exactly this path: "**/dashboard" would match /agency/dashboard too."""
    return lambda url: urlsplit(url).path == path


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(800)  # past the page preloader's fade
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_for_value(page: Page, expression: str, expected: object, timeout_ms: int = 10_000) -> None:
    """Until the page's `expression` equals `expected`: page.wait_for_function without eval. The console's
    Content-Security-Policy forbids eval, which wait_for_function's polling inside the page uses; page.evaluate
    goes through DevTools, which the policy does not govern."""
    deadline = time.monotonic() + timeout_ms / 1000
    while (value := page.evaluate(expression)) != expected:
        if time.monotonic() > deadline:
            raise AssertionError(f"{expression} stayed {value!r}, not {expected!r}")
        page.wait_for_timeout(50)


__all__ = ["ROLE_HOMES", "at_path", "login", "reset_database", "screenshot", "wait_for_value"]
