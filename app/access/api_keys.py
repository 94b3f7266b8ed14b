"""API keys at the door: is a bearer token an API key, and which actor does it stand for.

A token is `dsp_<key_id>.<secret>`. The key id is public (shown in lists); only the sha256 of the secret is
stored, so a lost token cannot be shown again, only revoked and replaced (app/settings/api_credentials.py makes
and revokes keys). A key works only while its user is active and an admin has api_access switched on for them,
and a key someone else made for the user only while that maker still may act for them (app/access/grants.py)."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

from sqlmodel import Session, select

from app.access import grants, preferences
from app.access.models import ApiCredential, User, UserStatus
from app.access.policy import Actor
from app.access.roles import Role
from app.kernel.model_base import utcnow

TOKEN_PREFIX = "dsp_"
LAST_USE_WRITE_INTERVAL = timedelta(minutes=1)
CLIENT_ROLES = frozenset({Role.AGENCY, Role.ADVERTISER})


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def is_api_token(token: str | None) -> bool:
    """A bearer token that names an API credential (anything else is a session JWT)."""
    return bool(token) and str(token).startswith(TOKEN_PREFIX)


def has_api_access(db: Session, user: User) -> bool:
    """Only clients can hold API keys, and only while an admin has api_access switched on for them."""
    return Role(user.role) in CLIENT_ROLES and bool(preferences.settings_of(db, user.id or 0).api_access)


def authenticate(db: Session, *, token: str, address: str = "") -> Actor | None:
    """The actor a `dsp_` token stands for, or None: unknown or revoked key, wrong secret, user not active,
    or api_access switched off. Records the last use (at most one write a minute per key)."""
    if not is_api_token(token):
        return None
    key_id, dot, secret = token[len(TOKEN_PREFIX):].partition(".")
    if not dot or not key_id or not secret:
        return None
    credential = db.exec(select(ApiCredential).where(ApiCredential.key_id == key_id)).first()
    if credential is None:
        secret_digest(secret)  # same work as a real check
        return None
    if not hmac.compare_digest(credential.secret_hash, secret_digest(secret)) or credential.revoked_at is not None:
        return None
    user = db.get(User, credential.user_id)
    if user is None or user.id is None or user.status != UserStatus.ACTIVE or not has_api_access(db, user):
        return None
    if not grants.maker_may_act_for(db, maker_id=credential.created_by, user=user):
        return None  # its maker no longer acts for the user (moved away, disabled, another role): app/access/grants.py
    now = utcnow()
    if credential.last_used_at is None or now - credential.last_used_at >= LAST_USE_WRITE_INTERVAL:
        credential.last_used_at = now
        credential.last_used_address = (address or "")[:64]
        db.add(credential)
    return Actor(user=user, stack=(user.id,), key_scope=credential.scope)  # deps.get_actor holds calls to the scope
