"""The other paged API lists (agencies, funds, ledgers, payments, API keys, change logs): walked a small page at a
time they give what one big page gives, in the same order, with the total where it is counted; another tenant's
rows never appear; a cursor of one list is refused by another."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from app.funds import service as funds
from app.kernel.db import run
from tests.helpers import bearer_headers, other_tenant, walk_pages

ADMIN, AGENCY = "admin@demo.example", "agency@demo.example"


def _whole(client: Any, headers: dict[str, str], path: str, **params: Any) -> list[dict[str, Any]]:
    page = client.get(path, headers=headers, params={**params, "limit": 500}).json()["data"]
    assert page["next_cursor"] is None
    return list(page["items"])


def test_funds_and_agencies_page_in_order_and_keep_other_tenants_out(client: Any, demo_ids: dict[str, int]) -> None:
    rival_agency, rival_advertiser = run(lambda db: tuple(u.id for u in other_tenant(db)))
    admin, agency = bearer_headers(client, ADMIN), bearer_headers(client, AGENCY)
    everyone = _whole(client, admin, "/api/funds")
    assert walk_pages(client, admin, "/api/funds", 1) == everyone and rival_advertiser in {r["id"] for r in everyone}
    mine = walk_pages(client, agency, "/api/funds", 1)
    assert [r["id"] for r in mine] == [demo_ids["advertiser@demo.example"]]  # the rival's advertiser: never
    agencies = walk_pages(client, admin, "/api/agencies", 1)
    assert [a["id"] for a in agencies] == sorted(a["id"] for a in agencies) and rival_agency in {a["id"] for a in agencies}
    assert next(a for a in agencies if a["id"] == rival_agency)["advertisers"] == 1
    assert client.get("/api/agencies", headers=agency).status_code == 403
    cursor = client.get("/api/funds", headers=admin, params={"limit": 1}).json()["data"]["next_cursor"]
    for path in ("/api/agencies", f"/api/funds/{rival_advertiser}/ledger"):  # another list's cursor
        refused = client.get(path, headers=admin, params={"cursor": cursor})
        assert refused.status_code == 422 and "cursor" in refused.json()["data"]["fields"], path


def test_a_ledger_pages_newest_first_with_each_balance_right(client: Any, demo_ids: dict[str, int]) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    admin = bearer_headers(client, ADMIN)
    for n in range(1, 6):
        assert client.post("/api/funds", headers=admin, json={"advertiser_id": advertiser, "amount": f"{n}0.00",
                                                              "kind": "deposit", "note": f"Wire {n}"}).status_code == 201
    day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=3)
    run(lambda db: [funds.charge_delivery(db, charges={advertiser: 1_500_000 + n}, reference=f"stats:page:{n}",
                                          booked_at=day + timedelta(days=n // 2, hours=n)) for n in range(4)])
    for path in (f"/api/funds/{advertiser}/ledger", f"/api/users/{advertiser}/payments"):
        whole = _whole(client, admin, path)
        assert walk_pages(client, admin, path, 2) == whole
        assert [row["note"] for row in whole if row["kind"] == "deposit"][:5] == [f"Wire {n}" for n in range(5, 0, -1)]
        for newer, older in zip(whole, whole[1:], strict=False):  # read down: each balance less its amount
            assert Decimal(newer["balance"]) - Decimal(newer["amount"]) == Decimal(older["balance"]), (newer, older)
    statement = _whole(client, admin, f"/api/funds/{advertiser}/ledger", group="day")
    assert walk_pages(client, admin, f"/api/funds/{advertiser}/ledger", 1, group="day") == statement
    assert [row["kind"] for row in statement].count("delivery") >= 2


def test_api_keys_and_change_logs_page_the_same_way(client: Any, demo_ids: dict[str, int]) -> None:
    admin = bearer_headers(client, ADMIN)
    advertiser = demo_ids["advertiser@demo.example"]
    for n in range(4):
        assert client.post(f"/api/users/{advertiser}/api-keys", headers=admin,
                           json={"label": f"Key {n}"}).status_code in (200, 201)
        assert client.patch(f"/api/users/{advertiser}", headers=admin,
                            json={"companyName": f"Arlo Shoes {n}"}).status_code == 200
    keys = walk_pages(client, admin, f"/api/users/{advertiser}/api-keys", 1)
    assert [k["label"] for k in keys][:4] == ["Key 3", "Key 2", "Key 1", "Key 0"]
    log = f"/api/users/{advertiser}/change-log"
    entries = walk_pages(client, admin, log, 2)
    assert entries == _whole(client, admin, log) and len(entries) >= 4
    assert [e["id"] for e in entries] == sorted((e["id"] for e in entries), reverse=True)
    cursor = client.get(log, headers=admin, params={"limit": 1}).json()["data"]["next_cursor"]
    for other in ({"since": "2020-01-01"}, {}):  # another filter, or another record's log
        path = log if other else f"/api/users/{demo_ids['agency@demo.example']}/change-log"
        refused = client.get(path, headers=admin, params={"cursor": cursor, **other})
        assert refused.status_code == 422 and "cursor" in refused.json()["data"]["fields"], other
