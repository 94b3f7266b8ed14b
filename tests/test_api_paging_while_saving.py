"""Paged API lists read every row exactly once while rows are saved between pages (issue 38 item 11: the
campaign list's default order was last-changed, so a rename mid-walk moved the campaign ahead of the cursor and a
reader got 249 of 250). Each list's default order is one no save moves (app/kernel/keyset_pages.newest_first):
here a row not read yet is renamed, or its status changed, after every page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.schemas import CreativeCreate, CreativeUpdate
from app.dsps import service as dsps
from app.dsps.schemas import DspCreate, DspUpdate
from app.kernel.db import run
from app.supply import app_lists, audiences, smart_apps
from tests.helpers import actor_of, bearer_headers

ROWS = 7
ADVERTISER, ADMIN = "advertiser@demo.example", "admin@demo.example"


def _campaign(db, n):
    return campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER), data=CampaignUpdate.model_validate({
        "name": f"Wave {n}", "starts_at": "2026-12-01", "total_budget": "1000", "bid": "0.50"})).id


def _creative(db, n):
    return creatives.create_creative(db, actor=actor_of(db, ADVERTISER), data=CreativeCreate(
        type="html", name=f"Banner {n}", width=300, height=250, html="<p>ad</p>")).id


def _app_list(db, n):
    return app_lists.create_list(db, actor=actor_of(db, ADVERTISER), name=f"List {n}", kind="allow",
                                 entries="example.com").list.id


def _smart_list(db, n):
    return smart_apps.create_list(db, actor=actor_of(db, ADMIN), name=f"Smart {n}", category_id="36",
                                  genre_id="6014", subgenre_id="7001", entries="com.example.app").list.id


def _dsp(db, n):
    return dsps.create_dsp(db, actor=actor_of(db, ADMIN), data=DspCreate(
        name=f"Bidder {n}", connector="http_json", endpoint_url="https://bidder.example/api", api_key="k-1",
        exchange_ids=[])).id


def _audience(db, n):
    return audiences.create_audience(db, actor=actor_of(db, ADVERTISER), name=f"Audience {n}", kind="device_ids").id


# (path, who reads, make row n, save row id: a rename, or a status change where a list has no rename)
LISTS: dict[str, tuple[str, str, Callable[[Any, int], int], Callable[[Any, int], Any]]] = {
    "campaigns": ("/api/campaigns", ADVERTISER, _campaign, lambda db, i: campaigns.update_campaign(
        db, actor=actor_of(db, ADVERTISER), campaign_id=i, data=CampaignUpdate.model_validate({"name": f"A{i}"}))),
    "creatives": ("/api/creatives", ADVERTISER, _creative, lambda db, i: creatives.update_creative(
        db, actor=actor_of(db, ADVERTISER), creative_id=i, data=CreativeUpdate(name=f"A{i}"))),
    "inventory lists": ("/api/inventory-lists", ADVERTISER, _app_list, lambda db, i: app_lists.update_list(
        db, actor=actor_of(db, ADVERTISER), applist_id=i, name=f"A{i}")),
    "smart-app lists": ("/api/smart-apps", ADMIN, _smart_list, lambda db, i: smart_apps.update_list(
        db, actor=actor_of(db, ADMIN), list_id=i, name=f"A{i}")),
    "dsps": ("/api/dsp", ADMIN, _dsp, lambda db, i: dsps.update_dsp(
        db, actor=actor_of(db, ADMIN), dsp_id=i, data=DspUpdate(name=f"A{i}"))),
    "audiences": ("/api/audiences", ADVERTISER, _audience, lambda db, i: audiences.set_status(
        db, actor=actor_of(db, ADVERTISER), audience_id=i, status="inactive")),
}


@pytest.mark.parametrize("name", LISTS)
def test_a_list_read_page_by_page_while_its_rows_are_saved_gives_every_row_once(client, demo_ids, name):
    path, reader, make, save = LISTS[name]
    made = run(lambda db: [make(db, n) for n in range(ROWS)])
    headers = bearer_headers(client, reader)
    seen: list[int] = []
    cursor = None
    while True:
        reply = client.get(path, headers=headers, params={"limit": 2, **({"cursor": cursor} if cursor else {})})
        assert reply.status_code == 200, reply.text
        page = reply.json()["data"]
        seen += [row["id"] for row in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        unseen = [i for i in made if i not in seen]
        if unseen:  # the row the reader would reach last is saved now: under a last-changed order it jumps ahead
            run(lambda db, row=unseen[0]: save(db, row))
    assert len(seen) == len(set(seen)), f"{name}: a row was read twice"
    assert set(made) <= set(seen), f"{name}: {len(set(made) - set(seen))} rows never read"
