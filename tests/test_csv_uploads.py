"""Spreadsheets as Europe writes them (issue 38 item 8): every CSV upload reads comma, semicolon and tab files
through one reader (app/kernel/csv_uploads.py), a semicolon file's decimal commas included; a file whose columns
cannot be told apart is refused whole; and a list upload none of whose lines is an entry changes nothing and says
which lines were refused (a "replace" of such a file emptied the list: 200, removed 3, total 0)."""

from __future__ import annotations

import io

import pytest
from sqlmodel import func, select

from app.campaigns.targeting import geo_fence_from_csv
from app.history.models import AuditEntry
from app.kernel import csv_uploads
from app.kernel.errors import Invalid
from app.statistics import csv_batches
from app.supply import app_lists, audiences, smart_apps
from app.supply.list_lifecycle import NO_ENTRY_IN_FILE
from app.supply.models import AppListEntry
from tests.helpers import actor_of, bearer_headers
from tests.test_ingestion import day_totals, setup  # noqa: F401  # the ingestion tests' advertiser and campaign

SEMICOLON = "value;note\nexample.com;Our site\nnews.example.org;Partner\ncom.example.app;Game\n"
FILES = {"semicolon": SEMICOLON, "tab": SEMICOLON.replace(";", "\t"), "comma": SEMICOLON.replace(";", ","),
         "one column": "example.com\nnews.example.org\ncom.example.app\n"}
IDS = ("6f1c2a9e-3b4d-4e5f-8a6b-7c8d9e0f1a2b", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")


def _entries(db, list_id: int) -> list[str]:
    return sorted(db.exec(select(AppListEntry.value).where(AppListEntry.list_id == list_id)).all())


@pytest.mark.parametrize("name", FILES)
def test_an_inventory_list_takes_a_file_in_any_of_the_three_separators(db, name):
    me = actor_of(db, "advertiser@demo.example")
    made = app_lists.create_list(db, actor=me, name="Partners", kind="allow", entries="")
    result = app_lists.upload_entries(db, actor=me, applist_id=made.list.id, content=FILES[name].encode())
    assert (result.added, result.refused_count) == (3, 0), result
    assert _entries(db, made.list.id) == ["com.example.app", "example.com", "news.example.org"]


def test_a_smart_app_list_and_the_api_read_a_semicolon_file(client, db):
    admin = actor_of(db, "admin@demo.example")
    smart = smart_apps.create_list(db, actor=admin, name="Games", category_id="36", genre_id="6014",
                                   subgenre_id="7001", entries="")
    result = smart_apps.upload_entries(db, actor=admin, list_id=smart.list.id,
                                       content=b"bundle_id;name\ncom.example.one;One\ncom.example.two;Two\n")
    assert (result.added, result.refused_count) == (2, 0)
    db.commit()  # the API's calls write through connections of their own
    me = bearer_headers(client, "advertiser@demo.example")
    made = client.post("/api/inventory-lists", headers=me, json={"name": "Mine", "kind": "allow",
                                                                  "entries": "a.example.com"})
    list_id = made.json()["data"]["list"]["id"]
    for mode in ("replace", "add"):  # the API's 422 names the lines; nothing changed
        refused = client.post("/api/uploads/inventory-list", headers=me, data={"applist_id": list_id, "mode": mode},
                              files={"file": ("list.csv", b"???\n!!!\n", "text/csv")})
        assert refused.status_code == 422 and "line 2 (!!!)" in refused.json()["message"], refused.text
    uploaded = client.post("/api/uploads/inventory-list", headers=me, data={"applist_id": list_id, "mode": "replace"},
                           files={"file": ("list.csv", SEMICOLON.encode(), "text/csv")})
    assert uploaded.status_code == 200, uploaded.text
    assert (uploaded.json()["data"]["result"]["added"], uploaded.json()["data"]["result"]["removed"]) == (3, 1)


@pytest.mark.parametrize("mode", ["replace", "add"])
def test_a_file_whose_every_line_is_refused_changes_nothing_and_names_the_lines(db, mode):
    me = actor_of(db, "advertiser@demo.example")
    made = app_lists.create_list(db, actor=me, name="Keep", kind="allow",
                                 entries="a.example.com\nb.example.com\ncom.example.c")
    db.flush()
    audits = db.exec(select(func.count()).select_from(AuditEntry)).one()
    with pytest.raises(Invalid) as refused:
        app_lists.upload_entries(db, actor=me, applist_id=made.list.id, mode=mode,
                                 content=b"???\nnot an entry\n!!!\n")
    assert refused.value.fields == {"file": NO_ENTRY_IN_FILE}
    assert "line 1 (???)" in refused.value.message and "line 2 (not an entry)" in refused.value.message
    assert _entries(db, made.list.id) == ["a.example.com", "b.example.com", "com.example.c"], "the list kept"
    assert db.exec(select(func.count()).select_from(AuditEntry)).one() == audits


def test_a_file_mixing_separators_is_refused_whole(db):
    me = actor_of(db, "advertiser@demo.example")
    made = app_lists.create_list(db, actor=me, name="Keep", kind="allow", entries="a.example.com")
    with pytest.raises(Invalid) as refused:
        app_lists.upload_entries(db, actor=me, applist_id=made.list.id, mode="replace",
                                 content=b"example.com;x\nnews.example.org\nc.example.com,d;e;f\nz.example.com\n")
    assert refused.value.fields == {"file": csv_uploads.MIXED}
    assert _entries(db, made.list.id) == ["a.example.com"]


def test_the_separator_is_told_from_the_file():
    assert csv_uploads.separator_of("48,85;2,35;1,5\n40,71;-74,01;2\n") == ";"  # decimal commas stay in cells
    assert csv_uploads.separator_of('"a;b",c\n"d;e",f\n') == ","  # a quoted semicolon separates nothing
    assert csv_uploads.separator_of("example.com\n") == ","
    assert csv_uploads.number_text("-74,01", ";") == "-74.01" and csv_uploads.number_text("1,234", ",") == "1,234"


def test_a_geo_fence_file_from_a_european_spreadsheet(db):
    fence, problem = geo_fence_from_csv("latitude;longitude;radius\n48,8566;2,3522;1,5\n40,7128;-74,0060;2\n")
    assert (fence, problem) == ("48.8566,2.3522,1.5|40.7128,-74.0060,2", None)
    assert geo_fence_from_csv("48.85,2.35,1.5\n")[0] == "48.85,2.35,1.5"


def test_an_audience_reads_the_first_cell_of_a_semicolon_file_and_refuses_a_file_of_no_ids(db):
    me = actor_of(db, "advertiser@demo.example")
    audience = audiences.create_audience(db, actor=me, name="Buyers", kind="device_ids")
    text = f"idfa;name\n{IDS[0]};Anna\n{IDS[1]};Ben\n"
    uploaded = audiences.upload_devices(db, actor=me, audience_id=audience.id, stream=io.BytesIO(text.encode()))
    assert (uploaded.upload.valid, uploaded.upload.invalid, uploaded.upload.added) == (2, 0, 2)
    with pytest.raises(Invalid) as refused:
        audiences.upload_devices(db, actor=me, audience_id=audience.id, stream=io.BytesIO(b"nope;1\nnada;2\n"))
    assert "line 1 (nope)" in refused.value.message and "Nothing was changed" in refused.value.message


def test_a_statistics_batch_in_semicolons(db, setup):  # noqa: F811
    adv, camp = setup["advertiser"].id, setup["campaign"]
    header = ";".join(csv_batches.CSV_COLUMNS) + "\n"
    line = f"2026-11-10T08:00:00Z;{adv};{camp};0;Google AdX;iOS;DE;com.example.shop;tablet;500;5;1500000;1\n"
    answer = csv_batches.ingest_csv(db, actor=setup["admin"], batch_id="semi-1", text=header + line)
    assert answer.rows == 1
    assert day_totals(db, setup)[0]["impressions"] == 500
