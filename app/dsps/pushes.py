"""Pushes of campaigns and creatives to DSPs, as jobs of the app's queue (app/jobs, task "dsps.push").

A push asked for on a page or through the API marks the association "queued" and defers the job in the same
transaction (no job for a rolled-back request, no queued mark without its job); the answer says queued, never
delivered. The job runs on any process's worker, keyed "dsp-push:<dsp>:<entity>:<id>": on both backends, jobs
with one key run one at a time and in order, so a second push of the same thing updates (PUT) what the first
created instead of creating it twice.

A run rebuilds the admin who asked from the user row (scope checked now, not when queued), builds the payload
from the record as it is now, reads the DSP and its key, and calls the DSP with no transaction open. A failed
call (unreachable, too slow, an error status, an answer without an id) is written on the association with the
DSP's message and retried by the queue, BACKOFF_S apart, up to ATTEMPTS runs; the connector itself retries
transport errors within a run. After the last attempt the association is "failed" with that message: the card
on the record's page shows it, and failed_pushes() is the query issue 27's "failed DSP push" alert reads.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from app import jobs
from app.access.models import User, UserStatus
from app.access.policy import Actor, require
from app.dsps.connectors import ConnectorError, connector_for
from app.dsps.credentials import CredentialsUnreadable, decrypt
from app.dsps.models import AssociationKind, Dsp, DspAssociation, DspStatus, PushState
from app.dsps.payloads import payload
from app.history import audit
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.errors import ServiceError
from app.kernel.model_base import utcnow

TASK = "dsps.push"
KEY = "dsp-push:"
ATTEMPTS = 4
BACKOFF_S: tuple[float, ...] = (5.0, 30.0, 120.0)  # before the 2nd, 3rd and 4th runs: a DSP restarting, a deploy
GONE = "The DSP was removed."
INACTIVE = "The DSP was deactivated before the push ran."
ASKER_GONE = "The account that asked for this push can no longer push to DSPs."
UNEXPECTED = "The push failed unexpectedly ({kind}); the server log has the details."


def association(db: Session, dsp_id: int, entity: str, local_id: int) -> DspAssociation | None:
    return db.exec(select(DspAssociation).where(DspAssociation.dsp_id == dsp_id, DspAssociation.entity == entity,
                                                DspAssociation.local_id == local_id)).first()


def queue_push(db: Session, *, actor: Actor, dsp: Dsp, entity: AssociationKind, local_id: int) -> DspAssociation:
    """Mark the association queued and defer its push, in `db`'s transaction. The caller has checked the actor
    may push to `dsp` and see the record."""
    assert dsp.id is not None
    row = association(db, dsp.id, entity, local_id) or DspAssociation(dsp_id=dsp.id, entity=entity.value,
                                                                        local_id=local_id)
    row.push_state, row.queued_at = PushState.QUEUED, utcnow()
    db.add(row)
    jobs.defer(db, TASK, key=f"{KEY}{dsp.id}:{entity.value}:{local_id}", dsp_id=dsp.id, entity=entity.value,
               local_id=local_id, user_id=actor.id)
    return row


def _asker(db: Session, user_id: int) -> Actor:
    user = db.get(User, user_id)
    if user is None or user.status != UserStatus.ACTIVE:
        raise ServiceError(ASKER_GONE)
    actor = Actor(user=user, stack=(user_id,))
    require(actor, "dsp", "manage")
    return actor


def _record(dsp_id: int, entity: str, local_id: int, user_id: int, *, queued_at: datetime | None,
            state: PushState, error: str = "", remote: str = "") -> None:
    """Write a run's outcome on the association (and the change log). A push queued again while this one ran
    keeps the association "queued": that newer push is still to come."""
    with session_scope() as db:
        row = association(db, dsp_id, entity, local_id)
        if row is None:
            row = DspAssociation(dsp_id=dsp_id, entity=entity, local_id=local_id)
        previous = row.remote_id
        now = utcnow()
        row.attempted_at, row.last_error = now, error[:500]
        if state == PushState.DELIVERED:
            row.remote_id, row.synced_at = remote, now
        newer_queued = row.queued_at is not None and queued_at is not None and row.queued_at > queued_at
        row.push_state = PushState.QUEUED if newer_queued else state
        db.add(row)
        user = db.get(User, user_id)
        actor = Actor(user=user, stack=(user_id,)) if user is not None else None
        audit.record(db, actor=actor, entity="dsp", entity_id=dsp_id, action="sync", before={"remote_id": previous},
                     after={"entity": entity, "local_id": local_id, "remote_id": row.remote_id, "state": state.value,
                            "error": error})


@jobs.task(TASK, attempts=ATTEMPTS, backoff=BACKOFF_S)
def push(dsp_id: int, entity: str, local_id: int, user_id: int) -> None:
    number, last = jobs.attempt()
    try:
        _push(dsp_id, entity, local_id, user_id, final=number >= last)
    except Exception as error:
        if number >= last:  # a bug or a database failure, not the DSP: the map must not say "queued" forever
            _record(dsp_id, entity, local_id, user_id, queued_at=None, state=PushState.FAILED,
                    error=UNEXPECTED.format(kind=type(error).__name__))
        raise  # the queue logs it, retries it, and counts it among its failures after the last attempt


def create_key(dsp_id: int, entity: str, local_id: int) -> str:
    """The Idempotency-Key of the one create of a thing on a DSP (a remote id, once had, is never dropped: every
    later push updates it). Keyed with this console's secret: two consoles pushing to one DSP account never share
    a key, and the key tells the DSP nothing."""
    message = f"dsp-create:{dsp_id}:{entity}:{local_id}".encode()
    return hmac.new(get_settings().secret_key.encode(), message, hashlib.sha256).hexdigest()[:40]


def _push(dsp_id: int, entity: str, local_id: int, user_id: int, *, final: bool) -> None:
    kind = AssociationKind(entity)
    queued_at: datetime | None = None
    try:
        with session_scope() as db:  # read, then close: no transaction stays open while the DSP answers
            row = association(db, dsp_id, kind, local_id)
            queued_at = row.queued_at if row else None
            dsp = db.get(Dsp, dsp_id)
            if dsp is None:
                raise ServiceError(GONE)
            if dsp.status != DspStatus.ACTIVE:
                raise ServiceError(INACTIVE)
            body = payload(db, _asker(db, user_id), kind, local_id) | ({"seat_id": dsp.seat_id} if dsp.seat_id else {})
            kind_of_dsp, endpoint, encrypted = dsp.connector, dsp.endpoint_url, dsp.credentials_encrypted
            previous = row.remote_id if row else ""
    except ServiceError as refusal:  # nothing to retry: the DSP, the record or the asker is gone
        _record(dsp_id, entity, local_id, user_id, queued_at=queued_at, state=PushState.FAILED, error=refusal.message)
        return
    try:
        connector = connector_for(kind_of_dsp, endpoint_url=endpoint, api_key=decrypt(encrypted),
                                  timeout_s=get_settings().dsp_request_timeout_s)
        send = connector.push_campaign if kind == AssociationKind.CAMPAIGN else connector.push_creative
        remote = send(body, previous, create_key(dsp_id, kind, local_id))
    except (ConnectorError, CredentialsUnreadable) as failure:
        error = str(failure)
        _record(dsp_id, entity, local_id, user_id, queued_at=queued_at,
                state=PushState.FAILED if final else PushState.QUEUED, error=error)
        if not final:
            raise jobs.Retry(error) from None
        return
    _record(dsp_id, entity, local_id, user_id, queued_at=queued_at, state=PushState.DELIVERED, remote=remote)


@dataclass(frozen=True)
class FailedPush:
    dsp_id: int
    dsp_name: str
    entity: str
    local_id: int
    error: str
    attempted_at: datetime | None


def failed_pushes(db: Session, *, since: datetime | None = None) -> list[FailedPush]:
    """Pushes whose every attempt failed and that were not pushed successfully since, newest first (optionally
    only those whose last attempt was at or after `since`): what the "failed DSP push" alert reads."""
    query = (select(DspAssociation, Dsp.name).join(Dsp, col(Dsp.id) == DspAssociation.dsp_id)
             .where(DspAssociation.push_state == PushState.FAILED)
             .order_by(col(DspAssociation.attempted_at).desc()))
    if since is not None:
        query = query.where(col(DspAssociation.attempted_at) >= since)
    return [FailedPush(row.dsp_id, name, row.entity, row.local_id, row.last_error, row.attempted_at)
            for row, name in db.exec(query)]
