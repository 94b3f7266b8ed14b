"""Client settings over the API: the acting user's conversion postback, and API keys (the same service calls
as /advertiser-settings, /agency/agency-settings and /admin/user-config, so the same checks)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.paging import Page
from app.settings import api_credentials, postbacks
from app.settings.schemas import ApiKeyCreate, ApiKeyCreated, ApiKeyRead, PostbackRead, PostbackUpdate
from app.web.deps import DB, get_actor, get_signed_in_actor
from app.web.envelope import Envelope, created, reply
from app.web.paging import PageQuery, page_query

router = APIRouter(tags=["settings"])


@router.get("/postback")
def get_postback(actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[PostbackRead]:
    """Your postback URL and events (403 unless an admin has enabled postbacks for your account)."""
    return reply(postbacks.get_postback(db, actor=actor))


@router.patch("/postback")
@router.put("/postback", summary="Put Postback (fields left out keep their values)")
def put_postback(body: PostbackUpdate, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[PostbackRead]:
    """Save your postback URL or events: the fields given; the other keeps its value (PUT works the same as
    PATCH)."""
    return reply(postbacks.update_postback(db, actor=actor, url=body.url, events=body.events), "Postback saved")


@router.get("/users/{user_id}/api-keys")
def list_keys(user_id: int, paging: PageQuery = Depends(page_query), actor: Actor = Depends(get_actor),
              db: Session = DB) -> Envelope[Page[ApiKeyRead]]:
    """A user's API keys (your own, or an account you manage), a page at a time: live ones first, newest first,
    with each one's scope and when and from where it was last used. The secret is never shown again after it was generated."""
    return reply(api_credentials.credentials_page(db, actor=actor, user_id=user_id, limit=paging.limit,
                                                  cursor=paging.cursor))


@router.post("/users/{user_id}/api-keys", status_code=201)
def generate_key(user_id: int, body: ApiKeyCreate, response: Response, actor: Actor = Depends(get_signed_in_actor),
                 db: Session = DB) -> Envelope[ApiKeyCreated]:
    """Generate a key for a user with API access, with the `scope` it may call (read, read_write or reporting).
    `data.token` holds the whole key: this reply is the only time it exists; we keep a fingerprint. Not callable
    with an API key."""
    # 201 without Location: a key is read back only in its user's list (GET /users/{user_id}/api-keys).
    return created(response, api_credentials.generate(db, actor=actor, user_id=user_id, label=body.label,
                                                      scope=body.scope), "API key generated")


@router.delete("/api-keys/{credential_id}")
def revoke_key(credential_id: int, actor: Actor = Depends(get_signed_in_actor),
               db: Session = DB) -> Envelope[None]:
    """Revoke a key at once. Revoking it again changes nothing. Not callable with an API key."""
    api_credentials.revoke(db, actor=actor, credential_id=credential_id)
    return reply(None, "API key revoked")
