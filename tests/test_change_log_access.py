"""Every change log shown on a page is readable through the API under the same permission as its page, both taken
from one declaration (app/history/change_log.py CHANGE_LOGS); another tenant's log is out of reach (issue 21:
a campaign's log had no API, and the creative log's API and page disagreed)."""

from __future__ import annotations

from typing import Any

import pytest

from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate, DspUpdate
from app.history.change_log import CHANGE_LOGS
from app.supply import app_lists, audiences, smart_apps
from components.pages import PAGES
from tests.authz_matrix import make_rival
from tests.helpers import actor_of, bearer_headers

ROLE_EMAILS = {Role.ADMIN: "admin@demo.example", Role.CO_ADMIN: "coadmin@demo.example",
               Role.AGENCY: "agency@demo.example", Role.ADVERTISER: "advertiser@demo.example"}
# The id each change log's API path takes, by the kind of record it names.
RECORD_OF_PARAM = {"campaign_id": "campaign", "creative_id": "creative", "audience_id": "audience",
                   "applist_id": "app_list", "list_id": "smart_app_list", "user_id": "advertiser",
                   "advertiser_id": "advertiser", "dsp_id": "dsp"}


def _records(db, advertiser_email: str, mark: str) -> dict[str, int]:
    """One changed record of each kind for an advertiser: its change logs are not empty."""
    me = actor_of(db, advertiser_email)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({
        "name": f"{mark} Campaign", "starts_at": "2026-12-01", "total_budget": "1000", "bid": "0.50"}))
    campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"total_budget": "1200"}))
    creative = creatives.create_creative(db, actor=me, data=CreativeCreate(**{"type": "html", "name": f"{mark} Creative", "width": 300,
                                                             "height": 250, "html": "<p>ad</p>"}))
    audience = audiences.create_audience(db, actor=me, name=f"{mark} Audience", kind="device_ids")
    app_list = app_lists.create_list(db, actor=me, name=f"{mark} List", kind="allow", entries="com.example.app")
    return {"campaign": campaign.id, "creative": creative.id, "audience": audience.id,
            "app_list": app_list.list.id, "advertiser": me.id}


@pytest.fixture
def tenants(db, demo_ids) -> tuple[dict[str, int], dict[str, int]]:
    home = _records(db, "advertiser@demo.example", "Home")
    _agency, _advertiser, rival_email = make_rival(db, "Rival")
    rival = _records(db, rival_email, "Rival")
    smart = smart_apps.create_list(db, actor=actor_of(db, "admin@demo.example"), name="Action games",
                                   category_id="36", genre_id="6014", subgenre_id="7001", entries="com.example.shooter")
    home["smart_app_list"] = rival["smart_app_list"] = smart.list.id
    dsp = dsps.create_dsp(db, actor=actor_of(db, "admin@demo.example"), data=DspCreate(
        name="Acme Bidder", connector="http_json", endpoint_url="https://bidder.example/api",
        api_key="k-123", exchange_ids=[]))
    dsps.update_dsp(db, actor=actor_of(db, "admin@demo.example"), dsp_id=dsp.id, data=DspUpdate(seat_id="seat-9"))
    home["dsp"] = rival["dsp"] = dsp.id
    db.commit()
    return home, rival


def _path(kind: str, records: dict[str, int]) -> str:
    api = CHANGE_LOGS[kind].api
    return "/api" + api.format(**{param: records[record] for param, record in RECORD_OF_PARAM.items()
                                  if "{" + param + "}" in api})


def test_each_change_log_page_opens_to_the_roles_its_declaration_names():
    for kind, log in CHANGE_LOGS.items():
        pages = [page for page in PAGES if page.name == log.page]
        assert pages, f"{kind}: no page named {log.page}"
        assert frozenset().union(*(page.roles for page in pages)) == log.roles, kind


def test_every_change_log_reads_through_the_api_for_exactly_its_page_roles(client, tenants):
    home, rival = tenants
    replies: dict[tuple[str, Role], Any] = {}
    for role, email in ROLE_EMAILS.items():
        headers = bearer_headers(client, email)
        for kind, log in CHANGE_LOGS.items():
            reply = client.get(_path(kind, home), headers=headers)
            replies[kind, role] = reply.status_code
            if role in log.roles:
                assert reply.status_code == 200, (kind, role, reply.text)
                assert reply.json()["success"] is True
            else:
                assert reply.status_code in (403, 404), (kind, role, reply.status_code)
            if role in (Role.AGENCY, Role.ADVERTISER) and kind != "smart_app_list":
                # Another tenant's record: out of reach, whether the role may read this kind of log or not.
                assert client.get(_path(kind, rival), headers=headers).status_code in (403, 404), (kind, role)
    # The logs the issue named: the campaign's is on the API for every role with its page.
    assert all(replies["campaign", role] == 200 for role in ROLE_EMAILS)


def test_the_campaign_change_log_api_answers_what_its_page_shows(client, tenants):
    home, _rival = tenants
    headers = bearer_headers(client, "agency@demo.example")
    data = client.get(_path("campaign", home), headers=headers).json()["data"]
    assert data["campaign"]["name"] == "Home Campaign"
    assert {"field": "total_budget", "old": "1000.00", "new": "1200.00"} in data["items"][0]["changes"]
    assert client.get(_path("campaign", home), headers=headers, params={"since": "soon"}).json()["data"] == {
        "fields": {"since": "Enter a date such as 2026-12-01."}}
    creative = client.get(_path("creative", home), headers=headers).json()["data"]
    assert creative["creative"]["name"] == "Home Creative" and creative["people"], "the page's shape and filters"


def test_every_change_log_reply_shows_its_schema_in_openapi():
    """Each declared log's route answers a typed page of its entries (with its subject and people where it has a
    subject), its spec-named copy the whole reply: subject, entries and people (issue 22: typed boundaries)."""
    from app.main import create_api
    from tests.test_api_schemas import _resolve, _typed

    spec = create_api().openapi()
    for kind, log in CHANGE_LOGS.items():
        for path in (log.api, *(alias for alias, _summary in log.aliases)):
            answer = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            data = _resolve(spec, answer)["properties"]["data"]
            assert _typed(spec, data), (kind, path)
            reply = _resolve(spec, data)
            if path == log.api:  # paged: {items, next_cursor, total, limit} (and the subject, people)
                entries = reply["properties"]["items"]
                assert {"next_cursor", "total", "limit", *([log.subject, "people"] if log.subject else [])} <= set(
                    reply["properties"]), kind
            else:
                entries = reply["properties"]["entries"] if log.subject else data
            assert _resolve(spec, entries["items"])["properties"]["changes"]["type"] == "array", kind
