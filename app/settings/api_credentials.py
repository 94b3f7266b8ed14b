"""API credentials of users with api_access: generate (the token is shown once), list and revoke. The lookup
the API uses to turn a `dsp_` bearer token into an actor is app/access/api_keys.py.

A token is `dsp_<key_id>.<secret>`. The key id is public (shown in lists); only the sha256 of the secret
is stored, so a lost token cannot be shown again, only revoked and replaced.

Who manages whose keys: the user themself, an agency for its advertisers, admin and co-admin for any
client in their scope; always only while the target's settings have api_access.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime

from sqlmodel import Session, col, select

from app.access import grants
from app.access.api_keys import TOKEN_PREFIX, has_api_access, secret_digest
from app.access.key_scopes import DEFAULT_SCOPE, check_scope
from app.access.models import ApiCredential, User
from app.access.policy import Actor, can_see_user, require, require_signed_in, require_user_in_scope
from app.history import audit
from app.kernel import validation as v
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.kernel.model_base import utcnow
from app.kernel.paging import DEFAULT_LIMIT, Page, page_of_list
from app.settings.schemas import ApiKeyCreated, ApiKeyRead, ApiKeysOverview

LABEL_MAX_LENGTH = 60
MAX_LIVE_CREDENTIALS = 5

NOT_ENABLED = "API access is not enabled for this account."
KEY_NOT_FOUND = "API key not found."
LABEL_TOO_LONG = v.too_long(LABEL_MAX_LENGTH)
TOO_MANY_KEYS = f"You can have at most {MAX_LIVE_CREDENTIALS} active API keys. Revoke one first."
# ApiKeyRead.ended: revoked by a move of the account away from the agency that made the key; its maker can no
# longer act for the account (app/access/grants.py).
ENDED_BY_MOVE, ENDED_MAKER = "moved", "maker"


def _target(db: Session, *, actor: Actor, user_id: int, action: str) -> User:
    require(actor, "api_credential", action)
    user = require_user_in_scope(actor, db.get(User, user_id))
    if not has_api_access(db, user):
        raise Forbidden(NOT_ENABLED)
    return user


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _row(credential: ApiCredential, creators: Mapping[int | None, User], ended: str) -> ApiKeyRead:
    assert credential.id is not None
    creator = creators.get(credential.created_by or 0)
    return ApiKeyRead(id=credential.id, label=credential.label, key_id=credential.key_id, scope=credential.scope,
                      created=credential.created_at.isoformat(),
                      created_by_name=creator.display_name if creator else "",
                      last_used=_iso(credential.last_used_at), last_used_address=credential.last_used_address,
                      revoked=_iso(credential.revoked_at), ended=ended)


def _ended(db: Session, credential: ApiCredential, user: User) -> str:
    """ApiKeyRead.ended: what the key's users are told of a key that stopped without anyone revoking it by hand."""
    if credential.revoked_at is not None:
        return credential.revoked_reason
    return "" if grants.maker_may_act_for(db, maker_id=credential.created_by, user=user) else ENDED_MAKER


def _live_count(db: Session, user_id: int) -> int:
    return len(db.exec(select(ApiCredential.id).where(ApiCredential.user_id == user_id,
                                                      ApiCredential.revoked_at == None)).all())  # noqa: E711


def list_credentials(db: Session, *, actor: Actor, user_id: int) -> list[ApiKeyRead]:
    """The user's keys, live ones first, newest first: {id, label, key_id, scope, created, created_by_name,
    last_used, last_used_address, revoked} (times as ISO-8601 UTC, None when not set)."""
    user = _target(db, actor=actor, user_id=user_id, action="view")
    rows = list(db.exec(select(ApiCredential).where(ApiCredential.user_id == user_id)
                        .order_by(col(ApiCredential.created_at).desc(), col(ApiCredential.id).desc())))
    creator_ids = {r.created_by for r in rows if r.created_by}
    creators = {u.id: u for u in db.exec(select(User).where(col(User.id).in_(creator_ids)))} if creator_ids else {}
    rows.sort(key=lambda r: r.revoked_at is not None)  # stable: keeps newest first inside each group
    return [_row(r, creators, _ended(db, r, user)) for r in rows]


def credentials_page(db: Session, *, actor: Actor, user_id: int, limit: int = DEFAULT_LIMIT,
                     cursor: str | None = None) -> Page[ApiKeyRead]:
    """list_credentials a page at a time, newest first by id (a revoke moves no key between pages, as "live
    first" did). A user's keys are few (a handful live, the revoked ones kept), so they are read whole and cut
    in Python."""
    keys = sorted(list_credentials(db, actor=actor, user_id=user_id), key=lambda k: -k.id)
    return page_of_list(keys, limit=limit, cursor=cursor, scope={"list": "api_keys", "user_id": user_id},
                        key=lambda _k: [], ident=lambda k: -k.id)


def overview(db: Session, *, actor: Actor, user_id: int) -> ApiKeysOverview:
    """What the credentials panel shows: {enabled, credentials, max_live}. Unlike list_credentials it does not
    refuse a user without api_access (enabled is False, no keys), so a panel can say so instead of failing."""
    require(actor, "api_credential", "view")
    user = require_user_in_scope(actor, db.get(User, user_id))
    if not has_api_access(db, user):
        return ApiKeysOverview(enabled=False, credentials=[], max_live=MAX_LIVE_CREDENTIALS)
    return ApiKeysOverview(enabled=True, credentials=list_credentials(db, actor=actor, user_id=user_id),
                           max_live=MAX_LIVE_CREDENTIALS)


def _label_problem(label: str) -> str | None:
    if not label:
        return "This field is required."
    if len(label) > LABEL_MAX_LENGTH:
        return LABEL_TOO_LONG
    return v.free_text(label)


def generate(db: Session, *, actor: Actor, user_id: int, label: str, scope: str = DEFAULT_SCOPE) -> ApiKeyCreated:
    """Make a key for the user, able to call what `scope` allows (app/access/key_scopes.py). The reply's `token` is
    the only time the full secret exists anywhere. Only a signed-in person makes keys, never a key."""
    user = _target(db, actor=require_signed_in(actor), user_id=user_id, action="manage")
    label = (label or "").strip()
    v.check({"label": (_label_problem, label), "scope": (check_scope, scope)})
    assert user.id is not None
    if _live_count(db, user.id) >= MAX_LIVE_CREDENTIALS:
        raise Invalid({"label": TOO_MANY_KEYS})
    key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    credential = ApiCredential(user_id=user.id, label=label, key_id=key_id, secret_hash=secret_digest(secret),
                               scope=scope, created_by=actor.id)
    db.add(credential)
    db.flush()
    assert credential.id is not None
    audit.record(db, actor=actor, entity="api_credential", entity_id=credential.id, action="generate",
                 after={"user_id": user.id, "label": label, "key_id": key_id, "scope": scope})
    return ApiKeyCreated(id=credential.id, label=label, key_id=key_id, scope=scope,
                         created=credential.created_at.isoformat(), token=f"{TOKEN_PREFIX}{key_id}.{secret}")


def revoke(db: Session, *, actor: Actor, credential_id: int) -> None:
    """Stop a key at once. Revoking a revoked key changes nothing (a replayed click is harmless). Only a signed-in
    person revokes keys (a key revoking its siblings could lock its owner's systems out)."""
    require_signed_in(require(actor, "api_credential", "manage"))
    credential = db.get(ApiCredential, credential_id)
    owner = db.get(User, credential.user_id) if credential else None
    if credential is None or owner is None or not can_see_user(actor, owner):
        raise NotFound(KEY_NOT_FOUND)  # another tenant's key answers like a missing one
    if not has_api_access(db, owner):
        raise Forbidden(NOT_ENABLED)
    if credential.revoked_at is not None:
        return
    credential.revoked_at = utcnow()
    db.add(credential)
    audit.record(db, actor=actor, entity="api_credential", entity_id=credential.id, action="revoke",
                 before={"revoked_at": None}, after={"revoked_at": credential.revoked_at})


def revoke_all(db: Session, *, actor: Actor, user_id: int) -> int:
    """Stop every live key of a user whose API access is being switched off (the caller checked the
    permission), so switching access back on later does not revive forgotten keys. Returns how many."""
    live = db.exec(select(ApiCredential).where(ApiCredential.user_id == user_id,
                                               ApiCredential.revoked_at == None)).all()  # noqa: E711
    for credential in live:
        credential.revoked_at = utcnow()
        db.add(credential)
        audit.record(db, actor=actor, entity="api_credential", entity_id=credential.id, action="revoke",
                     before={"revoked_at": None}, after={"revoked_at": credential.revoked_at})
    return len(live)


def end_keys_beyond_their_makers(db: Session, *, actor: Actor, user: User) -> int:
    """Revoke the user's live keys whose makers can no longer act for it, in the caller's transaction: an advertiser
    just moved away from the agency that made them. They would already fail at their next call (their makers are
    asked at every use); revoking makes the end final (a move back does not revive a key that the account's
    managers meanwhile could not see or revoke) and lets the key list say it was the move. Returns how many."""
    assert user.id is not None
    live = db.exec(select(ApiCredential).where(ApiCredential.user_id == user.id,
                                               ApiCredential.revoked_at == None)).all()  # noqa: E711
    ended = [c for c in live if not grants.maker_may_act_for(db, maker_id=c.created_by, user=user)]
    for credential in ended:
        credential.revoked_at, credential.revoked_reason = utcnow(), ENDED_BY_MOVE
        db.add(credential)
        audit.record(db, actor=actor, entity="api_credential", entity_id=credential.id, action="revoke",
                     before={"revoked_at": None}, after={"revoked_at": credential.revoked_at,
                                                         "revoked_reason": ENDED_BY_MOVE})
    return len(ended)
