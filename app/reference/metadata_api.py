"""The reference lists (exchanges, operating systems, OS versions, browsers, manufacturers, carriers, traffic
types) over the API: what /admin/metadata manages and what the campaign pickers offer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor, require
from app.kernel.errors import Invalid
from app.reference import metadata
from app.reference.models import REFERENCE_KINDS
from app.web.deps import DB, get_actor
from app.web.envelope import ok

router = APIRouter(tags=["reference lists"])
KINDS = ", ".join(REFERENCE_KINDS)


_PARENT = "OS versions only: the id of their operating system (null: none)"
_COUNTRY = "Carriers only: the ISO alpha-2 code of the country they serve (null: none)"


class NameBody(BaseModel):
    name: str
    parent_id: int | None = Field(None, description=_PARENT)
    country: str | None = Field(None, description=_COUNTRY)


class ValueChangeBody(BaseModel):
    name: str | None = Field(None, description="A new name; unique in its list, case-insensitively")
    retired: bool | None = Field(None, description="true: pickers stop offering it; false: restore it")
    parent_id: int | None = Field(None, description=_PARENT + "; left out: unchanged")
    country: str | None = Field(None, description=_COUNTRY + "; left out: unchanged")


@router.get("/metadata")
def kinds(actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Admin and co-admin: every list with how many of its values are active and retired."""
    return ok(metadata.kind_counts(db, actor=actor))


@router.get("/metadata/{kind}", description=f"Admin and co-admin: a list's values with how often each is used. "
                                            f"Kinds: {KINDS}.")
def values(kind: str, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    return ok(metadata.list_values(db, actor=actor, kind=kind))


@router.get("/metadata/{kind}/active")
def active(kind: str, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """The values a picker offers (not retired), for every signed-in role."""
    return ok(metadata.active_values(db, actor=actor, kind=kind))


@router.post("/metadata/{kind}")
def add(kind: str, body: NameBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Add a value to a list."""
    return ok(metadata.add_value(db, actor=actor, kind=kind, name=body.name, parent_id=body.parent_id,
                                 country=body.country), "Value added")


@router.put("/metadata/values/{value_id}")
def change(value_id: int, body: ValueChangeBody, actor: Actor = Depends(get_actor),
           db: Session = DB) -> dict[str, Any]:
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
    return ok(row, "Value saved")


@router.delete("/metadata/values/{value_id}")
def delete(value_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Delete a value nothing uses (409 when something does: retire it instead)."""
    return ok(metadata.delete_value(db, actor=actor, value_id=value_id), "Value deleted")
