"""Audiences (/audience, /agency/audience, /admin/audience): create, read, list, upload device ids, change status,
delete, and the change log (choosing the campaigns that use one saves those campaigns, so it is the campaigns
domain's: app/campaigns/audience_targeting.py). Every function checks the actor's permission, then the row scope
(an agency reaches its advertisers' audiences, an advertiser its own; an audience out of scope answers exactly
like a missing one), and audits each write in the same transaction.

Size: a device-id list's size is the number of distinct ids stored (kept on the audience as each file is
appended). A retargeting audience's size is the number of its event recorded for the advertiser over the
look-back window, read from the statistics warehouse, which counts events by hour and placement, not devices: it is
reported as "events in window" (size_unit "events"), never as a number of people.

Campaigns use an audience through their targeting ({"audiences": {"allow": [ids], "block": [ids]}}); only the
advertiser's own campaigns can, so "which campaigns use it" asks for that advertiser's campaigns only (the
campaigns domain answers: app/supply/campaign_usage.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import IO, Any

from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.access.models import SHOWN_NAME_SQL, User
from app.access.policy import Actor, advertiser_for_new, advertiser_rows, can_see_user, require
from app.history import audit, change_log
from app.history import status as status_machine
from app.kernel import validation as v
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import KeysetOrder, newest_first, read_page
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page
from app.kernel.uploads import shown_file_name
from app.supply import campaign_usage
from app.supply.audience_devices import UploadSummary, first_cells, no_ids, store_devices
from app.supply.list_targeting import AUDIENCE_KEY
from app.supply.models import Audience, AudienceDevice, AudienceKind, AudienceStatus
from app.supply.schemas import (
    LOOKBACK_MAX,
    LOOKBACK_MIN,
    AudienceCampaign,
    AudienceChoice,
    AudienceDeleted,
    AudienceRead,
    AudienceRow,
    AudienceUploaded,
    DeviceUploadRead,
)
from app.warehouse import get_store
from app.warehouse.base import StatsQuery, whole
from app.warehouse.schema import EVENT_NAME_PATTERN

NOT_FOUND = "Audience not found."
CONVERSION = "conversion"  # the retargeting event that means every conversion (the statistics' conversions)
NAME_MAX = 120
_EVENT = re.compile(EVENT_NAME_PATTERN)


# --- reading -------------------------------------------------------------------------------------------

def in_scope(db: Session, actor: Actor, audience_id: int) -> tuple[Audience, User]:
    """The audience and its advertiser, or NotFound when missing or outside the actor's scope."""
    audience = db.get(Audience, audience_id)
    advertiser = db.get(User, audience.advertiser_id) if audience else None
    if audience is None or advertiser is None or not can_see_user(actor, advertiser):
        raise NotFound(NOT_FOUND)
    return audience, advertiser


def _window(days: int) -> tuple[Any, Any]:
    today = datetime.now(UTC).date()
    return today - timedelta(days=days - 1), today


def _events_in_window(audience: Audience) -> int:
    """How many of the audience's event the advertiser recorded over the look-back window (UTC days, today
    included). Read from the warehouse itself, not through the statistics service (which sits above supply):
    every caller has already found the audience in the actor's scope (in_scope, or advertiser_rows for a list),
    and the query is narrowed to the audience's own advertiser, so the row-scope rule holds. The event name was
    checked against the warehouse's pattern when the audience was saved."""
    start, end = _window(audience.lookback_days or LOOKBACK_MIN)
    is_conversion = audience.event == CONVERSION
    rows = get_store().query(StatsQuery(start=start, end=end, advertiser_ids=(audience.advertiser_id,),
                                        metrics=("conversions",) if is_conversion else (),
                                        events=() if is_conversion else (audience.event,)))
    column = "conversions" if is_conversion else f"event_{audience.event}"
    return whole(rows[0].get(column)) if rows else 0


def size_of(audience: Audience) -> tuple[int, str]:
    """(size, unit): ("devices") for a device-id list, ("events") for a retargeting audience."""
    if audience.kind == AudienceKind.RETARGETING:
        return _events_in_window(audience), "events"
    return audience.device_count, "devices"


def campaigns_using(db: Session, audience: Audience, *, include_archived: bool = False) -> list[AudienceCampaign]:
    """The advertiser's campaigns that allow or block the audience: [{id, name, status, mode}] by name (found by
    the campaigns domain: app/supply/campaign_usage.py)."""
    assert audience.id is not None
    used = campaign_usage.campaigns_using(db, AUDIENCE_KEY, [audience.id], advertiser_ids={audience.advertiser_id},
                                          live_only=not include_archived)[audience.id]
    found = [AudienceCampaign(id=row.id, name=row.name, status=row.status, mode=row.side) for row in used]
    return sorted(found, key=lambda row: (row.name.casefold(), row.id))


def _advertiser_name(advertiser: User) -> str:
    return advertiser.account_name


def public(db: Session, actor: Actor, audience: Audience, advertiser: User) -> AudienceRead:
    """An audience as pages and the API show it."""
    assert audience.id is not None
    size, unit = size_of(audience)
    return AudienceRead(
        id=audience.id, name=audience.name, kind=audience.kind, status=audience.status,
        advertiser_id=audience.advertiser_id, advertiser=_advertiser_name(advertiser), event=audience.event or None,
        lookback_days=audience.lookback_days, size=size, size_unit=unit,
        last_upload=DeviceUploadRead.model_validate(audience.last_upload) if audience.last_upload else None,
        campaigns=campaigns_using(db, audience), created_at=audience.created_at.isoformat(),
        updated_at=audience.updated_at.isoformat())


def get_audience(db: Session, *, actor: Actor, audience_id: int) -> AudienceRead:
    require(actor, "audience", "view")
    return public(db, actor, *in_scope(db, actor, audience_id))


def _audiences_query(actor: Actor, *, advertiser_id: int | None, kind: str, status: str, search: str) -> Any:
    """The audience list's query in the actor's row scope, before its order."""
    require(actor, "audience", "view")
    query = (select(Audience, User).join(User, col(User.id) == Audience.advertiser_id)
             .where(advertiser_rows(actor, Audience.advertiser_id)))
    if advertiser_id is not None:
        query = query.where(Audience.advertiser_id == advertiser_id)
    if kind:
        query = query.where(Audience.kind == kind)
    if status:
        query = query.where(Audience.status == status)
    query = query.where(*every_word(search, Audience.name, SHOWN_NAME_SQL))
    return query


# Most recently changed first, ties by id: the list's one order.
_NEWEST_FIRST = KeysetOrder(col(Audience.updated_at), col(Audience.id), descending=True)


def list_audiences(db: Session, *, actor: Actor, advertiser_id: int | None = None, kind: str = "",
                   status: str = "", search: str = "") -> list[AudienceRow]:
    """The audiences the actor may see, most recently changed first, each with its size and how many campaigns
    use it."""
    query = _audiences_query(actor, advertiser_id=advertiser_id, kind=kind, status=status, search=search)
    return _audience_rows(db, db.exec(query.order_by(*_NEWEST_FIRST.order_by())).all())


def audiences_page(db: Session, *, actor: Actor, advertiser_id: int | None = None, kind: str = "", status: str = "",
                   search: str = "", limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> Page[AudienceRow]:
    """The API's audience list a page at a time, most recently changed first (keyset on updated_at, id); `total`
    by a COUNT. Sizes and campaign counts are read for the page's audiences only."""
    query = _audiences_query(actor, advertiser_id=advertiser_id, kind=kind, status=status, search=search)
    scope = {"list": "audiences", "advertiser_id": advertiser_id, "kind": kind, "status": status,
             "search": search.strip()}
    return read_page(db, query, newest_first(col(Audience.id)), limit=limit, cursor=cursor, scope=scope,
                     position=lambda r: (None, r[0].id), shown=lambda rows: _audience_rows(db, rows))


# The grid's sortable columns (AudienceRow keys) and the SQL each sorts by: names as people read them, by their
# stored natural-order keys; the definition by the kind. Sizes (a retargeting audience's is read from the statistics
# store) and campaign counts (read from the campaigns' targeting) are figured for the page's rows only, so they do
# not sort.
LIST_SORTS: dict[str, Any] = {
    "id": None, "name": Audience.name_key, "definition": Audience.kind, "advertiser": User.name_key,
    "status": Audience.status, "updated_at": Audience.updated_at}


def list_audiences_page(db: Session, *, actor: Actor, kind: str = "", status: str = "", search: str = "",
                        sort: str = "", page: int = 1, page_size: int = 50) -> NumberedPage[AudienceRow]:
    """One page of the audience list for its grid (pages count from 1): list_audiences' rows and filters, `search`
    in the name or the advertiser, `sort` a column ("-" first for descending; default most recently changed first,
    ties by id); sizes and campaign counts are read for the page's audiences only, the total by a COUNT."""
    query = _audiences_query(actor, advertiser_id=None, kind=kind, status=status, search=search)
    check_page(page, page_size, things="audiences")
    order = column_order(sort, LIST_SORTS, col(Audience.id), default="-updated_at")
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[AudienceRow](rows=_audience_rows(db, rows), total=total, page=page, page_size=page_size)


def _audience_rows(db: Session, rows: Sequence[Any]) -> list[AudienceRow]:
    """(audience, advertiser) rows as the list shows them, with sizes and live campaign counts."""
    usage = _usage(db, [audience for audience, _user in rows])
    result = []
    for audience, advertiser in rows:
        assert audience.id is not None
        size, unit = size_of(audience)
        result.append(AudienceRow(id=audience.id, name=audience.name, kind=audience.kind, status=audience.status,
                                  advertiser_id=audience.advertiser_id, advertiser=_advertiser_name(advertiser),
                                  event=audience.event or None, lookback_days=audience.lookback_days, size=size,
                                  size_unit=unit, campaign_count=usage.get(audience.id, 0),
                                  updated_at=audience.updated_at.isoformat()))
    return result


def _usage(db: Session, audiences: list[Audience]) -> dict[int, int]:
    """audience id -> how many live campaigns use it (of the audiences' advertisers; one query)."""
    ids = [audience.id for audience in audiences if audience.id is not None]
    used = campaign_usage.campaigns_using(db, AUDIENCE_KEY, ids, live_only=True,
                                          advertiser_ids={audience.advertiser_id for audience in audiences})
    return {audience_id: len({row.id for row in rows}) for audience_id, rows in used.items()}


def event_choices(db: Session, *, actor: Actor, advertiser_id: int | None = None) -> list[str]:
    """The events a retargeting audience of this advertiser can be built on: every conversion, then the custom
    events its postbacks and statistics have recorded."""
    require(actor, "audience", "view")
    target = advertiser_for_new(db, actor, advertiser_id)  # in the actor's scope, so its events may be read
    assert target.id is not None
    return [CONVERSION, *get_store().event_names((target.id,))]


def audience_choices(db: Session, *, actor: Actor, advertiser_id: int) -> list[AudienceChoice]:
    """The campaign form's audience picker: the advertiser's audiences, {id, name, kind, status}, by name."""
    require(actor, "audience", "view")
    advertiser_for_new(db, actor, advertiser_id)  # scope
    rows = db.exec(select(col(Audience.id), Audience.name, Audience.kind, Audience.status)
                   .where(Audience.advertiser_id == advertiser_id))
    return sorted((AudienceChoice(id=i, name=n, kind=k, status=s) for i, n, k, s in rows),
                  key=lambda row: (row.name.casefold(), row.id))


# --- writing -------------------------------------------------------------------------------------------

def _snapshot(audience: Audience) -> dict[str, Any]:
    return {"name": audience.name, "kind": audience.kind, "status": audience.status,
            "event": audience.event or None, "lookback_days": audience.lookback_days}


def _checked(db: Session, actor: Actor, advertiser_id: int, *, name: str, kind: str, event: str | None,
             lookback_days: int | str | None) -> dict[str, Any]:
    errors: dict[str, str] = {}
    name = (name or "").strip()
    if not name:
        errors["name"] = "Give the audience a name."
    elif len(name) > NAME_MAX:
        errors["name"] = f"At most {NAME_MAX} characters."
    elif problem := v.name(name):
        errors["name"] = problem
    elif db.exec(select(Audience.id).where(Audience.advertiser_id == advertiser_id,
                                           Audience.name == name)).first() is not None:
        errors["name"] = "This advertiser already has an audience of that name."
    kind = kind or ""
    values: dict[str, Any] = {"name": name, "kind": kind, "event": "", "lookback_days": None}
    if kind not in (AudienceKind.DEVICE_IDS, AudienceKind.RETARGETING):
        errors["kind"] = "Choose a device-id list or retargeting."
    elif kind == AudienceKind.RETARGETING:
        event = (event or "").strip()
        if not event or not _EVENT.match(event):
            errors["event"] = "Choose an event."
        elif event not in event_choices(db, actor=actor, advertiser_id=advertiser_id):
            errors["event"] = "This advertiser has recorded no such event."
        try:
            days = int(str(lookback_days or "").strip())
        except ValueError:
            days = 0
        if not LOOKBACK_MIN <= days <= LOOKBACK_MAX:
            errors["lookback_days"] = f"Enter a whole number of days from {LOOKBACK_MIN} to {LOOKBACK_MAX}."
        values.update(event=event, lookback_days=days)
    if errors:
        raise Invalid(errors)
    return values


def create_audience(db: Session, *, actor: Actor, name: str = "", kind: str = "", event: str | None = None,
                    lookback_days: int | str | None = None, advertiser_id: int | None = None) -> AudienceRead:
    """A new, active audience for the advertiser (an advertiser creates its own): its name, kind (device_ids or
    retargeting) and for retargeting event and lookback_days (1 to 540; the form's text is read too). A
    device-id list starts empty: its ids come with upload_devices."""
    require(actor, "audience", "create")
    advertiser = advertiser_for_new(db, actor, advertiser_id)
    assert advertiser.id is not None
    audience = Audience(advertiser_id=advertiser.id, status=AudienceStatus.ACTIVE,
                        **_checked(db, actor, advertiser.id, name=name, kind=kind, event=event,
                                   lookback_days=lookback_days))
    db.add(audience)
    db.flush()
    audit.record(db, actor=actor, entity="audience", entity_id=audience.id, action="create",
                 after={**_snapshot(audience), "advertiser_id": advertiser.id})
    return public(db, actor, audience, advertiser)


def upload_devices(db: Session, *, actor: Actor, audience_id: int, stream: IO[bytes],
                   filename: str = "") -> AudienceUploaded:
    """Append a file of device ids (one a line) to a device-id audience, streamed (audience_devices.py). Ids
    already in the audience, or twice in the file, count as duplicates; malformed lines and the all-zero id
    count as invalid, the first few returned with their line numbers. A file with no valid id at all is
    refused (nothing changes). {"audience": ..., "upload": {file, lines, valid, invalid, added, duplicates,
    samples}}."""
    require(actor, "audience", "update")
    audience, advertiser = in_scope(db, actor, audience_id)
    if audience.kind != AudienceKind.DEVICE_IDS:
        raise Invalid({"file": "Only a device-id audience takes files of ids."})
    summary: UploadSummary = store_devices(db, audience_id=audience_id, lines=first_cells(stream))
    if summary.valid == 0:
        raise no_ids(summary)
    name = shown_file_name(filename)
    upload = summary.read(file=name, at=utcnow().isoformat())
    before = audience.device_count
    audience.device_count = before + summary.added
    audience.last_upload = upload.model_dump()
    audience.updated_at = utcnow()
    db.add(audience)
    audit.record(db, actor=actor, entity="audience", entity_id=audience.id, action="upload",
                 before={"size": before},
                 after={"size": audience.device_count, "file": name, "lines": summary.lines, "added": summary.added,
                        "duplicates": summary.duplicates, "invalid": summary.invalid})
    return AudienceUploaded(audience=public(db, actor, audience, advertiser), upload=upload)


def set_status(db: Session, *, actor: Actor, audience_id: int, status: str) -> AudienceRead:
    """active ⇄ inactive (an audience in use may be deactivated; its campaigns then need it activated or
    taken out before their targeting is saved again). The same status again changes nothing."""
    audience, advertiser = AUDIENCE_STATUS.change(db, actor=actor, record_id=audience_id, status=status)
    return public(db, actor, audience, advertiser)


AUDIENCE_STATUS = status_machine.declare(status_machine.StatusMachine(
    "audience", Audience, tuple(AudienceStatus), ("audience", "status"), in_scope,
    lambda db, actor, loaded: public(db, actor, *loaded), read=AudienceRead,
    routes=(status_machine.StatusRoute("/audiences/{audience_id}/status", message="Status changed",
                                       description="active ⇄ inactive. An audience in use may be deactivated "
                                                   "(not deleted)."),
            status_machine.StatusRoute("/audience-status/{audience_id}", message="Status changed",
                                       summary="audience-status: active or inactive (as PUT "
                                               "/audiences/{id}/status)"))))


def delete_audience(db: Session, *, actor: Actor, audience_id: int) -> AudienceDeleted:
    """Remove an audience and its devices, unless a campaign (not archived) uses it: then Conflict naming the
    campaigns. {"id", "name"} of what was deleted."""
    require(actor, "audience", "delete")
    audience, _advertiser = in_scope(db, actor, audience_id)
    using = campaigns_using(db, audience)
    if using:
        names = ", ".join(f"{row.name} (#{row.id})" for row in using)
        raise Conflict(f"This audience is used by {len(using)} campaign(s): {names}. Take it out of them first, "
                       "or deactivate it instead.", data={"campaigns": [row.model_dump() for row in using]})
    gone = AudienceDeleted(id=audience_id, name=audience.name)
    db.execute(delete(AudienceDevice).where(col(AudienceDevice.audience_id) == audience_id))
    audit.record(db, actor=actor, entity="audience", entity_id=audience.id, action="delete",
                 before={**_snapshot(audience), "size": audience.device_count})
    db.delete(audience)
    db.flush()
    return gone


# --- history -------------------------------------------------------------------------------------------

def _without_empty_creation(_db: Session, _actor: Actor, _subject: change_log.Subject,
                            entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A new audience shows only what it was given."""
    for entry in entries:
        if entry["action"] == "create":
            entry["changes"] = [c for c in entry["changes"] if c["new"] not in (None, "") and c["field"] != "advertiser_id"]
    return entries


# Its changes, and each file appended with its counts.
change_log.register("audience", change_log.ChangeLogSource(
    lambda db, actor, audience_id: change_log.about(in_scope(db, actor, audience_id)[0]), _without_empty_creation))
