"""Many writers on one advertiser's ledger at once, each in its own session: deposits and delivery charges,
some batches sent again (as a retrying ingester would). Not a cent may be lost or doubled."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

from sqlmodel import col, func, select

from app.access.models import UserSettings
from app.funds import service as funds
from app.funds.models import LedgerEntry
from app.kernel.db import session_scope
from tests.helpers import actor_of, user_by_email

THREADS, OPS = 8, 50
MARGIN_BPS = 1250
OPENING = 5_000_000_000


def spend_of(batch: int) -> int:
    """Each batch always charges the same spend, however often it is sent."""
    return 1_000_003 * (batch % 7 + 1)


def test_concurrent_deposits_and_charges_add_up_exactly(demo_ids: dict[str, int]) -> None:
    with session_scope() as db:
        admin = actor_of(db, "admin@demo.example")
        advertiser_id = user_by_email(db, "advertiser@demo.example").id
        settings = db.get(UserSettings, advertiser_id) or UserSettings(user_id=advertiser_id)
        settings.margin_bps = MARGIN_BPS
        db.add(settings)
    assert advertiser_id is not None
    deposits: list[int] = []
    batches_sent: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()  # all threads begin together, to collide as much as possible
        for _ in range(OPS):
            if rng.random() < 0.4:
                cents = rng.randint(1, 100_000)
                funds.run_with_retry(funds.add_funds, actor=admin, advertiser_id=advertiser_id,
                                     amount=f"{cents // 100}.{cents % 100:02d}", kind="deposit", note="load test")
                with lock:
                    deposits.append(cents * 10_000)
            else:
                # 60 batch names for ~240 charges: most batches arrive several times, often at the same moment.
                batch = rng.randint(1, 60)
                funds.run_with_retry(funds.charge_delivery, charges={advertiser_id: spend_of(batch)},
                                     reference=f"load-{batch}")
                with lock:
                    batches_sent.append(batch)

    with ThreadPoolExecutor(THREADS) as pool:
        for future in [pool.submit(worker, seed) for seed in range(THREADS)]:
            future.result()

    unique_batches = set(batches_sent)
    assert len(batches_sent) > len(unique_batches), "some batches must have been sent more than once"
    charged = sum(spend_of(b) + funds.margin_micros(spend_of(b), MARGIN_BPS) for b in unique_batches)
    expected = OPENING + sum(deposits) - charged
    with session_scope() as db:
        assert funds.balances_micros(db, [advertiser_id])[advertiser_id] == expected
        doubled = db.exec(select(LedgerEntry.reference).where(col(LedgerEntry.reference).is_not(None))
                          .group_by(LedgerEntry.reference).having(func.count() > 1)).all()
        assert doubled == []
        referenced = db.exec(select(func.count()).select_from(LedgerEntry)
                             .where(col(LedgerEntry.reference).like("load-%"))).one()
        assert referenced == 2 * len(unique_batches)  # one spend and one margin entry per batch
        typed_in = db.exec(select(func.count()).select_from(LedgerEntry).where(LedgerEntry.note == "load test")).one()
        assert typed_in == len(deposits)
