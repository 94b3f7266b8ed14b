"""The console works under its Content-Security-Policy (app/web/csp.py): for each role, every menu page and the
interactive flows (an API key made and copied, an html creative previewed with its script running in its
sandboxed frame, a file uploaded, the dashboards' charts, the data grid, /docs) run in Chromium without a
single violation, and every HTML document arrives with the header. A violation is counted two ways: the
browser's own console report ("Refused to ...") and a `securitypolicyviolation` listener installed before
any page script; an injected inline script shows that both are counted, so the test cannot pass vacuously."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import BrowserContext, Page, Response, expect

from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.kernel.db import run
from app.web import csp
from components.pages import menu_pages
from tests.e2e.conftest import login
from tests.e2e.test_dashboards import _ingest
from tests.helpers import actor_of, user_by_email
from tests.media_files import image_bytes
from tests.test_campaign_pages import SETTINGS

pytestmark = pytest.mark.e2e

_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.warn(`csp-violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
}, true);
"""
# Chromium's own report: "Refused to ..." in older versions, "... violates the following Content Security
# Policy directive ..." in 156.
_BROWSER_REPORT = re.compile(r"Refused to|Content Security Policy")


@dataclass
class Watch:
    """What the page reported: violations (from both channels) and HTML documents sent without the policy."""
    violations: list[str] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    missing_header: list[str] = field(default_factory=list)

    def clear(self) -> None:
        self.violations.clear()


def _watch(context: BrowserContext, page: Page) -> Watch:
    watch = Watch()
    context.add_init_script(_LISTENER)

    def on_console(message) -> None:
        text = message.text
        if text.startswith("csp-violation:") or _BROWSER_REPORT.search(text):
            watch.violations.append(f"{page.url}: {text[:300]}")

    def on_response(response: Response) -> None:
        if response.request.resource_type != "document":
            return
        if not response.headers.get("content-type", "").startswith("text/html"):
            return
        watch.documents.append(response.url)
        if "content-security-policy" not in response.headers:
            watch.missing_header.append(response.url)

    page.on("console", on_console)
    page.on("pageerror", lambda error: watch.violations.append(f"{page.url}: page error {error}")
            if _BROWSER_REPORT.search(str(error)) else None)
    page.on("response", on_response)
    return watch


def _settled(page: Page) -> None:
    expect(page.locator(".dsp-content")).not_to_be_empty()
    expect(page.locator(".dsp-content .spinner-border")).to_have_count(0)
    expect(page.locator("[data-loading=true]")).to_have_count(0)


def _assert_clean(watch: Watch) -> None:
    assert not watch.violations, "\n".join(watch.violations)
    assert watch.documents and not watch.missing_header, watch.missing_header


@pytest.mark.parametrize("email", ["admin@demo.example", "coadmin@demo.example", "agency@demo.example",
                                   "advertiser@demo.example"])
def test_every_menu_page_runs_without_a_violation(context: BrowserContext, page: Page, email: str, db) -> None:
    watch = _watch(context, page)
    login(page, email)
    role = Role(user_by_email(db, email).role)
    for menu_page in menu_pages(role):
        page.goto(menu_page.path)
        _settled(page)
        if page.locator(".dsp-grid").count():  # the data grid: sorted once, so its handlers run
            page.locator(".dsp-grid thead th").first.click()
        if page.locator("[data-dashboard=classic]").count() and page.get_by_role("button", name="Insight360").count():
            page.get_by_role("button", name="Insight360").click()  # the second dashboard's charts
            expect(page.locator("[data-dashboard=insight360]")).to_be_visible()
            _settled(page)
    _assert_clean(watch)


def test_api_key_copy_html_creative_upload_and_docs_run_without_a_violation(context: BrowserContext, page: Page,
                                                                          server_url: str, demo: dict[str, int]) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    watch = _watch(context, page)

    def prepare(db):
        advertiser = actor_of(db, "advertiser@demo.example")
        campaign = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate(SETTINGS))
        creative = creatives.create_creative(db, actor=advertiser, data=CreativeCreate(**{
            "type": "html", "name": "Scripted Ad", "width": 300, "height": 250,
            "html": "<div id='ad'>Static</div><script>document.getElementById('ad').textContent='Ran'</script>"}))
        return campaign.id, creative.id

    campaign_id, creative_id = run(prepare)
    yesterday = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(days=1)
    _ingest(server_url, [{"hour": (yesterday - timedelta(hours=h)).isoformat(),
                          "advertiser_id": demo["advertiser@demo.example"], "campaign_id": campaign_id, "creative_id": 0,
                          "exchange": "Magnite", "os": "iOS", "country": "DE", "app": "com.example.game",
                          "device_type": "phone", "impressions": 1000, "clicks": 12, "spend_micros": 2_500_000,
                          "conversions": 1} for h in range(4)], "e2e-csp")
    login(page, "advertiser@demo.example")

    # The dashboard's charts drawn from delivered figures, and hovered (the legend follows the cursor).
    chart = page.locator(".dsp-chart .u-over").first  # uPlot's cursor layer over its canvas
    expect(chart).to_be_visible()
    chart.hover()

    # An API key, made and copied: the copy button is the one thing here that ran inline script before.
    page.goto("/advertiser-settings")
    page.fill("#field-label", "CSP check")
    page.click("form[name=api-key] button[type=submit]")
    expect(page.locator("#api-token-value")).to_have_value(re.compile(r"^dsp_"))
    token = page.input_value("#api-token-value")
    page.click("[data-action=copy-token]")
    expect(page.locator("[data-action=copy-token]")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == token

    # An html creative: its own script runs, in the sandboxed frame and not in the console.
    page.goto(f"/creative/ViewCreative/{creative_id}")
    frame = page.frame_locator("[data-preview=html] iframe")
    expect(frame.locator("#ad")).to_have_text("Ran")
    assert page.evaluate("document.getElementById('ad')") is None

    # A file through the upload widget, shown in the live preview.
    page.goto("/creatives")
    page.click("[data-action=new-creative]")
    page.select_option("[data-dialog=new-creative] #field-type", "image")
    expect(page.locator("[data-dialog=new-creative] [data-form=creative]")).to_have_attribute("data-type", "image")
    page.set_input_files("[data-asset=asset_id] input[type=file]",
                         files=[{"name": "banner.png", "mimeType": "image/png", "buffer": image_bytes(300, 250)}])
    expect(page.locator("[data-preview=image] img")).to_be_visible()

    # The API documentation: Swagger UI drawn from local files, an operation opened.
    page.goto("/docs")
    operation = page.locator(".opblock").first
    expect(operation).to_be_visible(timeout=60_000)  # the first /api/openapi.json is built on demand: slow when busy
    operation.locator(".opblock-summary-control").click(timeout=60_000)  # Swagger UI draws ~150 operations first
    expect(page.locator(".opblock-body").first).to_be_visible()
    _assert_clean(watch)


def test_an_injected_inline_script_is_refused_and_counted(context: BrowserContext, page: Page) -> None:
    watch = _watch(context, page)
    login(page, "advertiser@demo.example")
    assert not watch.violations, watch.violations
    with page.expect_console_message(lambda m: m.text.startswith("csp-violation: script-src")), \
            page.expect_console_message(lambda m: _BROWSER_REPORT.search(m.text) and "inline script" in m.text):
        page.evaluate("""() => {
            const script = document.createElement("script");
            script.textContent = "window.injectedRan = true";
            document.body.append(script);
        }""")
    assert page.evaluate("window.injectedRan === undefined")
    assert any("csp-violation: script-src" in v for v in watch.violations), watch.violations
    assert any("inline script violates the following Content Security Policy directive" in v
               for v in watch.violations), watch.violations


def test_the_policy_is_strict() -> None:
    """What the browser tests rely on, stated: no inline or eval'd script on the pages, no plugins, no framing
    by others; /docs as strict as the pages."""
    directives = csp.PAGE_DIRECTIVES
    assert directives["script-src"] == "'self'"
    assert "unsafe" not in directives["style-src"]
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'self'"
    assert csp.DOCS_POLICY == csp.PAGE_POLICY
    assert csp.CREATIVE_FRAME_POLICY.startswith("sandbox allow-scripts;")
