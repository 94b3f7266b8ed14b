"""What a campaign form's pickers offer, for one advertiser: the exchanges it may buy on, the reference lists
(operating systems with their versions, browsers, manufacturers, carriers with their countries), countries,
languages and the campaign's fixed choices, in one call.

Exchanges follow the advertiser's user configuration (admin, /admin/user-config): an empty
`allowed_exchanges` means no restriction, every active exchange, the same rule campaign_targeting applies
when it checks a saved campaign.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.access.models import User
from app.access.policy import Actor, can_see_user, require
from app.access.preferences import settings_of
from app.access.roles import Role
from app.campaigns.models import (
    BID_STRATEGIES,
    FREQUENCY_PERIODS,
    GOAL_METRICS,
    OBJECTIVES,
    PACING,
)
from app.campaigns.targeting import DEVICE_TYPES
from app.kernel.errors import NotFound
from app.reference import geo, metadata

ADVERTISER_NOT_FOUND = "User not found."


def _advertiser(db: Session, actor: Actor, advertiser_id: int | None) -> User | None:
    """The advertiser whose campaign is being edited: an advertiser is always itself; others name one in their
    row scope (out of scope answers like a missing one) or none yet."""
    if actor.role == Role.ADVERTISER:
        advertiser_id = actor.id if advertiser_id is None else advertiser_id
    if advertiser_id is None:
        return None
    advertiser = db.get(User, advertiser_id)
    if advertiser is None or advertiser.role != Role.ADVERTISER or not can_see_user(actor, advertiser):
        raise NotFound(ADVERTISER_NOT_FOUND)
    return advertiser


def supported_exchanges(db: Session, *, actor: Actor, advertiser_id: int | None) -> list[dict[str, Any]]:
    """The active exchanges the advertiser may buy on ({id, name}, by name): those its configuration names, or
    all when it names none. Without an advertiser (an agency or admin who has not chosen one yet): all."""
    require(actor, "reference", "view")
    advertiser = _advertiser(db, actor, advertiser_id)
    exchanges = metadata.active_values(db, actor=actor, kind="exchange")
    allowed = set(settings_of(db, advertiser.id).allowed_exchanges or []) if advertiser and advertiser.id else set()
    return [row.model_dump() for row in exchanges if not allowed or row.id in allowed]


def options(db: Session, *, actor: Actor, advertiser_id: int | None) -> dict[str, Any]:
    """Everything the campaign form's pickers need: {exchanges, operating_systems, os_versions (with parent_id),
    browsers, manufacturers, carriers (with country), traffic_type_values (the admin's list, with code), countries,
    languages, device_types, objectives, pacing, bid_strategies, frequency_periods, traffic_types, goal_metrics}.
    Lists of reference values hold {id, name}; the fixed choices are codes. Cities are searched
    (/api/meta/city), never listed."""
    require(actor, "campaign", "view")
    exchanges = supported_exchanges(db, actor=actor, advertiser_id=advertiser_id)

    def active(kind: str) -> list[dict[str, Any]]:
        return [row.model_dump() for row in metadata.active_values(db, actor=actor, kind=kind)]

    traffic_types = active("traffic_type")

    return {
        "exchanges": exchanges,
        "operating_systems": active("operating_system"),
        "os_versions": active("os_version"),
        "browsers": active("browser"),
        "manufacturers": active("manufacturer"),
        "carriers": active("carrier"),
        "traffic_type_values": traffic_types,
        "countries": [c.model_dump() for c in geo.countries(actor=actor)],
        "languages": [lang.model_dump() for lang in geo.languages(actor=actor)],
        "device_types": list(DEVICE_TYPES),
        "objectives": list(OBJECTIVES),
        "pacing": list(PACING),
        "bid_strategies": list(BID_STRATEGIES),
        "frequency_periods": list(FREQUENCY_PERIODS),
        "traffic_types": [row["code"] for row in traffic_types],  # the admin's list, as the codes campaigns keep
        "goal_metrics": list(GOAL_METRICS),
    }
