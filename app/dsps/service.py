"""DSP connections (admin only): the buying platforms campaigns and creatives are pushed to, their encrypted
credentials, connection tests, and syncs that record what each DSP calls our campaigns and creatives.

Credentials go in through create_dsp / update_dsp (`api_key`) and never come out: every read answers
`credentials_set` instead, and the change history records only that they changed (audit._SECRET_FIELDS).

A sync is a push through the job queue (app/dsps/pushes.py): the request marks the association queued and
answers at once; the job's outcome, the DSP's id or why it failed after its retries, is written to the association
row: a failed sync is a recorded error beside an untouched campaign, which can simply be synced again. Only the
connection test calls the DSP within the request (it only reads, and the admin waits for its answer).
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from sqlalchemy import or_
from sqlmodel import Session, col, func, select

from app.access.policy import Actor, require
from app.dsps import pushes
from app.dsps.connectors import CONNECTORS, HTTP_JSON, ConnectorError, connector_for
from app.dsps.credentials import CredentialsUnreadable, decrypt, encrypt
from app.dsps.models import AssociationKind, Dsp, DspAssociation, DspStatus, PushState
from app.dsps.payloads import payload
from app.dsps.schemas import (
    ActiveDsp,
    AnyAssociation,
    CampaignAssociation,
    ConnectionTest,
    CreativeAssociation,
    DspCreate,
    DspRead,
    DspUpdate,
    SyncResult,
    TestedDsp,
)
from app.history import audit, change_log
from app.history import status as status_machine
from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, newest_first, read_page
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.reference import metadata
from app.reference.models import ReferenceValue

NAME_MAX_LENGTH = 120
URL_MAX_LENGTH = 2048
KEY_MAX_LENGTH = 1000
SEAT_ID_MAX_LENGTH = 64
REQUIRED = "This field is required."
NOT_FOUND = "DSP not found."
NAME_TAKEN = "A DSP with this name already exists."
INVALID_ENDPOINT = "Enter the DSP's address, starting with http:// or https://."
INACTIVE = "This DSP is inactive. Activate it to sync."
QUEUED = "Queued for {name}."
NOT_ALLOWED = "Not an allowed value."
EXCHANGES = "Choose exchanges from the list."
CONNECTOR_TYPES: tuple[str, ...] = tuple(CONNECTORS)
_EDITABLE = ("name", "connector", "endpoint_url", "seat_id", "status", "exchange_ids")




# --- reading -------------------------------------------------------------------------------------------

def _get(db: Session, dsp_id: int) -> Dsp:
    dsp = db.get(Dsp, dsp_id)
    if dsp is None:
        raise NotFound(NOT_FOUND)
    return dsp


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def public(dsp: Dsp, names: dict[int, str], synced: int = 0) -> DspRead:
    """A DSP as pages and the API show it. Never its credentials: only whether they are set."""
    assert dsp.id is not None
    return DspRead(id=dsp.id, name=dsp.name, connector=dsp.connector, endpoint_url=dsp.endpoint_url,
                   seat_id=dsp.seat_id, status=dsp.status, exchange_ids=list(dsp.exchange_ids),
                   exchanges=[names.get(i, f"#{i}") for i in dsp.exchange_ids],
                   credentials_set=bool(dsp.credentials_encrypted), last_test_at=_when(dsp.last_test_at),
                   last_test_ok=dsp.last_test_ok, last_test_message=dsp.last_test_message,
                   synced=synced, created_at=dsp.created_at.isoformat(), updated_at=dsp.updated_at.isoformat())


def _synced_counts(db: Session, ids: Sequence[int]) -> dict[int, int]:
    rows = db.exec(select(DspAssociation.dsp_id, func.count())
                   .where(DspAssociation.remote_id != "", col(DspAssociation.dsp_id).in_(ids))
                   .group_by(col(DspAssociation.dsp_id)))
    return {int(dsp_id): int(count) for dsp_id, count in rows}


# By name in natural order ("DSP 2" before "DSP 10", any case: its stored key), ties by id: the DSP lists' one order.
_BY_NAME = KeysetOrder(col(Dsp.name_key), col(Dsp.id))


def _dsp_rows(db: Session, rows: Sequence[Dsp]) -> list[DspRead]:
    names = metadata.names_by_id(db, {i for dsp in rows for i in dsp.exchange_ids})
    synced = _synced_counts(db, [dsp.id for dsp in rows if dsp.id is not None])
    return [public(dsp, names, synced.get(dsp.id or 0, 0)) for dsp in rows]


def _dsps_query(actor: Actor, status: str) -> Any:
    require(actor, "dsp", "view")
    query = select(Dsp)
    return query.where(Dsp.status == status) if status else query


def list_dsps(db: Session, *, actor: Actor, status: str = "") -> list[DspRead]:
    """/admin/dsplist and dsp/list: every DSP by name, with how many campaigns and creatives it holds ids for."""
    return _dsp_rows(db, list(db.exec(_dsps_query(actor, status).order_by(*_BY_NAME.order_by()))))


# The DSP grid's sorts (numbered_pages.column_order): a column shown, or None for the id alone. The exchanges' names
# and the synced counts are figured for the page's rows only and do not sort on the server.
LIST_SORTS: dict[str, Any] = {"id": None, "name": _BY_NAME.key, "status": Dsp.status, "endpoint_url": Dsp.endpoint_url,
                              "connection": Dsp.last_test_ok, "updated_at": Dsp.updated_at}


def list_dsps_page(db: Session, *, actor: Actor, search: str = "", sort: str = "", page: int = 1,
                   page_size: int = 50) -> NumberedPage[DspRead]:
    """One page of /admin/dsplist's grid (pages count from 1): `search` in the name or the address, `sort` one of
    LIST_SORTS ("-" first for descending; default by name), only the page's rows read and the total by a COUNT."""
    check_page(page, page_size, things="DSPs")
    order = column_order(sort, LIST_SORTS, col(Dsp.id), default="name")
    query = _dsps_query(actor, "")
    query = query.where(*every_word(search, Dsp.name, Dsp.endpoint_url))
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[DspRead](rows=_dsp_rows(db, rows), total=total, page=page,
                                 page_size=page_size)


def dsps_page(db: Session, *, actor: Actor, status: str = "", limit: int = DEFAULT_LIMIT,
              cursor: str | None = None) -> Page[DspRead]:
    """The DSPs a page at a time, newest first (keyset on the id: a rename moves no DSP between pages); `total` by
    a COUNT."""
    return read_page(db, _dsps_query(actor, status), newest_first(col(Dsp.id)), limit=limit, cursor=cursor,
                     scope={"list": "dsps", "status": status}, position=lambda r: (None, r.id),
                     shown=lambda rows: _dsp_rows(db, rows))


def active_dsps(db: Session, *, actor: Actor) -> list[ActiveDsp]:
    """dsp/activeDspList: the active DSPs as {id, name, connector, exchange_ids}."""
    return [ActiveDsp(id=row.id, name=row.name, connector=row.connector, exchange_ids=row.exchange_ids)
            for row in list_dsps(db, actor=actor, status=DspStatus.ACTIVE)]


def get_dsp(db: Session, *, actor: Actor, dsp_id: int) -> DspRead:
    require(actor, "dsp", "view")
    dsp = _get(db, dsp_id)
    synced = db.exec(select(func.count()).select_from(DspAssociation)
                     .where(DspAssociation.dsp_id == dsp_id, DspAssociation.remote_id != "")).one()
    return public(dsp, metadata.names_by_id(db, set(dsp.exchange_ids)), int(synced))


# --- checking input ------------------------------------------------------------------------------------

def endpoint_problem(url: str) -> str | None:
    """Why `url` cannot be a DSP endpoint, or None. Private and loopback hosts are fine (see the connector);
    user:password@ is refused, so a secret never sits in a field that pages show."""
    if not url:
        return REQUIRED
    if len(url) > URL_MAX_LENGTH:
        return v.too_long(URL_MAX_LENGTH)
    parsed = urlparse(url)
    try:
        port_ok = parsed.port is None or 0 < parsed.port < 65536
    except ValueError:
        port_ok = False
    host = parsed.hostname or ""
    if parsed.scheme not in ("http", "https") or not host or not port_ok or parsed.username or parsed.password \
            or parsed.query or parsed.fragment or any(c.isspace() for c in url):
        return INVALID_ENDPOINT
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if v.ascii_host_name(host) is None:  # a name, international ones too; a private one is fine
            return INVALID_ENDPOINT
    return None


def seat_problem(seat: str) -> str | None:
    """A buyer seat id is typed by an admin from the DSP's own settings: spec section 5's identifier rule (an id
    with spaces, dots or slashes is a copy-and-paste of more than the id). Empty is no seat."""
    if len(seat) > SEAT_ID_MAX_LENGTH:
        return v.too_long(SEAT_ID_MAX_LENGTH)
    return v.identifier(seat) if seat else None


def _exchange_ids(db: Session, value: Any, errors: dict[str, str]) -> list[int]:
    try:
        ids = sorted({int(i) for i in (value or [])})
    except (TypeError, ValueError):
        errors["exchange_ids"] = EXCHANGES
        return []
    known = set(db.exec(select(ReferenceValue.id).where(
        ReferenceValue.kind == "exchange", col(ReferenceValue.id).in_(ids)))) if ids else set()
    if set(ids) - known:
        errors["exchange_ids"] = EXCHANGES
    return ids


def _checked(db: Session, data: dict[str, Any], *, except_id: int | None = None) -> dict[str, Any]:
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    name = " ".join(str(data.get("name") or "").split())
    if not name:
        errors["name"] = REQUIRED
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = v.too_long(NAME_MAX_LENGTH)
    else:
        clash = select(Dsp.id).where(func.lower(Dsp.name) == name.lower())
        if except_id is not None:
            clash = clash.where(Dsp.id != except_id)
        if db.exec(clash).first() is not None:
            errors["name"] = NAME_TAKEN
    values["name"] = name
    values["connector"] = str(data.get("connector") or HTTP_JSON)
    if values["connector"] not in CONNECTOR_TYPES:
        errors["connector"] = NOT_ALLOWED
    values["endpoint_url"] = str(data.get("endpoint_url") or "").strip()
    if problem := endpoint_problem(values["endpoint_url"]):
        errors["endpoint_url"] = problem
    values["seat_id"] = str(data.get("seat_id") or "").strip()
    if problem := seat_problem(values["seat_id"]):
        errors["seat_id"] = problem
    values["status"] = str(data.get("status") or DspStatus.ACTIVE)
    if values["status"] not in tuple(DspStatus):
        errors["status"] = NOT_ALLOWED
    values["exchange_ids"] = _exchange_ids(db, data.get("exchange_ids"), errors)
    if errors:
        raise Invalid(errors)
    return values


def _new_key(api_key: str | None, *, required: bool) -> str | None:
    """The API key sent, or None to keep the stored one (an edit that leaves it empty)."""
    key = (api_key or "").strip()
    if not key:
        if required:
            raise Invalid({"api_key": REQUIRED})
        return None
    if len(key) > KEY_MAX_LENGTH:
        raise Invalid({"api_key": v.too_long(KEY_MAX_LENGTH)})
    if problem := v.token_text(key):
        raise Invalid({"api_key": problem})
    return key


# --- writing -------------------------------------------------------------------------------------------

def _snapshot(dsp: Dsp) -> dict[str, Any]:
    """The audited state. `credentials` is a fingerprint of the ciphertext, so a replaced key shows as a change;
    audit masks the field anyway, and the plain key is never part of this."""
    row = {key: getattr(dsp, key) for key in _EDITABLE}
    row["exchange_ids"] = list(dsp.exchange_ids)
    row["credentials"] = hashlib.sha256(dsp.credentials_encrypted.encode()).hexdigest()[:12] \
        if dsp.credentials_encrypted else ""
    return row


def _changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = [key for key in after if before.get(key) != after[key]]
    return {k: before.get(k) for k in changed}, {k: after[k] for k in changed}


def create_dsp(db: Session, *, actor: Actor, data: DspCreate) -> DspRead:
    """A new DSP from {name, connector, endpoint_url, seat_id, api_key, status, exchange_ids}; the key is stored
    encrypted."""
    require(actor, "dsp", "manage")
    values = _checked(db, data.model_dump(include=set(_EDITABLE)))
    key = _new_key(data.api_key, required=True)
    assert key is not None
    dsp = Dsp(**values, credentials_encrypted=encrypt(key))
    db.add(dsp)
    db.flush()
    audit.record(db, actor=actor, entity="dsp", entity_id=dsp.id, action="create", after=_snapshot(dsp))
    return public(dsp, metadata.names_by_id(db, set(dsp.exchange_ids)))


def update_dsp(db: Session, *, actor: Actor, dsp_id: int, data: DspUpdate) -> DspRead:
    """Change a DSP; fields not sent keep their values, and an empty or missing `api_key` keeps the stored key."""
    require(actor, "dsp", "manage")
    dsp = _get(db, dsp_id)
    before = _snapshot(dsp)
    merged = {key: getattr(dsp, key) for key in _EDITABLE} | data.model_dump(include=set(_EDITABLE), exclude_unset=True)
    values = _checked(db, merged, except_id=dsp_id)
    key = _new_key(data.api_key, required=False)
    for field, value in values.items():
        setattr(dsp, field, value)
    if key is not None:
        dsp.credentials_encrypted = encrypt(key)
    old, new = _changes(before, _snapshot(dsp))
    if new:
        dsp.updated_at = utcnow()
        db.add(dsp)
        audit.record(db, actor=actor, entity="dsp", entity_id=dsp_id, action="update", before=old, after=new)
    return get_dsp(db, actor=actor, dsp_id=dsp_id)


def set_status(db: Session, *, actor: Actor, dsp_id: int, status: str) -> DspRead:
    """active or inactive (the list's switch). An inactive DSP keeps its ids but is not synced to."""
    dsp = DSP_STATUS.change(db, actor=actor, record_id=dsp_id, status=status)
    return get_dsp(db, actor=actor, dsp_id=dsp.id or dsp_id)


DSP_HELP = ("Answers the DSP: {id, name, connector, endpoint_url, seat_id, status, exchange_ids, exchanges, credentials_set, "
            "last_test_at, last_test_ok, last_test_message, synced, created_at, updated_at}.")
# A DSP's statuses: active ⇄ inactive, by staff who manage DSPs; its moves are audited as "status".
DSP_STATUS = status_machine.declare(status_machine.StatusMachine(
    "dsp", Dsp, tuple(DspStatus), ("dsp", "manage"), lambda db, _actor, dsp_id: _get(db, dsp_id),
    lambda db, actor, dsp: get_dsp(db, actor=actor, dsp_id=dsp.id or 0), action="status", read=DspRead,
    routes=(status_machine.StatusRoute("/dsp/{dsp_id}/status", method="POST",
                                       description="Activate or deactivate a DSP (inactive ones are not synced "
                                                   "to). " + DSP_HELP),)))


# Its change log (app/history/change_log.py CHANGE_LOGS["dsp"]): every DSP, for whoever may view DSPs.
change_log.register("dsp", change_log.ChangeLogSource(lambda db, _actor, dsp_id: change_log.about(_get(db, dsp_id))))


# --- talking to DSPs -----------------------------------------------------------------------------------

def _timeout() -> float:
    return get_settings().dsp_request_timeout_s


def try_connection(db: Session, *, actor: Actor, endpoint_url: str, api_key: str = "", connector: str = HTTP_JSON,
                   dsp_id: int | None = None) -> ConnectionTest:
    """Test settings before they are saved (New DSP's step 3, the edit form): {ok, message}. Without an
    `api_key`, the stored key of `dsp_id` is used. Writes nothing.

    Synchronous, unlike a push: it only reads (GET /health), and the admin cannot go on (save the DSP, pick its
    exchanges) before knowing whether it answered, so a queued test would only make them wait and refresh."""
    require(actor, "dsp", "manage")
    url = (endpoint_url or "").strip()
    if problem := endpoint_problem(url):
        raise Invalid({"endpoint_url": problem})
    if connector not in CONNECTOR_TYPES:
        raise Invalid({"connector": NOT_ALLOWED})
    key = _new_key(api_key, required=dsp_id is None)
    try:
        if key is None:
            assert dsp_id is not None
            key = decrypt(_get(db, dsp_id).credentials_encrypted)
        message = connector_for(connector, endpoint_url=url, api_key=key, timeout_s=_timeout()).test_connection()
    except (ConnectorError, CredentialsUnreadable) as error:
        return ConnectionTest(ok=False, message=str(error))
    return ConnectionTest(ok=True, message=message)


def test_connection(db: Session, *, actor: Actor, dsp_id: int) -> TestedDsp:
    """Test a saved DSP and keep the result on it (the list and the view show it): {ok, message, dsp}."""
    require(actor, "dsp", "manage")
    dsp = _get(db, dsp_id)
    result = try_connection(db, actor=actor, endpoint_url=dsp.endpoint_url, connector=dsp.connector, dsp_id=dsp_id)
    before = {"last_test_ok": dsp.last_test_ok}
    dsp.last_test_at, dsp.last_test_ok, dsp.last_test_message = utcnow(), result.ok, result.message[:255]
    db.add(dsp)
    audit.record(db, actor=actor, entity="dsp", entity_id=dsp_id, action="test", before=before,
                 after={"last_test_ok": result.ok})
    return TestedDsp(ok=result.ok, message=result.message, dsp=get_dsp(db, actor=actor, dsp_id=dsp_id))


def _map(entity: str, local_id: int, dsp: Dsp, row: DspAssociation | None) -> AnyAssociation:
    """One line of the spec's association map, with when it was last synced and how that went."""
    assert dsp.id is not None
    remote = row.remote_id if row else ""
    line = {"dsp_id": dsp.id, "dsp_name": dsp.name, "dsp_status": dsp.status, "remote_id": remote,
            "synced_at": _when(row.synced_at) if row else None,
            "attempted_at": _when(row.attempted_at) if row else None, "last_error": row.last_error if row else "",
            "push_state": row.push_state if row else "", "queued_at": _when(row.queued_at) if row else None}
    if entity == AssociationKind.CAMPAIGN:
        return CampaignAssociation.model_validate({**line, "campaign_associate_id": remote})
    return CreativeAssociation.model_validate({**line, "creative_associate_id": remote, "creative_primary_id": local_id})


def _kind(entity: str) -> AssociationKind:
    try:
        return AssociationKind(entity)
    except ValueError:
        raise Invalid({"entity": NOT_ALLOWED}) from None


def associations(db: Session, *, actor: Actor, entity: str, local_id: int) -> list[AnyAssociation]:
    """The association map of one campaign or creative: a line per DSP that is active or has an id for it."""
    kind, query = _associations_query(db, actor, entity, local_id)
    return _association_rows(db, kind, local_id, list(db.exec(query.order_by(*_BY_NAME.order_by()))))


def associations_page(db: Session, *, actor: Actor, entity: str, local_id: int, limit: int = DEFAULT_LIMIT,
                      cursor: str | None = None) -> Page[AnyAssociation]:
    """The association map a page at a time, by DSP name (keyset on its natural-order key, id)."""
    kind, query = _associations_query(db, actor, entity, local_id)
    return read_page(db, query, _BY_NAME, limit=limit, cursor=cursor,
                     scope={"list": "dsp_associations", "entity": kind.value, "local_id": local_id},
                     position=lambda r: (r.name_key, r.id),
                     shown=lambda rows: _association_rows(db, kind, local_id, rows))


def _associations_query(db: Session, actor: Actor, entity: str, local_id: int) -> tuple[AssociationKind, Any]:
    """The DSPs of one campaign's or creative's map: the active ones, and any holding an id for it."""
    require(actor, "dsp", "view")
    kind = _kind(entity)
    payload(db, actor, kind, local_id)  # scope: the campaign or creative must be the actor's to see
    held = select(DspAssociation.dsp_id).where(DspAssociation.entity == kind, DspAssociation.local_id == local_id)
    return kind, select(Dsp).where(or_(col(Dsp.status) == DspStatus.ACTIVE, col(Dsp.id).in_(held)))


def _association_rows(db: Session, kind: AssociationKind, local_id: int, dsps: Sequence[Dsp]) -> list[AnyAssociation]:
    rows = {r.dsp_id: r for r in db.exec(select(DspAssociation).where(
        DspAssociation.entity == kind, DspAssociation.local_id == local_id,
        col(DspAssociation.dsp_id).in_([dsp.id for dsp in dsps])))}
    return [_map(kind, local_id, dsp, rows.get(dsp.id or 0)) for dsp in dsps]


def sync(db: Session, *, actor: Actor, dsp_id: int, entity: str, local_id: int) -> SyncResult:
    """Queue a push of one campaign or creative to a DSP (app/dsps/pushes.py): answers {state: "queued", message,
    association} at once, with the association marked queued. The job records the id the DSP answers, or why it
    failed, on the association; the campaign or creative itself is never touched."""
    require(actor, "dsp", "manage")
    kind = _kind(entity)
    dsp = _get(db, dsp_id)
    if dsp.status != DspStatus.ACTIVE:
        raise Conflict(INACTIVE)
    payload(db, actor, kind, local_id)  # scope: NotFound now for what the actor may not see, not later in the job
    row = pushes.queue_push(db, actor=actor, dsp=dsp, entity=kind, local_id=local_id)
    audit.record(db, actor=actor, entity="dsp", entity_id=dsp_id, action="push",
                 after={"entity": kind.value, "local_id": local_id, "state": PushState.QUEUED.value})
    return SyncResult(state=PushState.QUEUED, message=QUEUED.format(name=dsp.name),
                      association=_map(kind, local_id, dsp, row))
