"""The alert kinds, declared once: their keys, labels and who may see them. Checks, the API's documentation,
the subscription settings and the e-mail all read this table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.access.policy import Actor, can
from app.access.roles import Role
from app.kernel.page_links import page_link


class AlertKind(StrEnum):
    LOW_BALANCE = "low_balance"
    NO_SPEND = "no_spend"
    UNDER_DELIVERY = "under_delivery"
    REPORT_FAILED = "report_failed"
    PUSH_FAILED = "push_failed"


@dataclass(frozen=True)
class KindInfo:
    label: str  # what the settings and the e-mail call it
    fix: str  # what to do about it, as its link says it (English: the pages translate it by this text)
    fix_pages: tuple[str, ...]  # the pages that fix it, by name, the first the reader's role has (page_links)
    staff_only: bool = False  # only admins see it (the DSP connections are admin-only: permissions "dsp")


ADD_FUNDS = "Add funds"
OPEN_DELIVERY_CHECK = "Open the delivery check"
OPEN_REPORT = "Open the report"
OPEN_DSP = "Open the DSP connection"
KINDS: dict[AlertKind, KindInfo] = {
    AlertKind.LOW_BALANCE: KindInfo("Low balance", ADD_FUNDS, ("funds.add", "funds")),
    # The campaign view's delivery check says why it does not spend, and links to each reason's fix.
    AlertKind.NO_SPEND: KindInfo("Active campaign without spend for 24 hours", OPEN_DELIVERY_CHECK, ("campaign.view",)),
    AlertKind.UNDER_DELIVERY: KindInfo("Under-delivery against even pacing", OPEN_DELIVERY_CHECK, ("campaign.view",)),
    AlertKind.REPORT_FAILED: KindInfo("Failed report run", OPEN_REPORT, ("report.view",)),
    AlertKind.PUSH_FAILED: KindInfo("Failed DSP push", OPEN_DSP, ("dsp.view",), staff_only=True),
}


@dataclass(frozen=True)
class FixLink:
    label: str
    page: str
    link: str | None  # None: the reader's role has none of the kind's pages (ask whoever manages the account)


def fix_link(kind: str, subject: str, role: Role) -> FixLink:
    """An alert's fix for a reader of `role`, as a delivery check's reason gives one: the first of the kind's pages
    that role has, opened on the record the subject names ("campaign:7", "report:3", "push:<dsp id>:..." -> its
    second part; a page without an id ignores it)."""
    info = KINDS[AlertKind(kind)]
    parts = subject.split(":")
    record = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    for page in info.fix_pages:
        if (link := page_link(page, role, id=record)) is not None:
            return FixLink(info.fix, page, link)
    return FixLink(info.fix, info.fix_pages[-1], None)

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
