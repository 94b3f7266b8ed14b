"""Creatives over the API: the same service calls the creative pages make, so the same permission and row-scope
checks (an agency reaches its advertisers' creatives only; another tenant's id answers 404). REST paths first,
then the spec's call names (section 7) as aliases of the same functions."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Form, Response, UploadFile
from sqlmodel import Session

from app.access.policy import Actor
from app.creatives import service as creatives
from app.creatives.schemas import (
    AnyPreview,
    BulkResult,
    BulkStatusRequest,
    BulkUpdateRequest,
    CampaignCreativeRow,
    CampaignIds,
    CampaignRef,
    CreativeBody,
    CreativeFile,
    CreativeIds,
    CreativeRead,
    CreativeRow,
    CreativeUpdate,
    NewCreativeBody,
)
from app.kernel.config import get_settings
from app.kernel.paging import Page
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply, spec_call
from app.web.paging import PageQuery, page_query
from app.web.record_versions import ETAG_HEADER, STALE_REPLY, expected_version, if_match_header, tagged

router = APIRouter(tags=["creatives"])
spec_router = APIRouter(tags=["creatives (spec call names)"])


# --- REST -----------------------------------------------------------------------------------------------

@router.get("/creatives")
def list_creatives(type: Literal["", "image", "native", "video", "html"] = "",
                   status: Literal["", "active", "paused", "archived"] = "", search: str = "",
                   advertiser_id: int | None = None, campaign_id: int | None = None, include_archived: bool = False,
                   paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[Page[CreativeRow]]:
    """The creatives you may see, a page at a time, newest change first; archived ones only when asked for.
    Never html markup."""
    return reply(creatives.creatives_page(db, actor=actor, advertiser_id=advertiser_id, type=type, status=status,
                                          search=search, campaign_id=campaign_id, include_archived=include_archived,
                                          limit=paging.limit, cursor=paging.cursor))


@router.post("/creatives", status_code=201, responses=LOCATION_HEADER)
def create_creative(body: NewCreativeBody, response: Response, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[CreativeRead]:
    """A new, active creative. Its type cannot change later."""
    creative = creatives.create_creative(db, actor=actor, data=body, advertiser_id=body.advertiser_id)
    return created(response, creative, "Creative created", f"/creatives/{creative.id}")


@router.post("/creatives/bulk")
def bulk_update(body: BulkUpdateRequest, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[list[BulkResult]]:
    """Set click URL, pixel URLs or impression URLs on many creatives. Each row is saved or refused on its own:
    `data` is [{id, name, ok, message}]."""
    return reply(creatives.bulk_update(db, actor=actor, creative_ids=body.creative_ids, changes=body.changes,
                                       read=body.versions))


@router.post("/creatives/bulk-status")
def bulk_status(body: BulkStatusRequest, actor: Actor = Depends(get_actor),
                db: Session = DB) -> Envelope[list[BulkResult]]:
    """Admin and co-admin: change the status of many creatives; `data` is [{id, name, ok, message}]."""
    return reply(creatives.bulk_status(db, actor=actor, creative_ids=body.creative_ids, status=body.status,
                                       read=body.versions))


@router.get("/creatives/{creative_id}", responses=ETAG_HEADER)
def get_creative(creative_id: int, response: Response, actor: Actor = Depends(get_actor),
                 db: Session = DB) -> Envelope[CreativeRead]:
    """A creative with its files (URL, size, duration) and the campaigns it is in. Html markup: see /preview. Its
    `version` is also the ETag, to send back as If-Match with an edit."""
    return reply(tagged(response, creatives.get_creative(db, actor=actor, creative_id=creative_id)))


@router.patch("/creatives/{creative_id}", responses=STALE_REPLY)
@router.put("/creatives/{creative_id}", responses=STALE_REPLY)
def update_creative(creative_id: int, body: CreativeBody, response: Response, if_match: str | None = if_match_header(),
                    actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[CreativeRead]:
    """Edit a creative: the fields sent change, the others keep their values (PUT works the same as PATCH);
    archived creatives are read-only. If-Match (or `version`) is optional; when given, a creative saved since that
    version is refused with 409 naming who changed what."""
    edit = CreativeUpdate.model_validate({**body.model_dump(exclude_unset=True),
                                          "version": expected_version(if_match, body.version)})
    return reply(tagged(response, creatives.update_creative(db, actor=actor, creative_id=creative_id, data=edit)),
                 "Creative saved")


@router.delete("/creatives/{creative_id}")
def delete_creative(creative_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[CreativeRead]:
    """Deleting archives: nothing with delivery history is ever removed."""
    return reply(creatives.archive_creative(db, actor=actor, creative_id=creative_id), "Creative archived")


@router.get("/creatives/{creative_id}/preview")
def preview(creative_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[AnyPreview]:
    """What a preview draws: type, sizes, file URLs, native texts, and for html creatives the markup, which is
    untrusted: show it only in a sandboxed iframe (`<iframe sandbox srcdoc=...>`)."""
    return reply(creatives.preview(db, actor=actor, creative_id=creative_id))


@router.put("/creatives/{creative_id}/campaigns", responses={409: STALE_REPLY[409]})
def assign_to_campaigns(creative_id: int, body: CampaignIds, if_match: str | None = if_match_header(),
                        actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[CampaignRef]]:
    """Make these exactly the campaigns that show the creative (same advertiser only). If-Match (or `version`):
    the creative's ETag, so a creative saved since is refused."""
    return reply(creatives.assign_to_campaigns(db, actor=actor, creative_id=creative_id, campaign_ids=body.campaign_ids,
                                               version=expected_version(if_match, body.version)), "Campaigns saved")


@router.get("/campaigns/{campaign_id}/creatives")
def campaign_creatives(campaign_id: int, paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                       db: Session = DB) -> Envelope[Page[CampaignCreativeRow]]:
    """The creatives a campaign shows, a page at a time by name."""
    return reply(creatives.campaign_creatives_page(db, actor=actor, campaign_id=campaign_id, limit=paging.limit,
                                                   cursor=paging.cursor))


@router.put("/campaigns/{campaign_id}/creatives", responses={409: STALE_REPLY[409]})
def set_campaign_creatives(campaign_id: int, body: CreativeIds, if_match: str | None = if_match_header(),
                           actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[CampaignCreativeRow]]:
    """Make these exactly the creatives the campaign shows (same advertiser only). If-Match (or `version`): the
    campaign's ETag, so a campaign saved since is refused."""
    return reply(creatives.set_campaign_creatives(db, actor=actor, campaign_id=campaign_id,
                                                  creative_ids=body.creative_ids,
                                                  version=expected_version(if_match, body.version)), "Creatives saved")


@router.post("/uploads/creative", status_code=201)
def upload_creative_file(file: UploadFile, response: Response, purpose: Literal["image", "icon", "video"] = Form("image"),
                         advertiser_id: int | None = Form(None), actor: Actor = Depends(get_actor),
                         db: Session = DB) -> Envelope[CreativeFile]:
    """Upload a creative's file (multipart field `file`): an `image` or `icon` (PNG, JPEG, GIF or WEBP, at most
    2 MB) or a `video` (MP4, at most 50 MB). What it is comes from its bytes, not its name. `data` is {id, url,
    content_type, width, height, duration_ms}; use the id as the creative's asset_id."""
    settings = get_settings()
    limit = settings.max_creative_video_bytes if purpose == "video" else settings.max_creative_image_bytes
    # A sync handler runs in a worker thread, so reading the spooled upload here blocks no other request; one
    # byte past the limit is enough to refuse it.
    content = file.file.read(limit + 1)
    # 201 without Location: a file has no GET of its own under /api; `data.url` is where it is served.
    return created(response, creatives.upload_asset(db, actor=actor, advertiser_id=advertiser_id,
                                                    filename=file.filename or "", content=content, purpose=purpose),
                   "Uploaded")


# --- the spec's call names (section 7) ----------------------------------------------------------------------
# Compatibility routes for the spec's client: same endpoints; an upload (a create) keeps its 200 here (spec_call).

spec_router.add_api_route("/creative/creativeDataUser", list_creatives, methods=["GET"],
                          summary="creative/creativeDataUser: the creative list (as GET /creatives)")
spec_router.add_api_route("/creative/getCreativeById/{creative_id}", get_creative, methods=["GET"],
                          summary="creative/getCreativeById: one creative (as GET /creatives/{id})")
spec_router.add_api_route("/creative/getCreativePreview/{creative_id}", preview, methods=["GET"],
                          summary="creative/getCreativePreview: a preview (as GET /creatives/{id}/preview)")
spec_router.add_api_route("/creative/creativeDeleteById/{creative_id}", delete_creative, methods=["DELETE"],
                          summary="creative/creativeDeleteById: archive (as DELETE /creatives/{id})")
spec_router.add_api_route("/creative/updateCreativeFileData/{creative_id}", update_creative, methods=["PUT"],
                          summary="creative/updateCreativeFileData: edit (as PUT /creatives/{id})")
spec_router.add_api_route("/creative/bulk-status-update", bulk_status, methods=["POST"],
                          summary="creative/bulk-status-update: bulk status (as POST /creatives/bulk-status)")
spec_router.add_api_route("/creative/bulk-creative-update", bulk_update, methods=["POST"],
                          summary="creative/bulk-creative-update: bulk edit (as POST /creatives/bulk)")
spec_router.add_api_route("/creative/bulk-creative-data", list_creatives, methods=["GET"],
                          summary="creative/bulk-creative-data: the rows a bulk edit starts from (as GET /creatives)")
spec_router.add_api_route("/withOutRole/upload", spec_call(upload_creative_file), methods=["POST"],
                          summary="withOutRole/upload: upload a creative file (as POST /uploads/creative)")
