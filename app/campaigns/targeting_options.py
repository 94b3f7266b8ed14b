"""What a campaign form's pickers offer, for one advertiser: the exchanges it may buy on, the reference lists
(operating systems with their versions, browsers, manufacturers, carriers with their countries), countries,
languages and the campaign's fixed choices, in one call.

Exchanges follow the advertiser's user configuration (admin, /admin/user-config): an empty
`allowed_exchanges` means no restriction, every active exchange, the same rule campaign_targeting applies
when it checks a saved campaign.
"""

from __future__ import annotations

from typing import TypeVar

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
from app.campaigns.schemas import CampaignOptions
from app.campaigns.targeting import DEVICE_TYPES
from app.kernel.errors import NotFound
from app.reference import geo, metadata
from app.reference.schemas import CarrierOption, OsVersionOption, ReferenceOption, TrafficTypeOption

ADVERTISER_NOT_FOUND = "User not found."
OptionT = TypeVar("OptionT", bound=ReferenceOption)


def of_kind(options: list[ReferenceOption], kind: type[OptionT]) -> list[OptionT]:
    """A picker's options as the kind's own option class (metadata.active_values answers each kind's own)."""
    return [option for option in options if isinstance(option, kind)]


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


def supported_exchanges(db: Session, *, actor: Actor, advertiser_id: int | None) -> list[ReferenceOption]:
    """The active exchanges the advertiser may buy on ({id, name}, by name): those its configuration names, or
    all when it names none. Without an advertiser (an agency or admin who has not chosen one yet): all."""
    require(actor, "reference", "view")
    advertiser = _advertiser(db, actor, advertiser_id)
    exchanges = metadata.active_values(db, actor=actor, kind="exchange")
    allowed = set(settings_of(db, advertiser.id).allowed_exchanges or []) if advertiser and advertiser.id else set()
    return [row for row in exchanges if not allowed or row.id in allowed]


def options(db: Session, *, actor: Actor, advertiser_id: int | None, language: str | None = None) -> CampaignOptions:
    """Everything the campaign form's pickers need (CampaignOptions), countries and languages named in `language`
    (English by default: the API's). Cities are searched (/api/meta/city), never listed."""
    require(actor, "campaign", "view")
    exchanges = supported_exchanges(db, actor=actor, advertiser_id=advertiser_id)

    def active(kind: str) -> list[ReferenceOption]:
        return metadata.active_values(db, actor=actor, kind=kind)

    traffic_types = of_kind(active("traffic_type"), TrafficTypeOption)
    return CampaignOptions(
        exchanges=exchanges, operating_systems=active("operating_system"),
        os_versions=of_kind(active("os_version"), OsVersionOption), browsers=active("browser"),
        manufacturers=active("manufacturer"), carriers=of_kind(active("carrier"), CarrierOption),
        traffic_type_values=traffic_types, countries=geo.countries(actor=actor, language=language),
        languages=geo.languages(actor=actor, language=language),
        device_types=list(DEVICE_TYPES), objectives=list(OBJECTIVES), pacing=list(PACING),
        bid_strategies=list(BID_STRATEGIES), frequency_periods=list(FREQUENCY_PERIODS),
        traffic_types=[row.code for row in traffic_types],  # the admin's list, as the codes campaigns keep
        goal_metrics=list(GOAL_METRICS))
