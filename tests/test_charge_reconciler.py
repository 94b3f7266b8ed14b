"""A charge is never lost (app/statistics/charge_reconciler.py): a batch the statistics store keeps without its
ledger charge (its process died between the two writes; tests/test_faults_kill.py kills a real server there) is
charged by the reconciler, exactly once, however it is raced: by the sender's retry of the same batch and by a pass
of another process at the same moment. It runs at each start and on the clock, one process a slot."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import Session, col, func, select

from app import jobs
from app.campaigns.models import Campaign, CampaignStatus
from app.demo.advertising import seed_demo_advertising
from app.funds import service as funds
from app.funds.models import ChargeCheck, LedgerEntry
from app.history.models import AuditEntry
from app.jobs import clock
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.statistics import charge_reconciler, ingestion
from app.warehouse import get_store
from app.warehouse.base import FactRow
from tests.helpers import actor_of, user_by_email

ADVERTISER = "advertiser@demo.example"
HOUR = datetime(2026, 11, 20, 9)


def _facts(advertiser_id: int, campaign_id: int, spends: list[int]) -> list[FactRow]:
    return [FactRow(HOUR + timedelta(hours=n), advertiser_id, campaign_id, 0, "Google AdX", "Android", "DE",
                    f"com.example.app{n}", "phone", 1000, 3, spend, 0) for n, spend in enumerate(spends)]


@pytest.fixture
def shop(db: Session) -> tuple[int, int]:
    """The demo advertiser (no agency margin) with its five campaigns; (advertiser id, its active campaign id)."""
    advertiser = user_by_email(db, ADVERTISER)
    seed_demo_advertising(db, actor=actor_of(db, ADVERTISER))
    active = db.exec(select(Campaign.id).where(Campaign.advertiser_id == advertiser.id,
                                               Campaign.status == CampaignStatus.ACTIVE)).first()
    assert advertiser.id is not None and active is not None
    db.commit()
    return advertiser.id, active


def _stored_without_its_charge(batch_id: str, facts: list[FactRow]) -> int:
    """What a process killed between the two writes leaves: the batch in the store, nothing in the ledger. Its
    spend."""
    return sum(get_store().ingest(batch_id, facts, source="api").spend_by_advertiser.values())


def _charged(batch_id: str) -> int:
    with session_scope() as db:
        return -int(db.exec(select(func.coalesce(func.sum(LedgerEntry.amount_micros), 0)).where(
            col(LedgerEntry.reference).startswith(f"stats:{batch_id}:"))).one())


def _balance(advertiser_id: int) -> int:
    with session_scope() as db:
        return funds.balances_micros(db, [advertiser_id])[advertiser_id]


def test_a_batch_stored_without_its_charge_is_charged_once_and_recorded(shop: tuple[int, int]) -> None:
    advertiser, campaign = shop
    before = _balance(advertiser)
    spend = _stored_without_its_charge("lost-1", _facts(advertiser, campaign, [1_234_567, 2_000_000]))
    get_store().ingest("quiet-1", _facts(advertiser, campaign, [0]), source="api")  # nothing to charge
    assert charge_reconciler.reconcile() == 1
    assert _charged("lost-1") == spend == 3_234_567
    assert _balance(advertiser) == before - spend
    assert charge_reconciler.reconcile() == 0  # found charged: nothing twice
    assert _charged("lost-1") == spend
    with session_scope() as db:
        record = db.exec(select(AuditEntry).where(AuditEntry.entity == "statistics_batch",
                                                  AuditEntry.entity_id == "lost-1")).one()
        assert record.action == "charge_recovered" and record.actor_id is None
        assert record.changes["spend_micros"] == [None, spend]
        by_campaign = db.exec(select(LedgerEntry.campaign_id).where(LedgerEntry.reference == f"stats:lost-1:{advertiser}:c{campaign}:spend")).one()
        assert by_campaign == campaign  # booked as the sender's own charge would have been, on its campaign
    # The sender's late retry finds the batch stored and its charge booked: nothing more.
    with session_scope() as db:
        again = ingestion.store_and_charge(db, batch_id="lost-1", facts=_facts(advertiser, campaign, [1]), source="api")
    assert again.duplicate and _charged("lost-1") == spend


def test_a_charged_batch_and_one_from_before_the_last_pass_are_left_alone(shop: tuple[int, int]) -> None:
    advertiser, campaign = shop
    with session_scope() as db:  # the normal path: stored and charged together
        ingestion.store_and_charge(db, batch_id="fine-1", facts=_facts(advertiser, campaign, [500_000]), source="api")
    charged = _charged("fine-1")
    assert charge_reconciler.reconcile() == 0 and _charged("fine-1") == charged == 500_000
    with session_scope() as db:  # the pass has read the store up to its newest batch
        check = db.get(ChargeCheck, charge_reconciler.CHECK)
        assert check is not None
        newest = get_store().batches_since(None)[-1].received_at
        assert charge_reconciler._naive(check.checked_until) == newest
        # A pass reads only from its last newest batch on (less the overlap): a batch older than that is not read.
        check.checked_until = (newest + charge_reconciler.OVERLAP + timedelta(hours=1)).replace(tzinfo=UTC)
        db.add(check)
    _stored_without_its_charge("behind-1", _facts(advertiser, campaign, [700_000]))
    assert charge_reconciler.reconcile() == 0 and _charged("behind-1") == 0


def test_a_pass_that_empties_the_balance_pauses_the_active_campaigns(shop: tuple[int, int]) -> None:
    advertiser, campaign = shop
    _stored_without_its_charge("lost-big", _facts(advertiser, campaign, [_balance(advertiser)]))
    assert charge_reconciler.reconcile() == 1
    with session_scope() as db:
        assert db.get(Campaign, campaign).status == CampaignStatus.PAUSED  # type: ignore[union-attr]


def test_two_passes_and_the_senders_retry_at_the_same_moment_charge_once(shop: tuple[int, int]) -> None:
    advertiser, campaign = shop
    before = _balance(advertiser)
    facts = _facts(advertiser, campaign, [111_111, 222_222, 333_333])
    spend = _stored_without_its_charge("raced-1", facts)
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def together(work: Any) -> None:
        try:
            start.wait()
            work()
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)

    work = [charge_reconciler.charge_lost_batches, charge_reconciler.charge_lost_batches,  # two processes' passes
            lambda: funds.run_with_retry(ingestion.store_and_charge, batch_id="raced-1", facts=facts, source="api")]
    threads = [threading.Thread(target=together, args=(w,)) for w in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _charged("raced-1") == spend and _balance(advertiser) == before - spend
    with session_scope() as db:
        assert db.exec(select(func.count()).where(AuditEntry.entity == "statistics_batch",
                                                  AuditEntry.entity_id == "raced-1",
                                                  AuditEntry.action == "charge_recovered")).one() <= 1


def test_only_one_pass_runs_at_a_time(shop: tuple[int, int]) -> None:
    advertiser, campaign = shop
    _stored_without_its_charge("lost-2", _facts(advertiser, campaign, [400_000]))
    now = datetime.now(UTC)
    with clock.lease(charge_reconciler.KEY, now, charge_reconciler.LEASE) as held:
        assert held
        assert charge_reconciler.reconcile(now) is None  # another process's pass holds the lease
    assert _charged("lost-2") == 0
    assert charge_reconciler.reconcile(now) == 1


def test_each_start_queues_a_pass_and_the_clock_queues_one_a_slot(shop: tuple[int, int],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    advertiser, campaign = shop
    _stored_without_its_charge("lost-3", _facts(advertiser, campaign, [900_000]))
    monkeypatch.setattr(get_settings(), "charge_reconcile_minutes", 0)
    charge_reconciler.reconcile_at_start()  # switched off: nothing queued
    assert jobs.keys(charge_reconciler.KEY, live_only=True) == set()
    monkeypatch.setattr(get_settings(), "charge_reconcile_minutes", 5)
    charge_reconciler.reconcile_at_start()
    now = datetime.now(UTC)
    assert clock.tick(charge_reconciler.KEY, now) is True
    assert clock.tick(charge_reconciler.KEY, now) is False  # the slot is taken: another process queues nothing
    jobs.drain()
    assert _charged("lost-3") == 900_000
    assert jobs.outstanding() == 0
