"""Audiences over the API: the same service calls the audience pages make, so the same permission and row-scope
checks (an agency reaches its advertisers' audiences only; another tenant's id answers 404). REST paths first,
then the spec's call names (createAudiance, getaudienceDataById, audience-status). Choosing the campaigns that use an
audience saves campaigns: its routes are the campaigns domain's (app/campaigns/audience_targeting_api.py)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Response, UploadFile
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.paging import Page
from app.supply import audiences
from app.supply.audience_devices import MAX_FILE_BYTES
from app.supply.schemas import AudienceCreate, AudienceDeleted, AudienceRead, AudienceRow, AudienceUploaded
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply, spec_call
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["audiences"])
spec_router = APIRouter(tags=["audiences (spec call names)"])

AUDIENCE_HELP = ("An audience: {id, name, kind, status, advertiser_id, advertiser, event, lookback_days, size, "
                 "size_unit, last_upload, campaigns, created_at, updated_at}. `size` counts distinct device ids "
                 "(size_unit \"devices\") for a device-id list, and for a retargeting audience the events recorded "
                 "in its look-back window (size_unit \"events\": the statistics count events, not people).")


KindFilter = Literal["", "device_ids", "retargeting"]
StatusFilter = Literal["", "active", "inactive"]


@router.get("/audiences", description="The audiences you may see, a page at a time, most recently changed first, each "
                                      "with its size and `campaign_count` (live campaigns using it); `total` counts "
                                      "what the filters match.")
def list_audiences(kind: KindFilter = "", status: StatusFilter = "", search: str = "", advertiser_id: int | None = None,
                   paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[Page[AudienceRow]]:
    return reply(audiences.audiences_page(db, actor=actor, advertiser_id=advertiser_id, kind=kind, status=status,
                                          search=search, limit=paging.limit, cursor=paging.cursor))


def all_audiences(kind: KindFilter = "", status: StatusFilter = "", search: str = "", advertiser_id: int | None = None,
                  actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[AudienceRow]]:
    """getAudienceList answers the whole list, as the spec's client reads it (an array)."""
    return reply(audiences.list_audiences(db, actor=actor, advertiser_id=advertiser_id, kind=kind, status=status,
                                          search=search))


@router.post("/audiences", status_code=201, responses=LOCATION_HEADER, description="A new, active audience. A device-id list starts empty: send its ids with "
                                       "POST /audiences/{id}/devices. " + AUDIENCE_HELP)
def create_audience(body: AudienceCreate, response: Response, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[AudienceRead]:
    audience = audiences.create_audience(db, actor=actor, name=body.name, kind=body.kind, event=body.event,
                                         lookback_days=body.lookback_days, advertiser_id=body.advertiser_id)
    return created(response, audience, "Audience created", f"/audiences/{audience.id}")


@router.get("/audience-events", description="The events a retargeting audience of the advertiser can use: "
                                            "\"conversion\" (every conversion), then its recorded custom events.")
def audience_events(advertiser_id: int | None = None, actor: Actor = Depends(get_actor),
                    db: Session = DB) -> Envelope[list[str]]:
    return reply(audiences.event_choices(db, actor=actor, advertiser_id=advertiser_id))


@router.get("/audiences/{audience_id}", description=AUDIENCE_HELP)
def get_audience(audience_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[AudienceRead]:
    return reply(audiences.get_audience(db, actor=actor, audience_id=audience_id))


@router.delete("/audiences/{audience_id}", description="Delete an audience and its device ids. Refused (409, naming "
                                                       "the campaigns in the message and in data.campaigns) while a "
                                                       "campaign uses it.")
def delete_audience(audience_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[AudienceDeleted]:
    return reply(audiences.delete_audience(db, actor=actor, audience_id=audience_id), "Audience deleted")


@router.post("/audiences/{audience_id}/devices",
             description="Append a file of device ids (multipart field `file`): IDFA or GAID, one a line, any case, "
                         "with or without braces; a first line such as \"device_id\" is skipped. At most "
                         f"{MAX_FILE_BYTES // (1024 * 1024)} MB a file; read and stored in batches, never whole. "
                         "data: {audience, upload: {file, lines, valid, invalid, added, duplicates, samples: [{line, "
                         "text, reason}]}}. Invalid lines are counted and skipped; a file with no valid id is "
                         "refused.")
def upload_devices(audience_id: int, file: UploadFile, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[AudienceUploaded]:
    # A sync handler runs in a worker thread: the upload (spooled to a temporary file by the multipart parser
    # past 1 MB) is read here in chunks, so a million ids take neither the event loop nor the memory.
    return reply(audiences.upload_devices(db, actor=actor, audience_id=audience_id, stream=file.file,
                                          filename=file.filename or ""), "Device ids added")


# --- the spec's call names (section 7) ----------------------------------------------------------------------

# Compatibility routes for the spec's client: same endpoints; a create keeps its 200 here (spec_call).
spec_router.add_api_route("/createAudiance", spec_call(create_audience), methods=["POST"],
                          summary="createAudiance: a new audience (as POST /audiences)")
spec_router.add_api_route("/getaudienceDataById/{audience_id}", get_audience, methods=["GET"],
                          summary="getaudienceDataById: one audience (as GET /audiences/{id})")
spec_router.add_api_route("/getAudienceList", all_audiences, methods=["GET"],
                          summary="getAudienceList: the audience list, all of it (as GET /audiences, unpaged)")
spec_router.add_api_route("/deleteAudience/{audience_id}", delete_audience, methods=["DELETE"],
                          summary="deleteAudience: delete an unused audience (as DELETE /audiences/{id})")
