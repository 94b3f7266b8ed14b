"""Client settings over the API: the acting user's conversion postback, and API keys (the same service calls
as /advertiser-settings, /agency/agency-settings and /admin/user-config, so the same checks)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.settings import api_credentials, postbacks
from app.web.deps import DB, get_actor, get_signed_in_actor
from app.web.envelope import ok

router = APIRouter(tags=["settings"])


class PostbackBody(BaseModel):
    """Both fields are optional: a field left out keeps its value."""

    url: str | None = Field(None, description="http(s) URL; macros such as {click_id} are replaced when a postback "
                                              "is sent. Empty, with no events, switches the postback off")
    events: list[str] | None = Field(None, description="Events to send: " + ", ".join(postbacks.POSTBACK_EVENTS))


class NewKeyBody(BaseModel):
    label: str = Field(description="A name that says where the key is used; up to 60 characters")


@router.get("/postback")
def get_postback(actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Your postback URL and events (403 unless an admin has enabled postbacks for your account)."""
    return ok(postbacks.get_postback(db, actor=actor))


@router.patch("/postback")
@router.put("/postback", summary="Put Postback (fields left out keep their values)")
def put_postback(body: PostbackBody, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """Save your postback URL or events: the fields given; the other keeps its value (PUT works the same as
    PATCH)."""
    return ok(postbacks.update_postback(db, actor=actor, url=body.url, events=body.events), "Postback saved")


@router.get("/users/{user_id}/api-keys")
def list_keys(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> dict[str, Any]:
    """A user's API keys (your own, or an account you manage), live ones first, with when and from where
    each was last used. The secret is never shown again after it was generated."""
    return ok(api_credentials.list_credentials(db, actor=actor, user_id=user_id))


@router.post("/users/{user_id}/api-keys")
def generate_key(user_id: int, body: NewKeyBody, actor: Actor = Depends(get_signed_in_actor),
                 db: Session = DB) -> dict[str, Any]:
    """Generate a key for a user with API access. `data.token` holds the whole key: this reply is the only
    time it exists; we keep a fingerprint. Not callable with an API key."""
    return ok(api_credentials.generate(db, actor=actor, user_id=user_id, label=body.label), "API key generated")


@router.delete("/api-keys/{credential_id}")
def revoke_key(credential_id: int, actor: Actor = Depends(get_signed_in_actor),
               db: Session = DB) -> dict[str, Any]:
    """Revoke a key at once. Revoking it again changes nothing. Not callable with an API key."""
    api_credentials.revoke(db, actor=actor, credential_id=credential_id)
    return ok(None, "API key revoked")
