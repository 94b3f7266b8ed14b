"""Stored XSS, tried as an attacker would: markup that runs script if a page ever puts it into the DOM as HTML is
saved through the services into the free-text fields (the brand's name, title, footer and help text; the
agency's and advertiser's company names; a notification; an exchange rejection reason; a DSP's name; a
reference value (an exchange) that campaign forms list; html creative markup; links with javascript: URLs
where a field takes a URL). Fields whose rules refuse such text (campaign, audience, inventory-list,
smart-app-list and creative names: letters, digits, spaces and hyphens) are tried too: they must refuse it.
Then each role, co-admin included, opens the pages that show them: the payload must be visible as text, never
run (window.__xss stays unset, no dialog opens), and every iframe (html creatives) must be sandboxed without
allow-same-origin. List entries are never stored unless they are app ids or domains, but the lines refused
from a paste or a CSV upload (and the upload's file name) are shown back: those are tried in the browser."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect
from sqlmodel import Session, select

from app.access.models import User
from app.accounts import users
from app.campaigns import exchange_approvals
from app.campaigns import service as campaigns
from app.campaigns.models import ExchangeApproval
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate
from app.kernel.db import run
from app.kernel.errors import Invalid
from app.messaging import notifications
from app.reference import metadata
from app.settings import company
from app.supply import app_lists, audiences, smart_apps
from tests.e2e.conftest import login
from tests.helpers import actor_of

pytestmark = pytest.mark.e2e

P = "<img src=x onerror=window.__xss=1>\"><script>window.__xss=1</script>{{7*7}}"
MARKUP = ("<script>window.__xss=1;try{parent.__xss=1}catch(e){}try{top.__xss=1}catch(e){}</script>"
          "<img src=x onerror=\"try{top.__xss=1}catch(e){}\"><b>Hostile ad</b>")
JS_URL = "javascript:window.__xss=1"
CAMPAIGN = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
            "bid_strategy": "cpm", "bid": "2"}


def _try(db: Session, call: Any) -> bool | list[str]:
    """True when the service saved the value; the fields it named when it refused it."""
    try:
        with db.begin_nested():
            call()
        return True
    except Invalid as refusal:
        assert refusal.fields, refusal
        return sorted(refusal.fields)


def _seed(db: Session) -> dict[str, Any]:
    admin = actor_of(db, "admin@demo.example")
    me = actor_of(db, "advertiser@demo.example")
    saved: dict[str, Any] = {}
    for email in ("advertiser@demo.example", "agency@demo.example"):
        user = db.exec(select(User).where(User.email == email)).one()
        saved[f"company {email}"] = _try(db, lambda u=user: users.update_user(
            db, actor=admin, user_id=u.id, email=u.email, first_name=u.first_name, last_name=u.last_name,
            company_name=P))
    config_id = company.branding_for_host(db, "").id
    saved["brand"] = _try(db, lambda: company.update_config(db, actor=admin, config_id=config_id, values={
        "name": P, "meta_title": P, "footer_text": P}))
    saved["brand link"] = _try(db, lambda: company.update_config(db, actor=admin, config_id=config_id,
                                                                 values={"help_and_support_link": JS_URL}))
    saved["campaign name"] = _try(db, lambda: campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": P})))
    saved["creative click url"] = _try(db, lambda: creatives.create_creative(db, actor=me, data=CreativeCreate(**{
        "type": "image", "name": "Link", "click_url": JS_URL})))
    made: dict[str, Any] = {}
    saved["html creative"] = _try(db, lambda: made.update(creatives.create_creative(db, actor=me, data=CreativeCreate(**{
        "type": "html", "name": "Hostile markup", "html": MARKUP, "width": 300, "height": 250})).model_dump()))
    saved["creative id"] = made.get("id")
    saved["audience name"] = _try(db, lambda: audiences.create_audience(db, actor=me, name=P, kind="device_ids"))
    saved["inventory list name"] = _try(db, lambda: app_lists.create_list(db, actor=me, name=P, kind="allow"))
    saved["smart list name"] = _try(db, lambda: smart_apps.create_list(db, actor=admin, name=P, category_id="36",
                                                                       genre_id="6014"))
    saved["dsp name"] = _try(db, lambda: made.update(dsp=dsps.create_dsp(db, actor=admin, data=DspCreate(**{
        "name": P, "endpoint_url": "https://dsp.example.com/bid", "api_key": "hostile-key"})).id))
    saved["dsp id"] = made.get("dsp")
    saved["exchange name"] = _try(db, lambda: metadata.add_value(db, actor=admin, kind="exchange", name=P))
    # Saving a campaign requests its exchanges; staff reject one with the payload as the reason.
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**CAMPAIGN, "name": "Reason shown"}))
    pending = db.exec(select(ExchangeApproval).where(ExchangeApproval.campaign_id == campaign.id,
                                                     ExchangeApproval.status == "pending")).first()
    assert pending is not None and pending.id is not None
    saved["rejection reason"] = _try(db, lambda: exchange_approvals.decide_many(
        db, actor=admin, approval_ids=[pending.id], decision="rejected", reason=P))
    saved["rejected campaign"] = campaign.id
    notifications.notify(db, user_id=me.id, title=P, body=P, link=JS_URL)
    return saved


@pytest.fixture
def hostile(demo: dict[str, int]) -> dict[str, Any]:
    return run(_seed)


def _watch(page: Page) -> list[str]:
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()
    page.on("dialog", dismiss)
    return dialogs


def _assert_inert(page: Page, dialogs: list[str], path: str) -> None:
    assert page.evaluate("() => window.__xss") is None, f"script from stored text ran on {path}"
    assert not dialogs, (path, dialogs)
    for frame in page.locator("iframe").all():
        sandbox = frame.get_attribute("sandbox")
        assert sandbox is not None, f"an iframe without sandbox on {path}"
        assert "allow-same-origin" not in sandbox.split(), (path, sandbox)
    assert page.locator("a[href^='javascript:' i]").count() == 0, f"a javascript: link on {path}"


def _visit(page: Page, dialogs: list[str], path: str, in_content: bool = False) -> None:
    """Open `path`; wait until the payload shows as text in the top bar (the brand's name), and in the page's
    own content where it lists the stored values (`in_content`: once it is there, the page has rendered them);
    then check nothing ran."""
    page.goto(path)
    page.wait_for_selector(".dsp-shell")
    expect(page.locator(".dsp-shell").get_by_text(P, exact=False).first).to_be_visible()
    if in_content:
        expect(page.locator(".dsp-content").get_by_text(P, exact=False).locator("visible=true").first).to_be_visible()
    else:
        expect(page.locator(".dsp-content h1, .dsp-content h2, .dsp-content h4").first).to_be_visible()
    _assert_inert(page, dialogs, path)


def test_values_that_look_like_markup_are_refused_where_names_are_checked(hostile: dict[str, Any]) -> None:
    assert hostile["campaign name"] == ["name"]
    assert "click_url" in hostile["creative click url"]
    assert hostile["brand link"] == ["help_and_support_link"]
    assert hostile["audience name"] == ["name"]
    assert hostile["inventory list name"] == ["name"] and hostile["smart list name"] == ["name"]
    # Free text is kept as typed, and must be inert wherever it is shown.
    assert hostile["brand"] is True and hostile["html creative"] is True and hostile["rejection reason"] is True
    assert hostile["company advertiser@demo.example"] is True and hostile["company agency@demo.example"] is True
    assert hostile["dsp name"] is True and hostile["exchange name"] is True


def test_the_advertiser_sees_stored_markup_as_text(page: Page, hostile: dict[str, Any]) -> None:
    dialogs = _watch(page)
    login(page, "advertiser@demo.example")
    _assert_inert(page, dialogs, "/dashboard")
    for path in ("/dashboard", "/campaign", "/creatives", "/audience", "/report", "/funds", "/profile",
                 "/advertiser-settings"):
        _visit(page, dialogs, path)
    # The notification in the top bar.
    page.click("[data-dropdown=notifications] > button")
    expect(page.locator(".dsp-notification").get_by_text(P, exact=False).first).to_be_visible()
    _assert_inert(page, dialogs, "notifications")
    # The html creative's page: its markup runs only inside the sandboxed frame, where it cannot reach the page.
    creative_id = hostile["creative id"]
    page.goto(f"/creative/ViewCreative/{creative_id}")
    frame = page.locator("iframe").first
    expect(frame).to_be_visible()
    expect(page.frame_locator("iframe").first.locator("b")).to_have_text("Hostile ad")
    _assert_inert(page, dialogs, f"/creative/ViewCreative/{creative_id}")
    _visit(page, dialogs, f"/campaign/{hostile['rejected campaign']}/", in_content=True)  # the rejection reason
    _visit(page, dialogs, "/campaignForm", in_content=True)  # the exchange among the campaign's choices


def test_refused_list_entries_and_upload_names_are_shown_as_text(page: Page, hostile: dict[str, Any]) -> None:
    dialogs = _watch(page)
    login(page, "advertiser@demo.example")
    page.goto("/inventory-list/create")
    page.fill("#field-name", "Pasted lines")
    page.fill("#field-entries", f"news.example.com\n{P}\n{JS_URL}")
    page.click("[data-action=create-list]")
    result = page.locator("[data-result=entries]")
    expect(result.locator("[data-count=added]")).to_have_text("1 added")
    expect(result.locator("[data-line='2']")).to_contain_text("<img src=x onerror=window.__xss=1>")
    _assert_inert(page, dialogs, "refused pasted lines")
    page.click("[data-action='applist.edit']")
    hostile_name = "<img src=x onerror=window.__xss=1>.csv"
    upload = FilePayload(name=hostile_name, mimeType="text/csv",
                         buffer=f"bundle_id\ncom.example.game\n\"{P}\"\n".encode())
    page.set_input_files("[data-file-input=entries_csv]", files=[upload])
    expect(result.locator("[data-count=added]")).to_have_text("1 added")
    expect(result.locator("[data-line='3']")).to_contain_text("<img src=x onerror")
    expect(result).to_contain_text(f"· {hostile_name}")  # the file's name, shown as text
    _assert_inert(page, dialogs, "refused uploaded lines")


def test_the_agency_sees_stored_markup_as_text(page: Page, hostile: dict[str, Any]) -> None:
    dialogs = _watch(page)
    login(page, "agency@demo.example")
    for path in ("/agency/dashboard", "/agency/campaign", "/agency/audience", "/agency/report", "/agency/profile"):
        _visit(page, dialogs, path)
    for path in ("/agency/advertiser", "/agency/creative", "/agency/funds"):  # the advertiser's company name
        _visit(page, dialogs, path, in_content=True)
    page.goto(f"/agency/creative/viewCreative/{hostile['creative id']}")
    expect(page.frame_locator("iframe").first.locator("b")).to_have_text("Hostile ad")
    _assert_inert(page, dialogs, "agency creative view")


def test_staff_see_stored_markup_as_text(page: Page, hostile: dict[str, Any]) -> None:
    dialogs = _watch(page)
    login(page, "admin@demo.example")
    for path in ("/admin/dashboard", "/admin/campaign", "/admin/audience", "/admin/exchange-approval",
                 "/admin/settings", "/admin/report", "/admin/metadata", "/admin/dsplist", "/admin/smart-apps"):
        _visit(page, dialogs, path)
    for path in ("/admin/users", "/admin/agencies", "/admin/creative", "/admin/funds", "/admin/assignAdvertiser",
                 f"/admin/exchange-approval/change-log/{hostile['rejected campaign']}"):
        _visit(page, dialogs, path, in_content=True)  # company names, and the rejection reason in its history
    page.goto(f"/admin/creative/viewCreative/{hostile['creative id']}")
    expect(page.frame_locator("iframe").first.locator("b")).to_have_text("Hostile ad")
    _assert_inert(page, dialogs, "admin creative view")
    page.goto("/admin/creative/changelog/" + str(hostile["creative id"]))
    page.wait_for_selector(".dsp-shell")
    _assert_inert(page, dialogs, "creative change log")
    for path in ("/admin/dsplist", f"/admin/viewdsp/{hostile['dsp id']}", f"/admin/editdsp/{hostile['dsp id']}",
                 "/admin/metadata"):
        # The DSP's name; on its edit page, the exchange among its exchanges; the exchange among the values.
        _visit(page, dialogs, path, in_content=True)


def test_the_co_admin_sees_stored_markup_as_text(page: Page, hostile: dict[str, Any]) -> None:
    dialogs = _watch(page)
    login(page, "coadmin@demo.example")
    for path in ("/co-admin/dashboard", "/co-admin/campaign", "/co-admin/audience", "/co-admin/exchange-approval",
                 "/co-admin/report"):
        _visit(page, dialogs, path)
    for path in ("/co-admin/users", "/co-admin/agencies", "/co-admin/creative", "/co-admin/funds",
                 "/admin/metadata", f"/co-admin/exchange-approval/change-log/{hostile['rejected campaign']}"):
        _visit(page, dialogs, path, in_content=True)
    page.goto(f"/co-admin/creative/viewCreative/{hostile['creative id']}")
    expect(page.frame_locator("iframe").first.locator("b")).to_have_text("Hostile ad")
    _assert_inert(page, dialogs, "co-admin creative view")
