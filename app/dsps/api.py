"""DSP connections over the API (admin only): the same service calls the DSP pages make. REST-style paths under
/dsp/{id} plus the spec's call names (dsp/list, dsp/createDSP, dsp/activeDspList, newDsp/createNewDsp).

No answer ever carries a DSP's credentials: `api_key` goes in, `credentials_set` comes out."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.dsps import service as dsps
from app.web.deps import DB, get_actor
from app.web.envelope import error_response, ok

router = APIRouter(tags=["DSP connections (admin)"])

Status = Literal["active", "inactive"]
KEY_HELP = ("The DSP's API key, sent to it as a bearer token. Stored encrypted and never returned: answers say "
            "only `credentials_set`.")
DSP_HELP = dsps.DSP_HELP


class DspBody(BaseModel):
    """A DSP. On edit, fields left out keep their values; an empty or missing api_key keeps the stored key."""

    name: str | None = Field(None, description="Unique, at most 120 characters")
    connector: Literal["http_json"] | None = Field(None, description="The connector type; one is built in")
    endpoint_url: str | None = Field(None, description="http(s) base address; private addresses are allowed")
    seat_id: str | None = Field(None, description="The buyer seat the DSP gave this console, sent with every "
                                                  "push: letters, digits, _ and -, at most 64; empty for none")
    api_key: str | None = Field(None, description=KEY_HELP)
    status: Status | None = None
    exchange_ids: list[int] | None = Field(None, description="Supported exchanges: ids from /api/meta/exchanges")


class TryBody(BaseModel):
    endpoint_url: str
    api_key: str = Field("", description="Empty with dsp_id: the stored key of that DSP")
    connector: Literal["http_json"] = "http_json"
    dsp_id: int | None = None


class SyncBody(BaseModel):
    entity: Literal["campaign", "creative"]
    id: int = Field(..., description="The campaign's or creative's id")


def _data(body: DspBody) -> dict[str, Any]:
    return body.model_dump(exclude_unset=True)


@router.get("/dsp/list", description="Every DSP, by name. " + DSP_HELP.replace("Answers the DSP", "Each row"))
def list_dsps(actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.list_dsps(db, actor=actor))


@router.get("/dsp/activeDspList", description="The active DSPs (the ones campaigns and creatives can be synced to): "
                                              "{id, name, connector, exchange_ids} each.")
def active_dsps(actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.active_dsps(db, actor=actor))


@router.post("/dsp/createDSP", description="Add a DSP (the one-page form). " + DSP_HELP)
def create_dsp(body: DspBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.create_dsp(db, actor=actor, data=_data(body)), "DSP created")


@router.post("/newDsp/createNewDsp", description="Add a DSP and test its connection at once (New DSP): answers "
                                                "{dsp, test: {ok, message}}. The DSP is kept even when the test "
                                                "fails; fix it with PUT /dsp/{id}.")
def create_new_dsp(body: DspBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    created = dsps.create_dsp(db, actor=actor, data=_data(body))
    db.commit()  # the DSP is saved before the network call, and no write waits on the DSP's answer
    tested = dsps.test_connection(db, actor=actor, dsp_id=created["id"])
    return ok({"dsp": tested["dsp"], "test": {"ok": tested["ok"], "message": tested["message"]}}, "DSP created")


@router.post("/dsp/testConnection", description="Test settings before saving them: {ok, message}. Writes nothing.")
def try_connection(body: TryBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.try_connection(db, actor=actor, **body.model_dump()))


@router.get("/dsp/associations/{entity}/{local_id}",
            description="The association map of a campaign or creative: one line per DSP that is active or holds an id "
                        "for it: {dsp_id, dsp_name, dsp_status, remote_id, campaign_associate_id (campaigns) or "
                        "creative_associate_id and creative_primary_id (creatives), synced_at, attempted_at, "
                        "last_error}.")
def associations(entity: Literal["campaign", "creative"], local_id: int, actor: Actor = Depends(get_actor),
                 db: Session = DB) -> dict[str, Any]:
    return ok(dsps.associations(db, actor=actor, entity=entity, local_id=local_id))


@router.get("/dsp/{dsp_id}", description="One DSP. " + DSP_HELP)
def get_dsp(dsp_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.get_dsp(db, actor=actor, dsp_id=dsp_id))


@router.put("/dsp/{dsp_id}", description="Change a DSP; fields left out keep their values. " + DSP_HELP)
def update_dsp(dsp_id: int, body: DspBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.update_dsp(db, actor=actor, dsp_id=dsp_id, data=_data(body)), "DSP saved")


@router.post("/dsp/{dsp_id}/test", description="Test a saved DSP's connection (GET {endpoint}/health with its key) "
                                               "and keep the result on it: {ok, message, dsp}.")
def test_connection(dsp_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(dsps.test_connection(db, actor=actor, dsp_id=dsp_id))


@router.post("/dsp/{dsp_id}/sync", description="Push a campaign or creative to the DSP and record the id it answers: "
                                               "{ok, message, association}. A failed push (unreachable, too slow, an "
                                               "error status, an answer without an id) answers 502 with the same "
                                               "data; the failure is kept on the association and the campaign or "
                                               "creative is unchanged.", response_model=None,
             responses={502: error_response("The DSP refused the push or could not be reached; `data` is the "
                                            "recorded result.")})
def sync(dsp_id: int, body: SyncBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Any:
    result = dsps.sync(db, actor=actor, dsp_id=dsp_id, entity=body.entity, local_id=body.id)
    if result["ok"]:
        return ok(result, "Synced")
    # Returned, not raised: the request's unit of work commits, keeping the recorded failure.
    return JSONResponse({"success": False, "code": 502, "message": result["message"], "data": result},
                        status_code=502)
