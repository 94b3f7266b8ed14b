"""Inventory lists: each line checked and normalised, duplicates counted (within a batch and against the list),
unreadable files saving nothing, 100,000 lines in bulk, a list in use archived but never deleted, tenant isolation
in the service and the API, and campaign targeting refusing lists that are not the campaign advertiser's."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from sqlmodel import Session, func, select

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.history import change_log
from app.history.models import AuditEntry
from app.kernel.config import REPO_ROOT
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.hooks import Hook
from app.supply import app_entries, app_lists, campaign_usage
from app.supply.models import AppList, AppListEntry
from app.supply.schemas import InventoryListRead, ListCreated
from tests.helpers import actor_of, bearer_headers, other_tenant, user_by_email

BASE: dict[str, Any] = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
                        "bid_strategy": "cpm", "bid": "2"}


def _change_log(db: Session, *, actor: Any, applist_id: int) -> Any:
    return change_log.page(db, actor=actor, kind="app_list", record_id=applist_id)


def _count(db: Session, list_id: int) -> int:
    return db.exec(select(func.count()).select_from(AppListEntry).where(AppListEntry.list_id == list_id)).one()


def _new(db: Session, actor: Any, name: str = "Top apps", kind: str = "allow", entries: str = "",
         advertiser_id: int | None = None) -> ListCreated[InventoryListRead]:
    return app_lists.create_list(db, actor=actor, name=name, kind=kind, entries=entries, advertiser_id=advertiser_id)


@pytest.mark.parametrize(("line", "value", "kind"), [
    ("com.Example.App", "com.example.app", "app"),
    ("  com.whatsapp ", "com.whatsapp", "app"),
    ("id389801252", "389801252", "app"),
    ("ID389801252", "389801252", "app"),
    ("389801252", "389801252", "app"),
    ("Example.COM", "example.com", "domain"),
    ("https://www.example.co.uk/sport?x=1", "www.example.co.uk", "domain"),
    ("*.news.example.org.", "news.example.org", "domain"),
    ("tv.apple.com", "tv.apple.com", "domain"),
])
def test_each_line_is_normalised(line: str, value: str, kind: str) -> None:
    assert app_entries.normalise(line) == (value, kind)


@pytest.mark.parametrize("line", ["hello", "id12", "bad..com", "-x.example.com", "exa mple.com", "com.1app.x",
                                  "x" * 300 + ".com"])
def test_bad_lines_are_refused_with_a_reason(line: str) -> None:
    assert isinstance(app_entries.normalise(line), str)


def test_upload_reports_added_duplicates_and_refused_lines(db):
    me = actor_of(db, "advertiser@demo.example")
    created = _new(db, me, entries="com.example.one\nexample.com")
    assert created.result.added == 2 and created.list.entries == 2
    list_id = created.list.id
    csv = (b"bundle_id\ncom.example.one\nid123456789\nnot an entry\n123456789\n\nNEWS.example.org\n"
           b"example.com,extra\n???\n")
    result = app_lists.upload_entries(db, actor=me, applist_id=list_id, content=csv)
    assert (result.lines, result.added, result.duplicates_in_batch, result.already_in_list) == (7, 2, 1, 2)
    assert result.model_dump()["refused"] == [
        {"line": 4, "text": "not an entry", "reason": app_entries.NOT_ENTRY},
        {"line": 9, "text": "???", "reason": app_entries.NOT_ENTRY}]
    assert result.total == 4 == _count(db, list_id)
    shown = app_lists.get_list(db, actor=me, applist_id=list_id)
    assert (shown.apps, shown.domains) == (2, 2)
    assert [e.action for e in change_log.page(db, actor=me, kind="app_list", record_id=list_id).entries] == [
        "upload_add", "create"]


@pytest.mark.parametrize(("content", "message"), [
    (b"", app_entries.UNREADABLE_EMPTY),
    (b"\n\n  \n", app_entries.UNREADABLE_EMPTY),
    ("caf\u00e9.example.com".encode("latin-1"), app_entries.UNREADABLE_NOT_TEXT),
    (b"PK\x03\x04\x00\x00binary spreadsheet", app_entries.UNREADABLE_NOT_CSV),
    (b"a.example.com\n" * (app_entries.MAX_UPLOAD_BYTES // 14 + 10), app_entries.UNREADABLE_TOO_BIG),
])
def test_an_unreadable_file_saves_nothing_and_says_why(db, content: bytes, message: str):
    me = actor_of(db, "advertiser@demo.example")
    list_id = _new(db, me, entries="example.com").list.id
    audits = db.exec(select(func.count()).select_from(AuditEntry)).one()
    with pytest.raises(Invalid) as error:
        app_lists.upload_entries(db, actor=me, applist_id=list_id, content=content)
    assert error.value.fields == {"file": message}
    assert _count(db, list_id) == 1
    assert db.exec(select(func.count()).select_from(AuditEntry)).one() == audits


def test_a_hundred_thousand_lines_upload_in_bulk(db):
    me = actor_of(db, "advertiser@demo.example")
    list_id = _new(db, me, entries="app0.example.com").list.id
    lines = [f"app{i}.example.com" if i % 2 else f"com.example.game{i}" for i in range(100_000)]
    lines[10] = "not valid"
    lines[20] = lines[21]  # a repeat within the file
    started = time.perf_counter()
    result = app_lists.upload_entries(db, actor=me, applist_id=list_id, content="\n".join(lines).encode())
    elapsed = time.perf_counter() - started
    assert result.model_dump()["refused"] == [{"line": 11, "text": "not valid", "reason": app_entries.NOT_ENTRY}]
    assert result.duplicates_in_batch == 1 and result.already_in_list == 0
    assert result.added == 99_998 and _count(db, list_id) == 99_999
    assert elapsed < 15, f"{elapsed:.1f} s"  # about 1.5 s on the CI machine; a query per line takes minutes
    again = app_lists.upload_entries(db, actor=me, applist_id=list_id, content="\n".join(lines[:1000]).encode())
    assert again.added == 0 and again.already_in_list == 998


def test_replace_and_remove_modes(db):
    me = actor_of(db, "advertiser@demo.example")
    list_id = _new(db, me, entries="a.example.com\nb.example.com, com.example.c").list.id
    removed = app_lists.change_entries(db, actor=me, applist_id=list_id, text="b.example.com", mode="remove")
    assert removed.removed == 1 and removed.total == 2
    replaced = app_lists.change_entries(db, actor=me, applist_id=list_id, text="z.example.com\ncom.example.c",
                                        mode="replace")
    assert (replaced.added, replaced.removed, replaced.total) == (1, 1, 2)
    assert [e.value for e in app_lists.list_entries(db, actor=me, applist_id=list_id)] == [
        "com.example.c", "z.example.com"]


def test_name_and_kind_are_checked(db):
    me = actor_of(db, "advertiser@demo.example")
    with pytest.raises(Invalid) as error:
        app_lists.create_list(db, actor=me, name="<b>", kind="maybe")
    assert set(error.value.fields) == {"name", "kind"}
    assert not db.exec(select(AppList)).all()


def test_a_list_in_use_is_archived_never_deleted(db):
    me = actor_of(db, "advertiser@demo.example")
    used = _new(db, me, "Used list").list.id
    unused = _new(db, me, "Spare list", entries="example.com").list.id
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Spring Sale", "targeting": {
        "inventory_lists": {"allow": [used], "block": []}}}))
    with pytest.raises(Conflict) as error:
        app_lists.delete_list(db, actor=me, applist_id=used)
    assert "Spring Sale" in error.value.message and "Archive it instead" in error.value.message
    with pytest.raises(Invalid) as kind_error:
        app_lists.update_list(db, actor=me, applist_id=used, kind="block")
    assert "Spring Sale" in kind_error.value.fields["kind"]
    assert app_lists.set_status(db, actor=me, applist_id=used, status="archived").status == "archived"
    # The campaign keeps its archived list and can still be edited; the list cannot be newly chosen.
    assert campaigns.update_campaign(db, actor=me, campaign_id=campaign.id, data=CampaignUpdate.model_validate({"name": "Spring Sale 2"}))
    with pytest.raises(Invalid) as chosen:
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Other", "targeting": {
            "inventory_lists": {"allow": [used], "block": []}}}))
    assert chosen.value.fields["targeting.inventory_lists"] == "Archived lists cannot be chosen: Used list."
    assert app_lists.delete_list(db, actor=me, applist_id=unused).deleted is True
    assert db.get(AppList, unused) is None and _count(db, unused) == 0
    campaigns.set_status(db, actor=me, campaign_id=campaign.id, status="archived")
    assert app_lists.delete_list(db, actor=me, applist_id=used).deleted is True


def test_without_the_campaigns_finder_a_list_in_use_is_never_taken_for_unused(db, monkeypatch):
    """Supply learns which campaigns use a list from the campaigns package (app/campaigns/list_usage.py). Were
    that registration lost, deleting must fail loudly rather than treat the list as unused and delete it."""
    me = actor_of(db, "advertiser@demo.example")
    used = _new(db, me, "Used list").list.id
    campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Spring Sale", "targeting": {
        "inventory_lists": {"allow": [used], "block": []}}}))
    monkeypatch.setattr(campaign_usage, "FINDERS", Hook("campaigns using lists and audiences", needed=("campaigns",)))
    with pytest.raises(RuntimeError, match="no handler registered for .'campaigns'"):
        app_lists.delete_list(db, actor=me, applist_id=used)
    assert db.get(AppList, used) is not None


def test_supply_sits_below_campaigns_and_statistics():
    """A list or an audience exists without campaigns: supply imports neither the campaigns nor the statistics
    domain (they register what supply needs to know, or supply reads the warehouse below them)."""
    upward = re.compile(r"^\s*(from|import) app\.(campaigns|statistics)\b", re.MULTILINE)
    offenders = sorted(str(path.relative_to(REPO_ROOT)) for path in (REPO_ROOT / "app" / "supply").rglob("*.py")
                       if upward.search(path.read_text(encoding="utf-8")))
    assert offenders == []


def test_targeting_takes_only_the_advertisers_own_lists_on_their_side(db):
    me = actor_of(db, "advertiser@demo.example")
    allow = _new(db, me, "Allowed", "allow").list.id
    block = _new(db, me, "Blocked", "block").list.id
    rival_agency, rival_advertiser = other_tenant(db)
    theirs = _new(db, actor_of(db, rival_agency.email), "Theirs", advertiser_id=rival_advertiser.id).list.id
    for lists, message in (({"allow": [theirs], "block": []},
                            f"Not inventory lists of this campaign's advertiser: #{theirs}."),
                           ({"allow": [987654], "block": []}, "Not inventory lists of this campaign's advertiser: #987654."),
                           ({"allow": [block], "block": []}, "Block lists cannot be allowed: Blocked."),
                           ({"allow": [], "block": [allow]}, "Allow lists cannot be blocked: Allowed.")):
        with pytest.raises(Invalid) as error:
            campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Lists", "targeting": {"inventory_lists": lists}}))
        assert error.value.fields == {"targeting.inventory_lists": message}
    saved = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Lists", "targeting": {
        "inventory_lists": {"allow": [allow], "block": [block]}}}))
    described = campaigns.describe_campaign(db, actor=me, campaign_id=saved.id)
    assert described.names["inventory_allow"] == ["Allowed"] and described.names["inventory_block"] == ["Blocked"]


def test_tenants_never_reach_each_others_lists(db):
    me = actor_of(db, "advertiser@demo.example")
    agency = actor_of(db, "agency@demo.example")
    mine = _new(db, me, "Mine").list.id
    rival_agency, rival_advertiser = other_tenant(db)
    rival = actor_of(db, rival_agency.email)
    theirs = _new(db, rival, "Theirs", advertiser_id=rival_advertiser.id).list.id
    assert [r.id for r in app_lists.list_lists(db, actor=agency)] == [mine]
    assert [r.id for r in app_lists.list_lists(db, actor=rival)] == [theirs]
    for call, kwargs in ((app_lists.get_list, {}), (app_lists.list_entries, {}), (_change_log, {}),
                         (app_lists.export_entries, {}), (app_lists.delete_list, {}),
                         (app_lists.update_list, {"name": "Taken"}),
                         (app_lists.change_entries, {"text": "example.com"}),
                         (app_lists.upload_entries, {"content": b"example.com"}),
                         (app_lists.set_status, {"status": "archived"})):
        with pytest.raises(NotFound):
            call(db, actor=rival, applist_id=mine, **kwargs)
    with pytest.raises(Invalid) as error:
        _new(db, agency, "Grab", advertiser_id=rival_advertiser.id)
    assert set(error.value.fields) == {"advertiser_id"}
    assert db.get(AppList, mine).name == "Mine" and _count(db, mine) == 0
    staff = actor_of(db, "admin@demo.example")
    assert {r.id for r in app_lists.list_lists(db, actor=staff)} == {mine, theirs}


def test_api_calls_under_the_spec_names_and_tenant_isolation(client):
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/file/addApp", headers=me, json={"name": "Spec list", "kind": "block",
                                                                "entries": "example.com\nbad entry"}).json()
    assert created["success"] and created["data"]["result"]["refused"][0] == {
        "line": 2, "text": "bad entry", "reason": app_entries.NOT_ENTRY}
    list_id = created["data"]["list"]["id"]
    upload = client.post("/api/csvupload", headers=me, data={"applist_id": str(list_id)},
                         files={"file": ("apps.csv", b"value\ncom.example.game\nexample.com\nnope\n", "text/csv")}).json()
    assert upload["data"]["result"]["added"] == 1 and upload["data"]["result"]["already_in_list"] == 1
    assert upload["data"]["result"]["refused"] == [{"line": 4, "text": "nope", "reason": app_entries.NOT_ENTRY}]
    bad = client.post("/api/csvupload", headers=me, data={"applist_id": str(list_id)},
                      files={"file": ("apps.xlsx", b"PK\x03\x04\x00\x00", "application/octet-stream")})
    assert bad.status_code == 422 and bad.json()["data"]["fields"] == {"file": app_entries.UNREADABLE_NOT_CSV}
    edited = client.put(f"/api/updateApplist/{list_id}", headers=me, json={"name": "Spec list two",
                                                                          "entries": "two.example.com"}).json()
    assert edited["data"]["list"]["name"] == "Spec list two" and edited["data"]["list"]["entries"] == 3
    one = client.get(f"/api/withOutRole/getAppListById/{list_id}", headers=me).json()["data"]
    assert (one["apps"], one["domains"], one["kind"]) == (1, 2, "block")
    assert [r["id"] for r in client.get("/api/getApplistAllDataList", headers=me).json()["data"]] == [list_id]
    log = client.get(f"/api/getChangeLogAppList/{list_id}", headers=me).json()["data"]["entries"]
    assert [e["action"] for e in log] == ["entries_add", "update", "upload_add", "create"]
    export = client.post(f"/api/inventory-lists/{list_id}/export", headers=me).json()["data"]
    text = client.get(export["csv_download_url"], headers=me).content.decode("utf-8-sig")
    assert text.splitlines()[:2] == ["value,kind", "com.example.game,app"]

    from app.kernel.db import run
    rival_agency, _rival_advertiser = run(other_tenant)
    rival = bearer_headers(client, rival_agency.email)
    for method, path in (("get", f"/api/withOutRole/getAppListById/{list_id}"),
                         ("get", f"/api/getChangeLogAppList/{list_id}"), ("delete", f"/api/inventory-lists/{list_id}")):
        reply = client.request(method.upper(), path, headers=rival)
        assert reply.status_code == 404 and reply.json()["message"] == app_lists.NOT_FOUND
    assert client.get("/api/getApplistAllDataList", headers=rival).json()["data"] == []
    reply = client.post("/api/csvupload", headers=rival, data={"applist_id": str(list_id)},
                        files={"file": ("apps.csv", b"example.net\n", "text/csv")})
    assert reply.status_code == 404
    assert client.delete(f"/api/inventory-lists/{list_id}", headers=me).json()["data"]["deleted"] is True


def test_agency_and_staff_choose_the_advertiser(db):
    agency = actor_of(db, "agency@demo.example")
    advertiser = user_by_email(db, "advertiser@demo.example")
    created = _new(db, agency, "Agency made", advertiser_id=advertiser.id).list
    assert created.advertiser_id == advertiser.id
    with pytest.raises(Invalid):
        _new(db, agency, "No advertiser")


def test_a_list_kind_declared_with_its_routes_gets_them(demo_ids):
    """A list kind's routes are derived from its declaration (app/supply/list_routes.py): declared here over the
    inventory lists' tables at paths of its own, it answers there with no API module written for it."""
    from dataclasses import replace

    from starlette.testclient import TestClient

    from app.main import create_app
    from app.supply.list_lifecycle import LIST_LIFECYCLES, ListRoutes, declare

    declare(replace(app_lists.LIFECYCLE, entity="test_list",
                    routes=ListRoutes("/test-lists/{test_list_id}", "/uploads/test-list", "Test list", "test lists")))
    try:
        with TestClient(create_app(), base_url="http://testserver") as client:
            me = bearer_headers(client, "advertiser@demo.example")
            made = client.post("/api/inventory-lists", headers=me, json={"name": "Twice", "kind": "allow"})
            list_id = made.json()["data"]["list"]["id"]
            added = client.post(f"/api/test-lists/{list_id}/entries", headers=me, json={"entries": "example.com"})
            assert added.status_code == 200 and added.json()["data"]["result"]["added"] == 1
            uploaded = client.post("/api/uploads/test-list", headers=me, data={"test_list_id": str(list_id)},
                                   files={"file": ("a.csv", b"com.example.app\n", "text/csv")})
            assert uploaded.json()["data"]["result"]["total"] == 2
            entries = client.get(f"/api/test-lists/{list_id}/entries", headers=me).json()["data"]["items"]
            assert entries == [{"value": "com.example.app", "kind": "app"}, {"value": "example.com", "kind": "domain"}]
            assert client.get(f"/api/test-lists/{list_id}", headers=me).json()["data"]["entries"] == 2
            gone = client.delete(f"/api/test-lists/{list_id}", headers=me)
            assert gone.json()["message"] == "Test list deleted" and gone.json()["data"]["deleted"] is True
            assert client.get(f"/api/inventory-lists/{list_id}", headers=me).status_code == 404
            paths = client.get("/api/openapi.json").json()["paths"]
            assert {"/test-lists/{test_list_id}", "/test-lists/{test_list_id}/entries", "/uploads/test-list"} <= set(paths)
    finally:
        del LIST_LIFECYCLES["test_list"]
