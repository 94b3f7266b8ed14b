"""The reference lists (exchanges, operating systems, OS versions, browsers, manufacturers, carriers, traffic
types) over the API: what /admin/metadata manages and what the campaign pickers offer."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlmodel import Session

from app.access.policy import Actor, require
from app.kernel.errors import Invalid
from app.reference import metadata
from app.reference.models import REFERENCE_KINDS
from app.reference.schemas import (
    AnyOption,
    KindCount,
    ReferenceValueCreate,
    ReferenceValueRead,
    ReferenceValueUpdate,
)
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, created, reply

router = APIRouter(tags=["reference lists"])
KINDS = ", ".join(REFERENCE_KINDS)


@router.get("/metadata")
def kinds(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[dict[str, KindCount]]:
    """Admin and co-admin: every list with how many of its values are active and retired."""
    return reply(metadata.kind_counts(db, actor=actor))


@router.get("/metadata/{kind}", description=f"Admin and co-admin: a list's values with how often each is used. "
                                            f"Kinds: {KINDS}.")
def values(kind: str, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[ReferenceValueRead]]:
    return reply(metadata.list_values(db, actor=actor, kind=kind))


@router.get("/metadata/{kind}/active")
def active(kind: str, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[list[AnyOption]]:
    """The values a picker offers (not retired), for every signed-in role: {id, name}, OS versions with
    parent_id, carriers with country, traffic types with code."""
    return reply(list[AnyOption](metadata.active_values(db, actor=actor, kind=kind)))


@router.post("/metadata/{kind}", status_code=201)
def add(kind: str, body: ReferenceValueCreate, response: Response, actor: Actor = Depends(get_actor),
        db: Session = DB) -> Envelope[ReferenceValueRead]:
    """Add a value to a list."""
    # 201 without Location: a value is read back in its list (GET /metadata/{kind}).
    return created(response, metadata.add_value(db, actor=actor, kind=kind, name=body.name, parent_id=body.parent_id,
                                                country=body.country), "Value added")


@router.put("/metadata/values/{value_id}")
def change(value_id: int, body: ReferenceValueUpdate, actor: Actor = Depends(get_actor),
           db: Session = DB) -> Envelope[ReferenceValueRead]:
    """Rename, retire or restore a value, or set an OS version's operating system or a carrier's country
    (in one call: name and detail first)."""
    require(actor, "reference", "manage")  # before the body is judged: other roles get 403, not advice
    details = {"parent_id", "country"} & body.model_fields_set
    if body.name is None and body.retired is None and not details:
        raise Invalid({"name": "Give a new name, or retired true or false."})
    row = None
    if details:
        row = metadata.edit_value(db, actor=actor, value_id=value_id, name=body.name, parent_id=body.parent_id,
                                  country=body.country)
    elif body.name is not None:
        row = metadata.rename_value(db, actor=actor, value_id=value_id, name=body.name)
    if body.retired is not None:
        row = metadata.set_retired(db, actor=actor, value_id=value_id, retired=body.retired)
    assert row is not None  # one of the three was given (checked above)
    return reply(row, "Value saved")


@router.delete("/metadata/values/{value_id}")
def delete(value_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ReferenceValueRead]:
    """Delete a value nothing uses (409 when something does: retire it instead)."""
    return reply(metadata.delete_value(db, actor=actor, value_id=value_id), "Value deleted")
