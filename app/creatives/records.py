"""Creative records: create, read, list, edit, change status, archive, upload their files, preview. Every
function checks the actor's permission, then the row scope (an agency reaches its advertisers' creatives, an
advertiser its own; a creative out of scope answers exactly like a missing one), and audits each write in the
same transaction. Callers use app.creatives.service, which gathers these with assignment and bulk edits.

An html creative's markup leaves this module only through preview(), which the page puts into a sandboxed
iframe; everywhere else (reads, lists, the change history) it is reported by size and fingerprint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, func, select

from app.access.models import SHOWN_NAME_SQL, User
from app.access.policy import Actor, advertiser_for_new, advertiser_rows, can_see_user, require
from app.campaigns.models import Campaign
from app.creatives import sizes
from app.creatives.models import (
    STATUS_TRANSITIONS,
    CampaignCreative,
    Creative,
    CreativeAsset,
    CreativeStatus,
    CreativeType,
)
from app.creatives.rules import INPUT_FIELDS, TYPE_FIELDS, checked
from app.creatives.schemas import (
    AnyPreview,
    CampaignRef,
    CreativeCreate,
    CreativeFile,
    CreativePreview,
    CreativeRead,
    CreativeRow,
    CreativeUpdate,
    HtmlPreview,
    NativePreview,
)
from app.history import audit, versions
from app.history import status as status_machine
from app.kernel import media
from app.kernel.db import select_columns
from app.kernel.errors import Invalid, NotFound
from app.kernel.grid_search import every_word
from app.kernel.keyset_pages import newest_first
from app.kernel.model_base import utcnow
from app.kernel.numbered_pages import NumberedPage, check_page, column_order, read_numbered
from app.kernel.paging import DEFAULT_LIMIT, Page, after_condition, check_limit, decode_cursor, next_cursor
from app.kernel.uploads import shown_file_name

NOT_FOUND = "Creative not found."
UPLOAD_PURPOSES = {"image": "image", "icon": "image", "video": "video"}  # purpose -> kind of file
_ASSET_FIELDS = ("asset_id", "main_image_asset_id", "icon_asset_id")


# --- reading -------------------------------------------------------------------------------------------

def in_scope(db: Session, actor: Actor, creative_id: int) -> tuple[Creative, User]:
    """The creative and its advertiser, or NotFound when missing or outside the actor's scope."""
    creative = db.get(Creative, creative_id)
    advertiser = db.get(User, creative.advertiser_id) if creative else None
    if creative is None or advertiser is None or not can_see_user(actor, advertiser):
        raise NotFound(NOT_FOUND)
    return creative, advertiser


def _assets(db: Session, creative: Creative) -> dict[str, CreativeAsset | None]:
    ids = {getattr(creative, field) for field in _ASSET_FIELDS} - {None}
    rows = {a.id: a for a in db.exec(select(CreativeAsset).where(col(CreativeAsset.id).in_(ids)))} if ids else {}
    return {field: rows.get(getattr(creative, field)) for field in _ASSET_FIELDS}


def asset_public(asset: CreativeAsset | None) -> CreativeFile | None:
    if asset is None:
        return None
    return CreativeFile(id=asset.id, url=media.url_of(asset.stored_name), content_type=asset.content_type,
                        width=asset.width, height=asset.height, duration_ms=asset.duration_ms,
                        size_bytes=asset.size_bytes, filename=asset.original_filename)


def assigned_campaigns(db: Session, creative_id: int) -> list[CampaignRef]:
    rows = db.exec(select(Campaign.id, Campaign.name).join(CampaignCreative, col(CampaignCreative.campaign_id) == Campaign.id)
                   .where(CampaignCreative.creative_id == creative_id).order_by(col(Campaign.name)))
    return [CampaignRef(id=campaign_id, name=name) for campaign_id, name in rows]


def public(db: Session, creative: Creative, advertiser: User) -> CreativeRead:
    """A creative as pages and the API show it: its fields, its files and the campaigns it is in (never its
    html markup: see preview)."""
    row = creative.model_dump(exclude={"html"})
    assets = _assets(db, creative)
    row.update(advertiser=advertiser.account_name, created_at=creative.created_at.isoformat(),
               updated_at=creative.updated_at.isoformat(), html_size_bytes=len(creative.html.encode("utf-8")),
               pixel_urls=list(creative.pixel_urls), impression_urls=list(creative.impression_urls),
               asset=asset_public(assets["asset_id"]), main_image=asset_public(assets["main_image_asset_id"]),
               icon=asset_public(assets["icon_asset_id"]), campaigns=assigned_campaigns(db, creative.id or 0),
               next_statuses=sorted(STATUS_TRANSITIONS[CreativeStatus(creative.status)]))
    return CreativeRead.model_validate(row)


def get_creative(db: Session, *, actor: Actor, creative_id: int) -> CreativeRead:
    require(actor, "creative", "view")
    return public(db, *in_scope(db, actor, creative_id))


def _creatives_query(actor: Actor, *, advertiser_id: int | None, type: str, status: str, search: str,
                     campaign_id: int | None, include_archived: bool) -> Any:
    """The creative list's query, columns only, before its order."""
    shown_file = func.coalesce(Creative.asset_id, Creative.main_image_asset_id)
    query = (select_columns(Creative.id, Creative.name, Creative.type, Creative.status, Creative.advertiser_id,
                            User.first_name, User.last_name, User.company_name, Creative.click_url, Creative.width,
                            Creative.height, Creative.duration_ms, CreativeAsset.stored_name, CreativeAsset.content_type,
                            Creative.updated_at, Creative.version)
             .join(User, col(User.id) == Creative.advertiser_id)
             .outerjoin(CreativeAsset, col(CreativeAsset.id) == shown_file)
             .where(advertiser_rows(actor, Creative.advertiser_id)))
    if advertiser_id is not None:
        query = query.where(Creative.advertiser_id == advertiser_id)
    if type:
        query = query.where(Creative.type == type)
    if status:
        query = query.where(Creative.status == status)
    elif not include_archived:
        query = query.where(Creative.status != CreativeStatus.ARCHIVED)
    query = query.where(*every_word(search, Creative.name, SHOWN_NAME_SQL))
    if campaign_id is not None:
        query = query.where(col(Creative.id).in_(select(CampaignCreative.creative_id)
                                                 .where(CampaignCreative.campaign_id == campaign_id)))
    return query


# Newest change first, ties by id: the list's one order.
_NEWEST_FIRST = (col(Creative.updated_at).desc(), col(Creative.id).desc())


def _creative_rows(rows: Sequence[Any]) -> list[CreativeRow]:
    return [CreativeRow(id=r[0], name=r[1], type=r[2], status=r[3], advertiser_id=r[4],
                        advertiser=r[7] or f"{r[5]} {r[6]}".strip(), click_url=r[8], width=r[9], height=r[10],
                        duration_ms=r[11], asset_url=media.url_of(r[12]), asset_content_type=r[13],
                        updated_at=r[14].isoformat(), version=r[15]) for r in rows]


def list_creatives(db: Session, *, actor: Actor, advertiser_id: int | None = None, type: str = "", status: str = "",
                   search: str = "", campaign_id: int | None = None,
                   include_archived: bool = False) -> list[CreativeRow]:
    """The creative list: columns only (no ORM entities), so it stays fast at tens of thousands of rows.
    `asset_url` is the creative's file (for native, its main image)."""
    require(actor, "creative", "view")
    query = _creatives_query(actor, advertiser_id=advertiser_id, type=type, status=status, search=search,
                             campaign_id=campaign_id, include_archived=include_archived)
    return _creative_rows(db.exec(query.order_by(*_NEWEST_FIRST)).all())


# The grid's sortable columns (CreativeRow keys) and the SQL each sorts by. Names sort as people read them ("Banner 2"
# before "Banner 10") by their stored natural-order keys, indexed with the id (models.Creative); the size column by
# what it shows: width, height, then duration.
LIST_SORTS: dict[str, Any] = {
    "id": None, "name": Creative.name_key, "type": Creative.type, "advertiser": User.name_key,
    "status": Creative.status, "size": (Creative.width, Creative.height, Creative.duration_ms),
    "click_url": Creative.click_url, "updated_at": Creative.updated_at}


def list_creatives_page(db: Session, *, actor: Actor, type: str = "", status: str = "", search: str = "",
                        sort: str = "", page: int = 1, page_size: int = 50,
                        ids: Sequence[int] | None = None) -> NumberedPage[CreativeRow]:
    """One page of the creative list for its grid (pages count from 1): list_creatives' rows and filters, `search`
    in the name or the advertiser, `sort` a column ("-" first for descending; default newest change first, ties by
    id), only the page's rows read and the total by a COUNT. A page past the last gives no rows and the total.
    `ids`: only these creatives (a bulk page's "selected only")."""
    require(actor, "creative", "view")
    check_page(page, page_size, things="creatives")
    order = column_order(sort, LIST_SORTS, col(Creative.id), default="-updated_at")
    query = _creatives_query(actor, advertiser_id=None, type=type, status=status, search=search, campaign_id=None,
                             include_archived=False)
    if ids is not None:
        query = query.where(col(Creative.id).in_(ids))
    rows, total = read_numbered(db, query, order, page=page, page_size=page_size)
    return NumberedPage[CreativeRow](rows=_creative_rows(rows), total=total, page=page, page_size=page_size)


def creatives_page(db: Session, *, actor: Actor, advertiser_id: int | None = None, type: str = "", status: str = "",
                   search: str = "", campaign_id: int | None = None, include_archived: bool = False,
                   limit: int = DEFAULT_LIMIT, cursor: str | None = None) -> Page[CreativeRow]:
    """The API's creative list a page at a time, newest first by keyset on the id, which no save moves
    (app/kernel/keyset_pages.newest_first); `total` by a COUNT."""
    require(actor, "creative", "view")
    check_limit(limit)
    scope = {"list": "creatives", "advertiser_id": advertiser_id, "type": type, "status": status, "search": search,
             "campaign_id": campaign_id, "include_archived": include_archived}
    after = decode_cursor(cursor, scope)
    query = _creatives_query(actor, advertiser_id=advertiser_id, type=type, status=status, search=search,
                             campaign_id=campaign_id, include_archived=include_archived)
    db.flush()  # the connection does not autoflush this unit of work's changes
    total = db.connection().execute(select_columns(func.count()).select_from(query.subquery())).scalar_one()
    if after is not None:
        query = query.where(after_condition(None, col(Creative.id), after, descending=True))
    raw = db.exec(query.order_by(*newest_first(col(Creative.id)).order_by()).limit(limit + 1)).all()
    return Page[CreativeRow](items=_creative_rows(raw[:limit]), total=int(total), limit=limit,
                             next_cursor=next_cursor(raw, limit, scope, lambda r: (None, r[0])))


def preview(db: Session, *, actor: Actor, creative_id: int) -> AnyPreview:
    """What a preview draws. `html` (html creatives only) is untrusted markup: put it only into
    `<iframe sandbox srcdoc=...>`, never into the page itself."""
    require(actor, "creative", "view")
    creative, _advertiser = in_scope(db, actor, creative_id)
    assets = _assets(db, creative)
    shown = {"type": creative.type, "id": creative.id, "name": creative.name, "width": creative.width,
             "height": creative.height, "duration_ms": creative.duration_ms, "click_url": creative.click_url,
             "asset": asset_public(assets["asset_id"])}
    if creative.type == CreativeType.NATIVE:
        return NativePreview(**shown, title=creative.title, description=creative.description,
                             call_to_action=creative.call_to_action,
                             main_image=asset_public(assets["main_image_asset_id"]),
                             icon=asset_public(assets["icon_asset_id"]))
    if creative.type == CreativeType.HTML:
        return HtmlPreview(**shown, html=creative.html)
    return CreativePreview(**shown)


# --- writing -------------------------------------------------------------------------------------------

def snapshot(creative: Creative) -> dict[str, Any]:
    """The audited state. Markup is recorded by size and fingerprint, so change logs never carry it."""
    row = creative.model_dump(exclude={"id", "created_at", "updated_at", "html", "version"})  # the audit row has it
    if creative.html:
        digest = hashlib.sha256(creative.html.encode("utf-8")).hexdigest()[:12]
        row["html"] = f"{len(creative.html.encode('utf-8'))} bytes, sha256 {digest}"
    else:
        row["html"] = ""
    return row


def _changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = [key for key in after if before.get(key) != after[key]]
    return {k: before.get(k) for k in changed}, {k: after[k] for k in changed}


def _sent(data: CreativeCreate | CreativeUpdate) -> dict[str, Any]:
    """The input fields given (a field left out is not there)."""
    return data.model_dump(include=set(INPUT_FIELDS), exclude_unset=True)


def create_creative(db: Session, *, actor: Actor, data: CreativeCreate,
                    advertiser_id: int | None = None) -> CreativeRead:
    """A new, active creative for the advertiser (an advertiser creates its own). `data.type` is image,
    native, video or html; it cannot change later."""
    require(actor, "creative", "create")
    advertiser = advertiser_for_new(db, actor, advertiser_id)
    assert advertiser.id is not None
    try:
        creative_type = CreativeType(data.type or "")
    except ValueError:
        raise Invalid({"type": "Choose image, native, video or html."}) from None
    values = checked(db, advertiser_id=advertiser.id, creative_type=creative_type, data=_sent(data))
    creative = Creative(advertiser_id=advertiser.id, type=creative_type.value, status=CreativeStatus.ACTIVE.value,
                        **values)
    db.add(creative)
    db.flush()
    audit.record(db, actor=actor, entity="creative", entity_id=creative.id, action="create", after=snapshot(creative))
    return public(db, creative, advertiser)


def update_creative(db: Session, *, actor: Actor, creative_id: int, data: CreativeUpdate,
                    action: str = "update") -> CreativeRead:
    """Change a creative; fields not sent keep their values; `data.version`, when given, must be the creative's
    (versions.check). Archived creatives are read-only. `action` names the
    change in the log (a restore from history says which entry it restored, app/history/restore.py)."""
    require(actor, "creative", "update")
    creative, advertiser = in_scope(db, actor, creative_id)
    if creative.status == CreativeStatus.ARCHIVED:
        raise Invalid({"status": "An archived creative cannot be changed."})
    if data.type not in (None, "", creative.type):
        raise Invalid({"type": "A creative's type cannot change; create a new creative instead."})
    versions.check(db, entity="creative", row=creative, expected=data.version, fields=list)
    creative_type = CreativeType(creative.type)
    current = {field: getattr(creative, field) for field in ("name", *TYPE_FIELDS[creative_type])}
    merged = current | _sent(data)
    before = snapshot(creative)
    for column, value in checked(db, advertiser_id=creative.advertiser_id, creative_type=creative_type,
                                 data=merged, changed=set(_sent(data))).items():
        setattr(creative, column, value)
    old, new = _changes(before, snapshot(creative))
    if new:
        creative.updated_at = utcnow()
        db.add(creative)
        audit.record(db, actor=actor, entity="creative", entity_id=creative.id, action=action, before=old, after=new,
                     version=versions.bump(creative))
        versions.flush(db)  # conditional on the version read: a save that lost a race is refused here
    return public(db, creative, advertiser)


def set_status(db: Session, *, actor: Actor, creative_id: int, status: str) -> CreativeRead:
    """Move a creative along STATUS_TRANSITIONS (CREATIVE_STATUS); the same status again changes nothing."""
    creative, advertiser = CREATIVE_STATUS.change(db, actor=actor, record_id=creative_id, status=status)
    return public(db, creative, advertiser)


# A creative's statuses: active ⇄ paused; either → archived (final).
CREATIVE_STATUS = status_machine.declare(status_machine.StatusMachine(
    "creative", Creative, tuple(CreativeStatus), ("creative", "status"), in_scope,
    lambda db, _actor, loaded: public(db, *loaded), read=CreativeRead,
    transitions={str(k): frozenset(map(str, moves)) for k, moves in STATUS_TRANSITIONS.items()},
    refused="{An} {current} creative cannot become {wanted}.",
    routes=(status_machine.StatusRoute("/creatives/{creative_id}/status", message="Status changed",
                                       description="active ⇄ paused; either → archived (final)."),
            status_machine.StatusRoute("/creative/updateCreativeStatusUser/{creative_id}", message="Status changed",
                                       summary="creative/updateCreativeStatusUser: status (as PUT "
                                               "/creatives/{id}/status)"))))


def archive_creative(db: Session, *, actor: Actor, creative_id: int) -> CreativeRead:
    """What deleting a creative does: it is archived, never removed, so its delivery history stays."""
    return set_status(db, actor=actor, creative_id=creative_id, status=CreativeStatus.ARCHIVED)


def upload_asset(db: Session, *, actor: Actor, advertiser_id: int | None = None, filename: str, content: bytes,
                 purpose: str = "image") -> CreativeFile:
    """Keep an uploaded creative file for the advertiser: an `image` or `icon` (PNG, JPEG, GIF, WEBP, at most
    2 MB) or a `video` (MP4, at most 50 MB). What the file is comes from its bytes; a bad file raises Invalid
    on `file`. The same file uploaded again for the same advertiser gives the asset it already has."""
    require(actor, "creative", "create")
    kind = UPLOAD_PURPOSES.get(purpose)
    if kind is None:
        raise Invalid({"purpose": "Choose image, icon or video."})
    advertiser = advertiser_for_new(db, actor, advertiser_id)
    found = media.inspect(content, kind=kind, field="file")
    if purpose == "icon" and (problem := sizes.native_icon_problem(found.width, found.height)):
        raise Invalid({"file": problem})  # the rule the creative applies (sizes.py), told as the file arrives
    digest, stored = media.store(content, found)
    asset = db.exec(select(CreativeAsset).where(CreativeAsset.advertiser_id == advertiser.id,
                                                CreativeAsset.sha256 == digest)).first()
    if asset is None:
        assert advertiser.id is not None
        asset = CreativeAsset(advertiser_id=advertiser.id, sha256=digest, stored_name=stored,
                              content_type=found.content_type, size_bytes=len(content), width=found.width,
                              height=found.height, duration_ms=found.duration_ms,
                              original_filename=shown_file_name(filename))
        db.add(asset)
        db.flush()
        audit.record(db, actor=actor, entity="creative_asset", entity_id=asset.id, action="upload",
                     after=asset.model_dump(exclude={"id", "created_at"}))
    shown = asset_public(asset)
    assert shown is not None
    return shown

