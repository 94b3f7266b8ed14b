"""Smart-app lists: the taxonomy cascades (category → genre → subgenre, ids from the stores), only staff curate,
everyone targets the active ones; and the inventory-list pages: what a user sees, another tenant's list not found
on every page, the inactivity prompt on the edit page."""

from __future__ import annotations

from typing import Any

import pytest

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.db import run
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.reference import app_taxonomy
from app.supply import app_lists, smart_apps
from app.supply.schemas import InventoryListRead
from components.root import EDIT_PATH_MARKERS
from tests.helpers import actor_of, bearer_headers, other_tenant
from tests.render import text_of
from tests.test_campaign_pages import attribute_values, page_at

BASE: dict[str, Any] = {"objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC", "total_budget": "1000",
                        "bid_strategy": "cpm", "bid": "2"}
GAMES = {"name": "Action games", "category_id": "36", "genre_id": "6014", "subgenre_id": "7001"}


def test_the_taxonomy_cascades_with_the_stores_ids():
    assert {c["category_id"] for c in app_taxonomy.categories()} == {"36", "GOOGLE_PLAY"}
    apple = {g["genre_id"]: g for g in app_taxonomy.genres("36")}
    assert apple["6014"]["genre"] == "Games" and apple["6014"]["has_subgenres"] is True
    assert apple["6000"]["genre"] == "Business" and apple["6000"]["has_subgenres"] is False
    assert [s["subgenre_id"] for s in app_taxonomy.subgenres("36", "6014")][:3] == ["7001", "7002", "7003"]
    assert app_taxonomy.subgenres("36", "6000") == [] and app_taxonomy.genres("nowhere") == []
    assert {"subgenre_id": "GAME_ACTION", "subgenre": "Action"} in app_taxonomy.subgenres("GOOGLE_PLAY", "GAME")
    assert app_taxonomy.describe("36", "6000", "7001") is None  # a subgenre of another genre
    assert app_taxonomy.describe("GOOGLE_PLAY", "6014", "") is None  # an Apple genre under Google Play


def test_staff_curate_smart_lists_and_advertisers_target_the_active_ones(db):
    admin, co_admin = actor_of(db, "admin@demo.example"), actor_of(db, "coadmin@demo.example")
    me = actor_of(db, "advertiser@demo.example")
    created = smart_apps.create_list(db, actor=admin, **GAMES, entries="com.example.shooter\nid389801252\nbad")
    games = created.list
    assert (games.category, games.genre, games.subgenre, games.entries) == (
        "Apple App Store", "Games", "Action", 2)
    assert created.result.refused[0].line == 3
    with pytest.raises(Invalid) as error:
        smart_apps.create_list(db, actor=co_admin, **{**GAMES, "name": "Wrong", "subgenre_id": "GAME_ACTION"})
    assert set(error.value.fields) == {"subgenre_id"}
    business = smart_apps.create_list(db, actor=co_admin, name="Business apps", category_id="36",
                                      genre_id="6000").list
    smart_apps.set_status(db, actor=admin, list_id=business.id, status="archived")
    for call, kwargs in ((smart_apps.create_list, GAMES), (smart_apps.update_list, {"list_id": games.id}),
                         (smart_apps.set_status, {"list_id": games.id, "status": "archived"})):
        with pytest.raises(Forbidden):
            call(db, actor=me, **kwargs)
    assert [r.id for r in smart_apps.list_lists(db, actor=me)] == [games.id]
    with pytest.raises(NotFound):
        smart_apps.get_list(db, actor=me, list_id=business.id)
    campaign = campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({
        **BASE, "name": "Gamers", "targeting": {"smart_app_lists": [games.id]}}))
    assert campaign.targeting.smart_app_lists == [games.id]
    with pytest.raises(Invalid) as refused:
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Old", "targeting": {
            "smart_app_lists": [business.id]}}))
    assert set(refused.value.fields) == {"targeting.smart_app_lists"}
    with pytest.raises(Exception) as in_use:
        smart_apps.delete_list(db, actor=admin, list_id=games.id)
    assert "Gamers" in str(in_use.value)
    assert smart_apps.delete_list(db, actor=admin, list_id=business.id).deleted is True


def test_smart_app_calls_under_the_spec_names(client):
    admin = bearer_headers(client, "admin@demo.example")
    me = bearer_headers(client, "advertiser@demo.example")
    assert [c["category_id"] for c in client.get("/api/get-smart-app-categories", headers=me).json()["data"]] == [
        "36", "GOOGLE_PLAY"]
    genres = client.get("/api/genre", params={"category_id": "GOOGLE_PLAY"}, headers=me).json()["data"]
    assert {"genre_id": "GAME", "genre": "Games", "has_subgenres": True} in genres
    subs = client.get("/api/subgenre", params={"category_id": "36", "genre_id": "6014"}, headers=me).json()["data"]
    assert subs[0] == {"subgenre_id": "7001", "subgenre": "Action"}
    created = client.post("/api/admin/create-smart-app-list", headers=admin, json={**GAMES, "entries": "com.a.b"})
    assert created.status_code == 200 and created.json()["data"]["list"]["entries"] == 1
    assert client.post("/api/admin/create-smart-app-list", headers=me, json=GAMES).status_code == 403
    list_id = created.json()["data"]["list"]["id"]
    upload = client.post("/api/uploads/smart-app-list", headers=admin, data={"list_id": str(list_id)},
                         files={"file": ("games.csv", b"com.a.b\ncom.c.d\n", "text/csv")}).json()["data"]["result"]
    assert (upload["added"], upload["already_in_list"]) == (1, 1)


def test_inventory_list_pages_show_what_the_user_has(demo_ids):
    def make(db: Any) -> InventoryListRead:
        me = actor_of(db, "advertiser@demo.example")
        made = app_lists.create_list(db, actor=me, name="Premium news", kind="allow",
                                     entries="news.example.com\ncom.example.reader").list
        campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({**BASE, "name": "Readers", "targeting": {
            "inventory_lists": {"allow": [made.id], "block": []}}}))
        return made

    made = run(make)
    listing = page_at("/inventory-list", "advertiser@demo.example")
    assert "inventory-lists" in attribute_values(listing, "data-page")
    view = page_at(f"/inventory-list/view/{made.id}", "advertiser@demo.example")
    text = text_of(view)
    for shown in ("Premium news", "Allow", "Readers", "Export CSV"):
        assert shown in text, shown
    assert attribute_values(view, "data-apps") == ["1"] and attribute_values(view, "data-domains") == ["1"]
    edit = page_at(f"/agency/inventory-list/edit/{made.id}", "agency@demo.example")
    assert "inventory-list-edit" in attribute_values(edit, "data-page")
    assert attribute_values(edit, "data-move") == ["archive", "delete"]


def test_another_tenants_list_is_not_found_on_every_page(demo_ids):
    def make(db: Any) -> int:
        rival_agency, rival_advertiser = other_tenant(db)
        return app_lists.create_list(db, actor=actor_of(db, rival_agency.email), advertiser_id=rival_advertiser.id,
                                     name="Rival list", kind="block").list.id

    theirs = run(make)
    for path, email in ((f"/inventory-list/view/{theirs}", "advertiser@demo.example"),
                        (f"/inventory-list/edit/{theirs}", "advertiser@demo.example"),
                        (f"/agency/inventory-list/view/{theirs}", "agency@demo.example"),
                        (f"/agency/inventory-list/changelog/{theirs}", "agency@demo.example")):
        model = page_at(path, email)
        assert attribute_values(model, "data-state") == ["not-found"], path
        assert "Rival list" not in text_of(model)


def test_the_inventory_list_edit_page_prompts_after_inactivity():
    assert any(marker in "/inventory-list/edit/3" for marker in EDIT_PATH_MARKERS)
    assert any(marker in "/agency/inventory-list/edit/3" for marker in EDIT_PATH_MARKERS)
    assert not any(marker in "/inventory-list/view/3" for marker in EDIT_PATH_MARKERS)
