"""Every change log shown on a page is readable through the API under the same permission as its page, both taken
from one declaration (app/history/change_log.py CHANGE_LOGS); another tenant's log is out of reach (issue 21:
a campaign's log had no API, and the creative log's API and page disagreed)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from app.access.roles import Role
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate, DspUpdate
from app.history.audit import is_system_field
from app.history.change_log import CHANGE_LOGS
from app.history.models import AuditEntry
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


def _kept_by_the_system() -> set[str]:
    """Every table's sort-key columns (filled by the database's insert default, app/kernel/natural_order.py) and
    the timestamps it sets: read from the tables themselves, not from the rule under test."""
    from sqlmodel import SQLModel

    import app.tables  # noqa: F401  # every domain's tables
    from app.kernel.natural_order import SORT_KEY_TYPE

    columns = [column for table in SQLModel.metadata.tables.values() for column in table.columns]
    keys = {c.name for c in columns if c.type is SORT_KEY_TYPE or c.name.endswith("_key")}
    assert {"name_key", "person_key", "open_key"} <= keys
    return keys | {"created_at", "updated_at", "sha256", "stored_name"}


def test_no_change_log_shows_a_column_the_system_keeps(client, db, tenants):
    """Issue 38 item 10: a new campaign's log showed `name_key` (its sort key, with control characters). Every
    declared log lists only settings a person sets, renames included (a rename recomputes the sort key)."""
    home, _rival = tenants
    me, admin = actor_of(db, "advertiser@demo.example"), actor_of(db, "admin@demo.example")
    wave = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({
        "name": "Wave 10", "starts_at": "2026-12-01", "total_budget": "1000", "bid": "0.50"}))
    campaigns.update_campaign(db, actor=me, campaign_id=home["campaign"],
                              data=CampaignUpdate.model_validate({"name": "Home Campaign 2"}))
    creatives.update_creative(db, actor=me, creative_id=home["creative"], data=CreativeUpdate(name="Home Creative 2"))
    dsps.update_dsp(db, actor=admin, dsp_id=home["dsp"], data=DspUpdate(name="Acme Bidder 2"))
    db.commit()
    internal = _kept_by_the_system()
    headers = bearer_headers(client, "admin@demo.example")
    shown: dict[str, set[str]] = {}
    for kind in CHANGE_LOGS:
        for records in (home, {**home, "campaign": wave.id}) if kind == "campaign" else (home,):
            reply = client.get(_path(kind, records), headers=headers)
            assert reply.status_code == 200, (kind, reply.text)
            changes = [c for entry in reply.json()["data"]["items"] for c in entry["changes"]]
            fields = {c["field"] for c in changes}
            shown[kind] = shown.get(kind, set()) | fields
            assert not fields & internal, (kind, fields & internal)
            assert not [c for c in changes if any(isinstance(v, str) and any(ord(ch) < 32 for ch in v)
                                                  for v in (c["old"], c["new"]))], kind
    assert {"name", "total_budget"} <= shown["campaign"] and "name" in shown["creative"] and "name" in shown["dsp"]
    stored = {field for row in db.exec(select(AuditEntry)) for field in row.changes}
    assert not stored & internal, "kept out of the audit trail too"


def test_every_column_the_system_keeps_is_one_the_change_logs_leave_out():
    """The rule is declared once (app/history/audit.py SYSTEM_FIELDS): a new sort-key column of any table must fall
    under it, or its value would show in change logs."""
    assert all(is_system_field(name) for name in _kept_by_the_system())
