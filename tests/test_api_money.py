"""Money text over the API: every money field (budgets, bid, lowest and highest bid, add funds, margin) answers a bad
value with a 422 naming the field, in a message a person understands, and stores nothing. These values used to answer
500 ("NaN", "Infinity", "1E+30", "99999999999999") or be stored as something else ("1e3" as $1,000.00, "١٢٣" as
$123.00, an empty margin as 0)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import func, select

from app.access.models import UserSettings
from app.campaigns.models import Campaign
from app.funds.models import LedgerEntry
from app.kernel.db import run
from tests.helpers import bearer_headers

NEW = {"name": "Money", "objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC",
       "total_budget": "1000", "daily_budget": "100", "bid_strategy": "cpm", "bid": "2", "bid_min": "1",
       "bid_max": "4"}
BAD = ("NaN", "Infinity", "1E+30", "99999999999999", "1e3", "١٢٣", "1.001", "-1", "1,5", "twelve")
CAMPAIGN_MONEY = ("total_budget", "daily_budget", "bid", "bid_min", "bid_max")


def _refused(reply: Any, field: str) -> str:
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["success"] is False
    fields = body["data"]["fields"]
    assert list(fields) == [field], fields
    return fields[field]


def _campaign_count() -> int:
    return run(lambda db: db.exec(select(func.count()).select_from(Campaign)).one())


@pytest.mark.parametrize("field", CAMPAIGN_MONEY)
def test_a_bad_amount_in_a_new_campaign_is_a_422_naming_the_field(client, field: str) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    before = _campaign_count()
    for text in BAD:
        message = _refused(client.post("/api/campaigns", headers=me, json={**NEW, field: text}), field)
        assert "Internal" not in message and message.endswith("."), (text, message)
    assert _campaign_count() == before


@pytest.mark.parametrize("field", CAMPAIGN_MONEY)
def test_a_bad_amount_in_a_campaign_edit_is_a_422_and_the_campaign_keeps_its_values(client, field: str) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/campaigns", headers=me, json=NEW).json()["data"]
    for text in BAD:
        _refused(client.put(f"/api/campaigns/{created['id']}", headers=me, json={field: text, "name": "Renamed"}), field)
    after = client.get(f"/api/campaigns/{created['id']}", headers=me).json()["data"]
    assert {k: after[k] for k in (*CAMPAIGN_MONEY, "name")} == {k: created[k] for k in (*CAMPAIGN_MONEY, "name")}


def test_the_messages_say_what_to_type(client) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    said = {text: _refused(client.post("/api/campaigns", headers=me, json={**NEW, "total_budget": text}),
                           "total_budget") for text in ("1e3", "99999999999999", "١٢٣", "1.001", "")}
    assert said == {"1e3": "Write the amount out in full, e.g. 1000 rather than 1e3.",
                    "99999999999999": "At most $100,000,000.00.",
                    "١٢٣": "Enter the amount in digits 0-9, e.g. 5000.00.",
                    "1.001": "Enter an amount with at most two decimals.",
                    "": "Enter an amount, e.g. 5000.00."}
    assert _refused(client.post("/api/campaigns", headers=me, json={**NEW, "bid": "1E+30"}), "bid") == \
        "Write the amount out in full, e.g. 1000 rather than 1e3."
    assert _refused(client.post("/api/campaigns", headers=me, json={**NEW, "bid_max": "6000"}), "bid_max") == \
        "At most $5,000.00."


def test_what_a_person_types_is_stored_exactly(client) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    created = client.post("/api/campaigns", headers=me, json={**NEW, "total_budget": "$12,345.50",
                                                               "daily_budget": " 1,000 "})
    assert created.status_code == 201, created.text
    assert (created.json()["data"]["total_budget"], created.json()["data"]["daily_budget"]) == ("12345.50", "1000.00")


def test_a_bad_amount_in_a_bulk_edit_is_a_422_before_any_campaign_changes(client) -> None:
    me = bearer_headers(client, "advertiser@demo.example")
    ids = [client.post("/api/campaigns", headers=me, json={**NEW, "name": n}).json()["data"]["id"] for n in "AB"]
    for field in CAMPAIGN_MONEY:
        for text in ("NaN", "1E+30", "99999999999999", "١٢٣"):
            reply = client.post("/api/campaigns/bulk", headers=me,
                                json={"campaign_ids": ids, "changes": {field: text, "goal_metric": "ctr",
                                                                       "goal_target": "2"}})
            _refused(reply, field)
    rows = [client.get(f"/api/campaigns/{i}", headers=me).json()["data"] for i in ids]
    assert [(r["total_budget"], r["bid"], r["goal_metric"]) for r in rows] == [("1000.00", "2.00", "none")] * 2


def _balance(advertiser_id: int) -> int:
    return run(lambda db: db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0))
                                  .where(LedgerEntry.advertiser_id == advertiser_id)).one())


def test_a_bad_amount_added_to_funds_is_a_422_and_no_entry(client, demo_ids) -> None:
    admin = bearer_headers(client, "admin@demo.example")
    advertiser = demo_ids["advertiser@demo.example"]
    before = _balance(advertiser)
    for text in (*BAD, "", "1000000.01"):
        if text == "-1":
            continue  # an adjustment may take money off; a deposit may not (its own message)
        _refused(client.post("/api/funds", headers=admin, json={"advertiser_id": advertiser, "kind": "adjustment",
                                                                 "amount": text}), "amount")
    assert _refused(client.post("/api/funds", headers=admin, json={"advertiser_id": advertiser, "kind": "deposit",
                                                                    "amount": "1E+30"}), "amount") == \
        "Write the amount out in full, e.g. 1000 rather than 1e3."
    assert _balance(advertiser) == before
    added = client.post("/api/funds", headers=admin, json={"advertiser_id": advertiser, "kind": "deposit",
                                                            "amount": "$1,250.50"})
    assert added.status_code == 201 and added.json()["data"]["amount"] == "1250.50"


def _margin_bps(user_id: int) -> int:
    return run(lambda db: (db.get(UserSettings, user_id) or UserSettings(user_id=user_id)).margin_bps)


def test_a_bad_or_empty_margin_is_a_422_and_the_margin_stays(client, demo_ids) -> None:
    advertiser = demo_ids["advertiser@demo.example"]
    agency = bearer_headers(client, "agency@demo.example")
    assert client.put(f"/api/users/{advertiser}/margin", headers=agency, json={"margin": "12.5"}).status_code == 200
    for text in ("", "  ", "NaN", "1e1", "90.01", "١٢", "-1", "12.345"):
        _refused(client.put(f"/api/users/{advertiser}/margin", headers=agency, json={"margin": text}), "margin")
    admin = bearer_headers(client, "admin@demo.example")
    config = {"insight_dashboard": True, "postback_enabled": False, "api_access": True, "allowed_exchanges": []}
    for text in ("", "Infinity", "1E+2"):
        _refused(client.put(f"/api/users/{advertiser}/config", headers=admin, json={**config, "margin": text}), "margin")
    assert _margin_bps(advertiser) == 1250
