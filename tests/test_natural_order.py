"""Names sort as people read them in every list, by a stored key (app/kernel/natural_order.py): the key orders names as
the grid's collator did, follows a rename, and is there for rows however they were written (issue 26: the lists
sort in SQL, on an index)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert
from sqlmodel import select

from app.access.models import User
from app.accounts import users
from app.campaigns import service as campaigns
from app.campaigns.models import Campaign
from app.campaigns.schemas import CampaignUpdate
from app.kernel.natural_order import natural_sort_key
from tests.helpers import actor_of, user_by_email

NAMES = ["Wave 10", "wave 9", "Wave 2", "Wave", "wave 2b", "Wave 02", "10 items", "9 items", "Item", "item 1",
         "a1", "a 1", "ab", "A", "", "Zeta 100000000000000000000", "zeta 99999999999999999999", "Émile 3", "émile 20",
         "x-1", "x 1", "x1.5", "x1.10"]
NEW: dict[str, Any] = {"objective": "app_installs", "starts_at": "2026-12-01", "time_zone": "UTC",
                       "total_budget": "1200", "bid_strategy": "cpc", "bid": "0.30",
                       "targeting": {"countries": ["US"], "device_types": ["phone"]}}
# A campaign row as a bulk insert writes it (every column but the advertiser and the name).
NOW = datetime.now(UTC)
BULK_ROW: dict[str, Any] = {
    "objective": "traffic", "status": "draft", "starts_at": NOW, "ends_at": None, "time_zone": "UTC",
    "total_budget_micros": 1_000_000, "daily_budget_micros": None, "pacing": "even", "bid_strategy": "cpm",
    "bid_micros": 1_000_000, "traffic_type": "app", "goal_metric": "none", "goal_target": "", "targeting": {},
    "created_at": NOW, "updated_at": NOW}


def _reading_order(text: str) -> tuple[str | int, ...]:
    """The order the list kept before the key was stored (compared in Python): case-folded text, digit runs as
    numbers."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", text.casefold())))


def test_the_stored_key_orders_names_as_people_read_them() -> None:
    assert sorted(NAMES, key=natural_sort_key) == sorted(NAMES, key=_reading_order)
    assert sorted(["Wave 10", "Wave 9", "wave 1"], key=natural_sort_key) == ["wave 1", "Wave 9", "Wave 10"]
    for one in NAMES:  # equal keys only where the reading order ties too ("Wave 2" and "Wave 02")
        for other in NAMES:
            assert (natural_sort_key(one) == natural_sort_key(other)) == (_reading_order(one) == _reading_order(other))


def _names(db: Any, actor: Any, sort: str) -> list[str]:
    return [row.name for row in campaigns.campaigns_api_page(db, actor=actor, sort=sort).items]


def test_a_renamed_campaign_moves_to_its_new_place_in_the_name_order(db) -> None:
    advertiser = actor_of(db, "advertiser@demo.example")
    made = {name: campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**NEW, "name": name}))
            for name in ("Wave 10", "Wave 9", "Wave 100")}
    assert _names(db, advertiser, "name") == ["Wave 9", "Wave 10", "Wave 100"]
    campaigns.update_campaign(db, actor=advertiser, campaign_id=made["Wave 9"].id,
                              data=CampaignUpdate.model_validate({"name": "Wave 11"}))
    assert _names(db, advertiser, "name") == ["Wave 10", "Wave 11", "Wave 100"]
    assert _names(db, advertiser, "-name") == ["Wave 100", "Wave 11", "Wave 10"]


def test_renaming_an_advertiser_moves_its_campaigns_in_the_advertiser_order(db) -> None:
    admin = actor_of(db, "admin@demo.example")
    first = user_by_email(db, "advertiser@demo.example")
    second = users.create_user(db, actor=admin, email="second@demo.example", role="ADVERTISER", first_name="Sam",
                               last_name="Second", company_name="Shop 10", password="Second-pass-123")
    for owner, name in ((first.id, "Mine"), (second.id, "Theirs")):
        campaigns.create_campaign(db, actor=admin, advertiser_id=owner,
                                  data=CampaignUpdate.model_validate({**NEW, "name": name}))
    users.update_user(db, actor=admin, user_id=first.id, company_name="Shop 9")
    assert _names(db, admin, "advertiser") == ["Mine", "Theirs"]  # "Shop 9" before "Shop 10"
    users.update_user(db, actor=admin, user_id=first.id, company_name="Shop 11")
    assert _names(db, admin, "advertiser") == ["Theirs", "Mine"]


def test_rows_inserted_in_bulk_are_keyed_too(db) -> None:
    """A bulk INSERT (seeds, imports) bypasses the ORM: the column's own default keys each row."""
    advertiser = user_by_email(db, "advertiser@demo.example")
    db.execute(insert(Campaign), [{**BULK_ROW, "advertiser_id": advertiser.id, "name": name}
                                  for name in ("Bulk 10", "Bulk 9")])
    keys = dict(db.exec(select(Campaign.name, Campaign.name_key).where(Campaign.name.startswith("Bulk"))).all())
    assert keys == {"Bulk 10": natural_sort_key("Bulk 10"), "Bulk 9": natural_sort_key("Bulk 9")}
    assert db.exec(select(User.name_key).where(User.id == advertiser.id)).one() == natural_sort_key(
        advertiser.company_name or f"{advertiser.first_name} {advertiser.last_name}".strip())

