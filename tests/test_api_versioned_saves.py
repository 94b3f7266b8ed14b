"""Versioned, partial saves over the API (issue 38, items 6 and 7): a GET's ETag is the record's version, an edit
sent with an older If-Match (or body `version`) is refused with 409 naming who changed what, an edit without one
still changes only what it sends, and `targeting` changes only the kinds it names. Bulk calls check each row's
version where the caller gives one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.helpers import bearer_headers
from tests.media_files import image_bytes

ADVERTISER, AGENCY = "advertiser@demo.example", "agency@demo.example"
NEW = {"name": "Winter Sale", "starts_at": "2027-01-10", "ends_at": "2027-02-10", "total_budget": "3000",
       "daily_budget": "100", "bid": "2.00", "targeting": {"countries": ["DE"], "device_types": ["phone", "tablet"],
                                                          "languages": ["de"]}}
STALE = re.compile(r"Changed by (?P<who>[^:]+) at \d\d:\d\d UTC: (?P<fields>.+)\. Reload to see the changes\.")


def _people(client: Any) -> tuple[dict[str, str], dict[str, str]]:
    return bearer_headers(client, AGENCY), bearer_headers(client, ADVERTISER)


def _campaign(client: Any, me: dict[str, str]) -> int:
    """The advertiser's campaign, on one of the exchanges it may buy on."""
    exchanges = client.get("/api/campaign-options", headers=me).json()["data"]["exchanges"]
    body = {**NEW, "targeting": {**NEW["targeting"], "exchanges": [exchanges[0]["id"]]}}
    created = client.post("/api/campaigns", headers=me, json=body)
    assert created.status_code == 201, created.text
    return int(created.json()["data"]["id"])


@pytest.mark.parametrize("path", ["/api/campaigns/{id}", "/api/campaning/editTable?campaign_id={id}"])
def test_two_people_edit_one_campaign_and_the_second_save_is_refused_naming_the_first(client, path: str) -> None:
    ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    read_by_ana = client.get(path.format(id=campaign_id), headers=ana)
    read_by_bo = client.get(path.format(id=campaign_id), headers=bo)
    assert read_by_ana.headers["etag"] == read_by_bo.headers["etag"] == '"1"'
    assert read_by_ana.json()["data"]["version"] == 1
    saved = client.put(f"/api/campaigns/{campaign_id}", headers={**ana, "If-Match": read_by_ana.headers["etag"]},
                       json={"bid": "3.00"})
    assert saved.status_code == 200, saved.text
    assert saved.headers["etag"] == '"2"' and saved.json()["data"]["bid"] == "3.00"
    refused = client.patch(f"/api/campaigns/{campaign_id}", headers={**bo, "If-Match": read_by_bo.headers["etag"]},
                           json={"daily_budget": "150.00"})
    assert refused.status_code == 409, refused.text
    reply = refused.json()
    found = STALE.fullmatch(reply["message"])
    assert found and found["who"] == "Agnes Agency" and found["fields"] == "bid", reply["message"]
    assert reply["success"] is False and reply["data"]["version"] == 2
    assert [change["fields"] for change in reply["data"]["changes"]] == [["bid"]]
    now = client.get(f"/api/campaigns/{campaign_id}", headers=bo).json()["data"]
    assert (now["bid"], now["daily_budget"], now["version"]) == ("3.00", "100.00", 2)


def test_the_spec_call_names_take_the_version_too(client) -> None:
    ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    assert client.post("/api/campaning/update/editTable", headers=ana,
                       json={"campaign_id": campaign_id, "bid": "3.00", "version": 1}).status_code == 200
    refused = client.post("/api/campaning/update/editTable", headers={**bo, "If-Match": '"1"'},
                          json={"campaign_id": campaign_id, "daily_budget": "150"})
    assert refused.status_code == 409 and "Agnes Agency" in refused.json()["message"]


def test_without_if_match_an_edit_still_changes_only_what_it_sends(client) -> None:
    ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    assert client.put(f"/api/campaigns/{campaign_id}", headers=ana, json={"bid": "3.00"}).status_code == 200
    saved = client.put(f"/api/campaigns/{campaign_id}", headers=bo, json={"daily_budget": "150"})
    assert saved.status_code == 200 and saved.headers["etag"] == '"3"'
    assert (saved.json()["data"]["bid"], saved.json()["data"]["daily_budget"]) == ("3.00", "150.00")
    star = client.put(f"/api/campaigns/{campaign_id}", headers={**bo, "If-Match": "*"}, json={"name": "Winter"})
    assert star.status_code == 200


@pytest.mark.parametrize(("if_match", "body"), [("three", {}), ('"2"', {"version": 1})])
def test_an_unreadable_or_contradicting_if_match_is_refused_naming_it(client, if_match: str,
                                                                     body: dict[str, Any]) -> None:
    _ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    refused = client.put(f"/api/campaigns/{campaign_id}", headers={**bo, "If-Match": if_match},
                         json={"bid": "3", **body})
    assert refused.status_code == 422 and "If-Match" in refused.json()["data"]["fields"]


def test_sending_only_the_countries_keeps_the_exchanges_devices_and_languages(client) -> None:
    _ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    before = client.get(f"/api/campaigns/{campaign_id}", headers=bo).json()["data"]["targeting"]
    saved = client.put(f"/api/campaigns/{campaign_id}", headers=bo, json={"targeting": {"countries": ["FR", "BE"]}})
    assert saved.status_code == 200, saved.text
    after = saved.json()["data"]["targeting"]
    assert after == {**before, "countries": ["BE", "FR"]}
    assert after["device_types"] == ["phone", "tablet"] and after["languages"] == ["de"]
    cleared = client.patch(f"/api/campaigns/{campaign_id}", headers=bo, json={"targeting": {"languages": []}})
    assert cleared.json()["data"]["targeting"] == {**after, "languages": []}


def test_a_creative_has_an_etag_and_refuses_an_older_if_match(client) -> None:
    ana, bo = _people(client)
    created = client.post("/api/creatives", headers=bo, json={"type": "html", "name": "Tag", "html": "<p>Hi</p>"})
    creative_id = created.json()["data"]["id"]
    read = client.get(f"/api/creatives/{creative_id}", headers=bo)
    assert read.headers["etag"] == '"1"'
    assert client.patch(f"/api/creatives/{creative_id}", headers={**ana, "If-Match": '"1"'},
                        json={"name": "Tag B"}).status_code == 200
    refused = client.put(f"/api/creatives/{creative_id}", headers={**bo, "If-Match": read.headers["etag"]},
                         json={"name": "Tag C"})
    assert refused.status_code == 409
    found = STALE.fullmatch(refused.json()["message"])
    assert found and found["who"] == "Agnes Agency" and found["fields"] == "name"
    assert client.get(f"/api/creatives/{creative_id}", headers=bo).json()["data"]["name"] == "Tag B"


def test_a_bulk_edit_refuses_the_rows_saved_since_the_version_it_read_and_applies_the_others(client) -> None:
    ana, bo = _people(client)
    first, second = _campaign(client, bo), _campaign(client, bo)
    assert client.put(f"/api/campaigns/{first}", headers=ana, json={"bid": "3.00"}).status_code == 200
    reply = client.post("/api/campaigns/bulk", headers=bo, json={
        "campaign_ids": [first, second], "changes": {"daily_budget": "150"}, "versions": {str(first): 1,
                                                                                         str(second): 1}})
    assert reply.status_code == 200, reply.text
    rows = reply.json()["data"]
    assert [row["ok"] for row in rows] == [False, True]
    assert STALE.fullmatch(rows[0]["message"]) and "Agnes Agency" in rows[0]["message"]
    assert client.get(f"/api/campaigns/{first}", headers=bo).json()["data"]["daily_budget"] == "100.00"
    assert client.get(f"/api/campaigns/{second}", headers=bo).json()["data"]["daily_budget"] == "150.00"


def test_a_bulk_exchange_edit_changes_only_the_exchanges(client) -> None:
    _ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    before = client.get(f"/api/campaigns/{campaign_id}", headers=bo).json()["data"]["targeting"]
    reply = client.post("/api/campaigns/bulk/exchanges", headers=bo,
                        json={"campaign_ids": [campaign_id], "remove": before["exchanges"], "versions": {
                            str(campaign_id): 1}})
    assert reply.json()["data"][0]["ok"], reply.text
    after = client.get(f"/api/campaigns/{campaign_id}", headers=bo).json()["data"]["targeting"]
    assert after == {**before, "exchanges": []}


def test_a_creative_bulk_edit_refuses_a_row_saved_since(client) -> None:
    ana, bo = _people(client)
    asset = client.post("/api/uploads/creative", headers=bo, files={"file": ("banner.png", image_bytes(), "image/png")},
                        data={"purpose": "image"}).json()["data"]
    ids = [client.post("/api/creatives", headers=bo, json={
        "type": "image", "name": f"Banner {n}", "click_url": "https://shop.example/", "asset_id": asset["id"]}
    ).json()["data"]["id"] for n in (1, 2)]
    assert client.put(f"/api/creatives/{ids[0]}", headers=ana, json={"name": "Banner one"}).status_code == 200
    reply = client.post("/api/creatives/bulk", headers=bo, json={
        "creative_ids": ids, "changes": {"click_url": "https://shop.example/winter/"},
        "versions": {str(ids[0]): 1, str(ids[1]): 1}})
    rows = reply.json()["data"]
    assert [row["ok"] for row in rows] == [False, True], reply.text
    assert "Agnes Agency" in rows[0]["message"] and "name" in rows[0]["message"]


def test_a_restore_and_a_link_edit_with_an_older_if_match_are_refused_naming_the_change(client) -> None:
    ana, bo = _people(client)
    campaign_id = _campaign(client, bo)
    assert client.put(f"/api/campaigns/{campaign_id}", headers=bo, json={"daily_budget": "55"}).status_code == 200
    read = client.get(f"/api/campaigns/{campaign_id}", headers=bo)
    entry = client.get(f"/api/campaigns/{campaign_id}/change-log", headers=bo).json()["data"]["items"][0]["id"]
    assert client.put(f"/api/campaigns/{campaign_id}", headers=ana, json={"bid": "3.00"}).status_code == 200
    for method, path, body in (("POST", f"/api/campaigns/{campaign_id}/change-log/{entry}/restore", {}),
                               ("PUT", f"/api/campaigns/{campaign_id}/creatives", {"creative_ids": []})):
        refused = client.request(method, path, headers={**bo, "If-Match": read.headers["etag"]}, json=body)
        assert refused.status_code == 409, refused.text
        found = STALE.fullmatch(refused.json()["message"])
        assert found and found["who"] == "Agnes Agency" and found["fields"] == "bid"
    assert client.get(f"/api/campaigns/{campaign_id}", headers=bo).json()["data"]["daily_budget"] == "55.00"
