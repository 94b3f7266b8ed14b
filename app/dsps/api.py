"""DSP connections over the API (admin only): the same service calls the DSP pages make. REST-style paths (POST
/dsp creates; /dsp/{id} reads, changes, tests) plus the spec's call names (dsp/list, dsp/createDSP,
dsp/activeDspList, newDsp/createNewDsp).

No answer ever carries a DSP's credentials: `api_key` goes in, `credentials_set` comes out."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Response
from sqlmodel import Session

from app.access.policy import Actor
from app.dsps import service as dsps
from app.dsps.schemas import (
    ActiveDsp,
    AnyAssociation,
    ConnectionTest,
    ConnectionTry,
    DspBody,
    DspRead,
    NewDspRead,
    SyncRequest,
    SyncResult,
    TestedDsp,
)
from app.kernel.paging import Page
from app.web.deps import DB, get_actor
from app.web.envelope import LOCATION_HEADER, Envelope, created, reply, spec_call
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["DSP connections (admin)"])

DSP_HELP = dsps.DSP_HELP


@router.get("/dsp/list", description="Every DSP, by name. " + DSP_HELP.replace("Answers the DSP", "Each row"))
def list_dsps(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[DspRead]]:
    return reply(dsps.list_dsps(db, actor=actor))


@router.get("/dsp", description="The DSPs a page at a time, by name; `total` counts them. (dsp/list, the spec's "
                                 "name, answers them all at once.) " + DSP_HELP.replace("Answers the DSP", "Each row"))
def dsps_page(status: Literal["", "active", "inactive"] = "", paging: PageQuery = Depends(page_query),
              actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Page[DspRead]]:
    return reply(dsps.dsps_page(db, actor=actor, status=status, limit=paging.limit, cursor=paging.cursor))


@router.get("/dsp/activeDspList", description="The active DSPs (the ones campaigns and creatives can be synced to): "
                                              "{id, name, connector, exchange_ids} each.")
def active_dsps(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ActiveDsp]]:
    return reply(dsps.active_dsps(db, actor=actor))


@router.post("/dsp", status_code=201, responses=LOCATION_HEADER,
             description="Add a DSP (the one-page form): 201, its URL in Location. " + DSP_HELP)
def create_dsp(body: DspBody, response: Response, actor: Actor = Depends(get_actor),
               db: Session = DB) -> Envelope[DspRead]:
    dsp = dsps.create_dsp(db, actor=actor, data=body)
    return created(response, dsp, "DSP created", f"/dsp/{dsp.id}")


router.add_api_route("/dsp/createDSP", spec_call(create_dsp), methods=["POST"],
                     summary="dsp/createDSP: add a DSP (as POST /dsp; answers 200)",
                     description="Add a DSP (the one-page form). " + DSP_HELP)


@router.post("/newDsp/createNewDsp", description="Add a DSP and test its connection at once (New DSP): answers "
                                                "{dsp, test: {ok, message}}. The DSP is kept even when the test "
                                                "fails; fix it with PUT /dsp/{id}.")
def create_new_dsp(body: DspBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[NewDspRead]:
    created = dsps.create_dsp(db, actor=actor, data=body)
    db.commit()  # the DSP is saved before the network call, and no write waits on the DSP's answer
    tested = dsps.test_connection(db, actor=actor, dsp_id=created.id)
    return reply(NewDspRead(dsp=tested.dsp, test=ConnectionTest(ok=tested.ok, message=tested.message)),
                 "DSP created")


@router.post("/dsp/testConnection", description="Test settings before saving them: {ok, message}. Writes nothing.")
def try_connection(body: ConnectionTry, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[ConnectionTest]:
    return reply(dsps.try_connection(db, actor=actor, endpoint_url=body.endpoint_url, api_key=body.api_key,
                                     connector=body.connector, dsp_id=body.dsp_id))


@router.get("/dsp/associations/{entity}/{local_id}",
            description="The association map of a campaign or creative, a page at a time by DSP name: one line per "
                        "DSP that is active or holds an id for it: {dsp_id, dsp_name, dsp_status, remote_id, "
                        "campaign_associate_id (campaigns) or "
                        "creative_associate_id and creative_primary_id (creatives), synced_at, attempted_at, "
                        "last_error}.")
def associations(entity: Literal["campaign", "creative"], local_id: int, paging: PageQuery = Depends(page_query),
                 actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[Page[AnyAssociation]]:
    return reply(dsps.associations_page(db, actor=actor, entity=entity, local_id=local_id, limit=paging.limit,
                                        cursor=paging.cursor))


@router.get("/dsp/{dsp_id}", description="One DSP. " + DSP_HELP)
def get_dsp(dsp_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[DspRead]:
    return reply(dsps.get_dsp(db, actor=actor, dsp_id=dsp_id))


@router.put("/dsp/{dsp_id}", description="Change a DSP; fields left out keep their values. " + DSP_HELP)
def update_dsp(dsp_id: int, body: DspBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[DspRead]:
    return reply(dsps.update_dsp(db, actor=actor, dsp_id=dsp_id, data=body), "DSP saved")


@router.post("/dsp/{dsp_id}/test", description="Test a saved DSP's connection (GET {endpoint}/health with its key) "
                                               "and keep the result on it: {ok, message, dsp}.")
def test_connection(dsp_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[TestedDsp]:
    return reply(dsps.test_connection(db, actor=actor, dsp_id=dsp_id))


@router.post("/dsp/{dsp_id}/sync", status_code=202,
             description="Queue a push of a campaign or creative to the DSP: answers 202 {state: \"queued\", message, "
                         "association} at once. The push runs as a job, retried with backoff; its outcome (the DSP's "
                         "id, or why it failed after its last attempt) is on the association map, GET "
                         "/dsp/associations/{entity}/{id} (push_state, remote_id, last_error). The campaign or "
                         "creative itself is never changed.")
def sync(dsp_id: int, body: SyncRequest, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[SyncResult]:
    return reply(dsps.sync(db, actor=actor, dsp_id=dsp_id, entity=body.entity, local_id=body.id), "Queued")
