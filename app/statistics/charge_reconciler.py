"""A charge is never lost: statistics batches the store keeps without their ledger charge are found and charged.

A batch is written to the statistics store, then charged to the ledger in the entity database
(ingestion.store_and_charge): two databases, and no transaction spans both. A process killed in between keeps the
batch's statistics and never charges them; the sender's retry would (it finds the batch stored and charges it),
but a sender may never retry. So the process clock (app/jobs/clock.py) queues "charges.reconcile" at every
process start and every DSP_CHARGE_RECONCILE_MINUTES (0: never), each slot claimed by one process, and a pass runs
only while it holds its key's lease, so two passes never overlap.

A pass reads the batches the store received since the last pass's newest (less OVERLAP: on a store several
processes write, a batch stamped a moment earlier can become visible a moment later), looks up the exact ledger
references their spend is charged under (a few IN queries for the lot), and charges each batch found without them
with charge_delivery, under its own reference, in a transaction of its own. The ledger's unique references keep a
batch to one charge whatever races it: the sender's retry of the same batch, or a pass of another process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session

from app import jobs
from app.funds import service as funds
from app.funds.models import ChargeCheck
from app.history import audit
from app.jobs import clock
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.model_base import table_of, utcnow
from app.statistics.ingestion import charge_reference
from app.warehouse import get_store
from app.warehouse.base import StoredBatch

_log = logging.getLogger("dsp.charges")
TASK = "charges.reconcile"
KEY = "charges-reconcile"
LEASE = timedelta(minutes=30)  # a pass outlasting this is taken for dead (its process killed): another may run
OVERLAP = timedelta(minutes=10)  # read again behind the last pass's newest batch (see above); cheap: one lookup
CHECK = "statistics"  # the ChargeCheck row of the one statistics store


def interval() -> timedelta:
    return timedelta(minutes=get_settings().charge_reconcile_minutes)


clock.every(KEY, TASK, interval)


@clock.on_start
def reconcile_at_start() -> None:
    """A process that starts may follow one killed between a batch's statistics and its charge: a pass now, not at
    the next slot (which the dead process may have claimed a moment before it died)."""
    if interval() > timedelta(0):
        with session_scope() as db:
            jobs.defer(db, TASK, key=KEY)


@jobs.task(TASK)
def reconcile_job() -> None:
    reconcile()


def reconcile(now: datetime | None = None) -> int | None:
    """One pass, unless another is running (None). Answers how many batches it charged."""
    with clock.lease(KEY, now or utcnow(), LEASE) as held:
        if not held:
            _log.info("charge reconciliation skipped: another is running")
            return None
        return charge_lost_batches()


def charge_lost_batches() -> int:
    """Charge every batch received since the last pass that has no ledger charge; how many were charged."""
    with session_scope() as db:
        check = db.get(ChargeCheck, CHECK)
        since = _naive(check.checked_until) - OVERLAP if check else None
    batches = get_store().batches_since(since)
    with session_scope() as db:
        lost = uncharged(db, batches)
    charged = 0
    for batch in lost:
        try:
            charged += funds.run_with_retry(_charge, batch=batch)
        except ValueError:  # an id that is no advertiser any more: never chargeable, so logged, not retried forever
            _log.exception("statistics batch %s cannot be charged", batch.batch_id)
    if batches:
        _checked_until(max(batch.received_at for batch in batches))
    return charged


def uncharged(db: Session, batches: Sequence[StoredBatch]) -> list[StoredBatch]:
    """The batches with spend that some advertiser of theirs has no charge of in the ledger."""
    return [batch for batch in batches if batch.spend_by_campaign and funds.charged_before(
        db, charge_reference(batch.batch_id), batch.spend_by_campaign) != set(batch.spend_by_campaign)]


def _charge(db: Session, *, batch: StoredBatch) -> int:
    """The batch charged as its sender's retry would, recorded when this call wrote its charge (1) or not (0: a
    retry or another pass got there first)."""
    result = funds.charge_batch(db, charges=batch.spend_by_campaign, reference=charge_reference(batch.batch_id))
    if not result.charged:
        return 0
    spend = sum(sum(batch.spend_by_campaign[a].values()) for a in result.charged)
    audit.record(db, actor=None, entity="statistics_batch", entity_id=batch.batch_id, action="charge_recovered",
                 after={"advertisers": result.charged, "spend_micros": spend,
                        "received_at": batch.received_at.isoformat()})
    _log.warning("statistics batch %s was stored without its charge (its process stopped in between): charged now, "
                 "%s micro-dollars of spend to advertisers %s", batch.batch_id, spend, result.charged)
    return 1


def _checked_until(newest: datetime) -> None:
    """Record that the store has been read up to `newest`, never moving back: one upsert, so two passes (the lease
    aside) cannot both insert the row."""
    from sqlalchemy.dialects import postgresql, sqlite

    with session_scope() as db:
        # Both dialects' INSERT has on_conflict_do_update; their statement classes share no base that says so.
        insert: Callable[..., Any] = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
        table = table_of(ChargeCheck)
        statement = insert(table).values(key=CHECK, checked_until=newest.replace(tzinfo=UTC))
        db.connection().execute(statement.on_conflict_do_update(
            index_elements=["key"], set_={"checked_until": statement.excluded.checked_until},
            where=table.c.checked_until < statement.excluded.checked_until))


def _naive(moment: datetime) -> datetime:
    """A stored time as the statistics store keeps its times: naive UTC."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
