"""Money in API replies is one representation: dollars as text with two decimals ("5000.00", "-12.35"), never a
float (issue 21: payment history and the account lists answered floats while funds answered text)."""

from __future__ import annotations

import re
from typing import Any

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.funds import service as funds
from app.main import create_api
from tests.helpers import actor_of, bearer_headers

# Keys that hold an amount of money in the replies walked below.
MONEY_KEYS = {"amount", "balance", "total_budget", "daily_budget", "bid", "deposits", "spend", "margin_spend",
              "month_charged", "budget", "spent", "expected"}
MONEY_TEXT = re.compile(r"^-?\d+\.\d{2}$")
NOT_WALKED = ("/payment/stripe/", "/postback/", "/dsp/associations/")


def _money_values(value: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        found = [(f"{path}.{k}", v) for k, v in value.items() if k in MONEY_KEYS and not isinstance(v, dict | list)]
        return found + [pair for k, v in value.items() for pair in _money_values(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [pair for item in value for pair in _money_values(item, path + "[]")]
    return []


def test_every_list_and_read_reply_answers_money_as_decimal_text(client, db, demo_ids):
    admin = actor_of(db, "admin@demo.example")
    advertiser_id = demo_ids["advertiser@demo.example"]
    # A withdrawal, so that negative amounts are walked too.
    funds.add_funds(db, actor=admin, advertiser_id=advertiser_id, amount="-12.35", kind="adjustment", note="fix")
    campaign = campaigns.create_campaign(db, actor=actor_of(db, "advertiser@demo.example"), data=CampaignUpdate.model_validate({
        "name": "Money Walk", "objective": "traffic", "starts_at": "2026-12-01", "time_zone": "UTC",
        "total_budget": "1000", "daily_budget": "50.5", "bid_strategy": "cpm", "bid": "2"}))
    db.commit()
    ids = {"user_id": advertiser_id, "advertiser_id": advertiser_id, "user_primary_id": advertiser_id,
           "campaign_id": campaign.id}
    headers = bearer_headers(client, "admin@demo.example")
    walked, seen = [], []
    for path, operations in create_api().openapi()["paths"].items():
        params = re.findall(r"{(\w+)}", path)
        if "get" not in operations or path.startswith(NOT_WALKED) or not set(params) <= set(ids):
            continue
        reply = client.get("/api" + path.format(**ids), headers=headers)
        if reply.status_code != 200:
            continue
        walked.append(path)
        seen += [(path + where, value) for where, value in _money_values(reply.json()["data"])]
    assert {"/users", "/agencies", "/users/{user_id}/payments", "/funds/{advertiser_id}/ledger",
            "/agency/payment-history/{advertiser_id}", "/campaigns"} <= set(walked)
    floats = [(where, value) for where, value in seen if value is not None and not (
        isinstance(value, str) and MONEY_TEXT.match(value))]
    assert not floats, floats
    assert ("/funds/{advertiser_id}/ledger.items[].amount", "-12.35") in seen
