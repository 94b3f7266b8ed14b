"""Whether authority that came through someone else still holds, asked at every use rather than copied.

An API key made by someone other than its user (an agency for its advertiser, staff for a client) acts for that
user only while its maker still may: the maker is active, still may manage keys, and still has the user in its
row scope. A move of the advertiser to another agency (or to none), a disabled or removed maker, or a role change
ends it at the key's next call, whichever path made the change (a page, the API, another process, the database).
Impersonation chains are re-checked the same way by sessions.actor_for; an open tab by the websocket guard.
"""

from __future__ import annotations

from sqlmodel import Session

from app.access.models import User, UserStatus
from app.access.policy import Actor, can, can_see_user


def maker_may_act_for(db: Session, *, maker_id: int | None, user: User) -> bool:
    """Whether a key `maker_id` made still lets it act for `user`. A key the user made itself, or one from before
    makers were recorded (None), depends on the user alone."""
    if maker_id is None or maker_id == user.id:
        return True
    maker = db.get(User, maker_id)
    if maker is None or maker.id is None or maker.status != UserStatus.ACTIVE:
        return False
    as_maker = Actor(user=maker, stack=(maker.id,))
    return can(as_maker, "api_credential", "manage") and can_see_user(as_maker, user)
