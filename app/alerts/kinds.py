"""The alert kinds, declared once: their keys, labels and who may see them. Checks, the API's documentation,
the subscription settings and the e-mail all read this table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.access.policy import Actor, can
from app.access.roles import Role


class AlertKind(StrEnum):
    LOW_BALANCE = "low_balance"
    NO_SPEND = "no_spend"
    UNDER_DELIVERY = "under_delivery"
    REPORT_FAILED = "report_failed"
    PUSH_FAILED = "push_failed"


@dataclass(frozen=True)
class KindInfo:
    label: str  # what the settings and the e-mail call it
    staff_only: bool = False  # only admins see it (the DSP connections are admin-only: permissions "dsp")


KINDS: dict[AlertKind, KindInfo] = {
    AlertKind.LOW_BALANCE: KindInfo("Low balance"),
    AlertKind.NO_SPEND: KindInfo("Active campaign without spend for 24 hours"),
    AlertKind.UNDER_DELIVERY: KindInfo("Under-delivery against even pacing"),
    AlertKind.REPORT_FAILED: KindInfo("Failed report run"),
    AlertKind.PUSH_FAILED: KindInfo("Failed DSP push", staff_only=True),
}

DEFAULT_LOW_BALANCE_DAYS = 3  # days of spend left below which the balance is low, unless the user sets another
MAX_LOW_BALANCE_DAYS = 90
BURN_DAYS = 7  # the burn rate is the spend of the last this many whole days, a day on average
NO_SPEND_HOURS = 24
UNDER_DELIVERY_SHARE = 0.8  # more than 20 % behind even pacing


# Who may be told of what: read by the services and by the subscription's reply (app/alerts/schemas.py).
def has_balance(actor: Actor) -> bool:
    """Whether the actor has a balance of their own, so a low-balance threshold that decides their alert."""
    return actor.role == Role.ADVERTISER


def subscribable(actor: Actor) -> list[str]:
    """The kinds the actor can be told of (an admin-only kind only to those who may see it)."""
    return [kind.value for kind, info in KINDS.items() if not info.staff_only or can(actor, "dsp", "view")]
