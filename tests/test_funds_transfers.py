"""An agency moves money between its advertisers: both ledgers name the other side, never more than the balance
(two transfers at once included), never across agencies, and a source left at $0.00 pauses its campaigns."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import Session, col, select
from starlette.testclient import TestClient

from app.access.models import User
from app.access.roles import Role
from app.campaigns.models import Campaign, CampaignStatus
from app.demo.advertising import seed_demo_advertising
from app.funds import ledger, transfers
from app.funds import service as funds
from app.kernel.db import session_scope
from app.kernel.errors import Forbidden, Invalid
from tests.helpers import actor_of, bearer_headers, other_tenant, user_by_email

AGENCY, ADVERTISER = "agency@demo.example", "advertiser@demo.example"
OPENING = 5_000_000_000  # the demo seed's $5,000 deposit


def second_advertiser(db: Session) -> User:
    """Another advertiser of the demo agency, with an empty balance."""
    agency = user_by_email(db, AGENCY)
    user = User(email="trail@demo.example", password_hash="-", role=Role.ADVERTISER, agency_id=agency.id,
                company_name="Trail Co", first_name="Tess", last_name="Trail")
    db.add(user)
    db.flush()
    return user


def test_a_transfer_moves_money_and_both_ledgers_name_the_other_side(db: Session) -> None:
    source, target = user_by_email(db, ADVERTISER), second_advertiser(db)
    agency = actor_of(db, AGENCY)
    moved = transfers.transfer_funds(db, actor=agency, from_advertiser_id=source.id, to_advertiser_id=target.id,
                                     amount="1,250.50", note="Spring sale")
    assert (moved.from_balance, moved.to_balance, moved.amount_micros) == ("3749.50", "1250.50", 1_250_500_000)
    out = ledger.payment_history(db, actor=agency, advertiser_id=source.id)[0]
    into = ledger.payment_history(db, actor=agency, advertiser_id=target.id)[0]
    assert (out.kind, out.note, out.amount) == ("transfer", "Transfer to Trail Co: Spring sale", "-1250.50")
    assert (into.kind, into.note, into.amount) == ("transfer", "Transfer from Acme Outdoor: Spring sale", "1250.50")


def test_a_transfer_is_refused_naming_the_field(db: Session) -> None:
    source, target = user_by_email(db, ADVERTISER), second_advertiser(db)
    _rival_agency, rival = other_tenant(db)
    agency = actor_of(db, AGENCY)
    cases = [({"to_advertiser_id": rival.id}, "to_advertiser_id", funds.CHOOSE_ADVERTISER),
             ({"from_advertiser_id": rival.id}, "from_advertiser_id", funds.CHOOSE_ADVERTISER),
             ({"to_advertiser_id": source.id}, "to_advertiser_id", transfers.SAME_ADVERTISER),
             ({"amount": "0"}, "amount", transfers.NOTHING_TO_MOVE),
             ({"amount": "-5"}, "amount", "Enter an amount of zero or more."),
             ({"amount": "5000.01"}, "amount", "At most $5,000.00 can be moved: the balance of Acme Outdoor.")]
    for change, field, message in cases:
        given = {"from_advertiser_id": source.id, "to_advertiser_id": target.id, "amount": "10", **change}
        with pytest.raises(Invalid) as refused:
            transfers.transfer_funds(db, actor=agency, **given)
        assert str(refused.value.fields[field]) == message, change
    # Staff see every advertiser, yet money still stays inside one agency.
    with pytest.raises(Invalid) as refused:
        transfers.transfer_funds(db, actor=actor_of(db, "admin@demo.example"), from_advertiser_id=source.id,
                                 to_advertiser_id=rival.id, amount="10")
    assert refused.value.fields == {"to_advertiser_id": transfers.OTHER_AGENCY}
    with pytest.raises(Forbidden):
        transfers.transfer_funds(db, actor=actor_of(db, ADVERTISER), from_advertiser_id=source.id,
                                 to_advertiser_id=target.id, amount="10")
    assert funds.balances_micros(db, [source.id, target.id, rival.id]) == {source.id: OPENING, target.id: 0,
                                                                           rival.id: 0}


def test_emptying_the_source_pauses_its_active_campaigns(db: Session) -> None:
    source, target = user_by_email(db, ADVERTISER), second_advertiser(db)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))  # five campaigns, one in each state
    active = db.exec(select(Campaign).where(Campaign.advertiser_id == source.id,
                                            Campaign.status == CampaignStatus.ACTIVE)).all()
    assert active, "the demo advertiser has an active campaign"
    transfers.transfer_funds(db, actor=actor_of(db, AGENCY), from_advertiser_id=source.id,
                             to_advertiser_id=target.id, amount="5000")
    statuses = db.exec(select(Campaign.status).where(col(Campaign.id).in_([c.id for c in active]))).all()
    assert set(statuses) == {CampaignStatus.PAUSED}


def test_two_transfers_at_once_cannot_overdraw(demo_ids: dict[str, int]) -> None:
    with session_scope() as db:
        source_id, target_id = demo_ids[ADVERTISER], second_advertiser(db).id
        agency = actor_of(db, AGENCY)
    start = threading.Barrier(2)

    def move(_n: int) -> str:
        start.wait()  # both read the $5,000 balance at the same moment if nothing holds the second back
        try:
            with session_scope() as db:
                transfers.transfer_funds(db, actor=agency, from_advertiser_id=source_id, to_advertiser_id=target_id,
                                         amount="3000")
            return "moved"
        except Invalid as refused:
            return str(refused.fields["amount"])

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(move, range(2)))
    assert outcomes == ["At most $2,000.00 can be moved: the balance of Acme Outdoor.", "moved"]
    with session_scope() as db:
        assert funds.balances_micros(db, [source_id, target_id]) == {source_id: 2_000_000_000,
                                                                     target_id: 3_000_000_000}


def test_the_api_moves_money_and_refuses_another_agencys_advertiser(client: TestClient,
                                                                     demo_ids: dict[str, int]) -> None:
    with session_scope() as db:
        target_id = second_advertiser(db).id
        rival_id = other_tenant(db)[1].id
    headers = bearer_headers(client, AGENCY)
    reply = client.post("/api/funds/transfers", json={"from_advertiser_id": demo_ids[ADVERTISER],
                                                      "to_advertiser_id": target_id, "amount": "100"}, headers=headers)
    assert reply.status_code == 201, reply.text
    assert (reply.json()["data"]["from_balance"], reply.json()["data"]["to_balance"]) == ("4900.00", "100.00")
    reply = client.post("/api/funds/transfers", json={"from_advertiser_id": demo_ids[ADVERTISER],
                                                      "to_advertiser_id": rival_id, "amount": "100"}, headers=headers)
    assert reply.status_code == 422
    assert reply.json()["data"]["fields"] == {"to_advertiser_id": funds.CHOOSE_ADVERTISER}
