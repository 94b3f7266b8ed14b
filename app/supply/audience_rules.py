"""The rule a campaign's audience targeting obeys (app/campaigns/targeting.py checks it), apart from the audience
service, which needs none of it: every audience a campaign allows or blocks is an ACTIVE audience of the
campaign's own advertiser."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from app.kernel.i18n.catalog import Message
from app.supply.models import Audience, AudienceStatus


def audience_problem(db: Session, *, advertiser_id: int, ids: Iterable[int], kept: Iterable[int] = ()) -> str | None:
    """Why these audience ids cannot be a campaign's of this advertiser, or None. Another advertiser's audience
    reads like a missing one (its name is not told). `kept`: audiences already on the saved campaign, which stay
    accepted when inactive, so a paused audience does not block every other edit of the campaigns using it."""
    wanted = sorted(set(ids))
    if not wanted:
        return None
    rows = db.exec(select(Audience.id, Audience.name, Audience.status, Audience.advertiser_id)
                   .where(col(Audience.id).in_(wanted))).all()
    own = {audience_id: (name, status) for audience_id, name, status, owner in rows if owner == advertiser_id}
    problems: list[Message] = []
    if missing := [i for i in wanted if i not in own]:
        problems.append(Message("Not audiences of this advertiser: {ids}.", ids=", ".join(f"#{i}" for i in missing)))
    kept_ids = set(kept)
    if inactive := [name for audience_id, (name, status) in own.items()
                    if status != AudienceStatus.ACTIVE and audience_id not in kept_ids]:
        problems.append(Message("Inactive audiences (activate them or take them out): {names}.",
                                names=", ".join(sorted(inactive))))
    # Both problems are one message whose parts a translator translates each (catalog.translator).
    return Message("{first} {second}", first=problems[0], second=problems[1]) if len(problems) == 2 \
        else problems[0] if problems else None
